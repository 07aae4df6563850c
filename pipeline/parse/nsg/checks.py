"""The record contract, checked on both NSG renditions: ids unique, parents before their
children (common.check_tree), depth 1 + the parent's depth, references that name a record,
one set of counts (common.count_records, and the examples)."""

from __future__ import annotations

from pipeline.models.records import CountKey, Location, ParseWarning, Rule, WarningCode
from pipeline.parse import common
from pipeline.parse.common import check_tree, warn


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
    return warnings + [
        warn(
            WarningCode.DANGLING_REFERENCE,
            f"{rule.id} cites {ref}, which is not in the document",
            rule.location,
        )
        for rule in records
        for ref in rule.references
        if ref not in depth
    ]


def count_records(records: list[Rule]) -> dict[str, int]:
    """One count per record kind (`chapters`, `sections`, `rules`, `subrules`), the total,
    and the examples."""
    counts = common.count_records(records)
    counts[CountKey.EXAMPLES] = sum(len(r.examples) for r in records)
    return counts
