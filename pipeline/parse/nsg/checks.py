"""The record contract, checked on both NSG renditions: ids unique, parents before their
children (common.check_tree), depth 1 + the parent's depth, references that name a record,
one set of counts (common.count_records, the examples and the changes)."""

from __future__ import annotations

from typing import Any

from pipeline.models.records import (
    CountKey,
    Document,
    Location,
    ParseOptions,
    ParserInfo,
    ParseWarning,
    PublisherChange,
    Rule,
    WarningCode,
)
from pipeline.parse.common import check_tree, count_records, warn


def problem(code: str, message: str, line: int | None = None) -> ParseWarning:
    location = Location(line=line) if line is not None else None
    return ParseWarning(code=WarningCode(code), message=message, location=location)


def check_records(records: list[Rule]) -> list[ParseWarning]:
    """Duplicate ids, parents not seen before, a depth off the contract, dangling references."""
    warnings = check_tree(records)
    depth: dict[str, int] = {}
    for rule in records:
        expected = 1 if rule.parent is None else depth.get(rule.parent, 0) + 1
        if rule.depth != expected:
            message = f"{rule.id} has depth {rule.depth}, its place gives {expected}"
            warnings.append(warn(WarningCode.MISPLACED, message, rule.location))
        depth[rule.id] = rule.depth
    dangling = WarningCode.DANGLING_REFERENCE
    return warnings + [
        warn(dangling, f"{rule.id} cites {ref}, which is not in the document", rule.location)
        for rule in records
        for ref in rule.references
        if ref not in depth
    ]


def nsg_document(
    options: ParseOptions,
    parser: ParserInfo,
    records: list[Rule],
    changes: list[PublisherChange],
    warnings: list[ParseWarning],
    notes: dict[str, int],
    **fields: Any,
) -> Document:
    """Either rendition's Document: its records checked after the parse's own warnings, and
    counted per kind (`chapters`, ..., the total), with the examples and the changes."""
    counts = count_records(records) | {
        CountKey.EXAMPLES: sum(len(r.examples) for r in records),
        "publisher_changes": len(changes),
    }
    return Document(
        game=options.document.split("/")[0], document=options.document, parser=parser,
        records=records, publisher_changes=changes, extraction=dict(sorted((notes or {}).items())),
        warnings=warnings + check_records(records), counts=counts, **fields,
    )  # fmt: skip
