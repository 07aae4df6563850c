"""The record contract, checked on both NSG renditions: ids unique, parents before their
children, depth 1 + the parent's depth, references that name a record, one set of counts."""

from __future__ import annotations

from collections import Counter

from pipeline.models.records import Location, ParseWarning, Rule, WarningCode


def problem(code: str, message: str, line: int | None = None) -> ParseWarning:
    location = Location(line=line) if line is not None else None
    return ParseWarning(code=WarningCode(code), message=message, location=location)


def check_records(records: list[Rule]) -> list[ParseWarning]:
    """Duplicate ids, parents not seen before, a depth off the contract, dangling references."""
    warnings: list[ParseWarning] = []
    depth: dict[str, int] = {}
    for rule in records:
        line = rule.location.line
        if rule.id in depth:
            warnings.append(problem("duplicate-id", f"{rule.id} appears more than once", line))
        if rule.parent is not None and rule.parent not in depth:
            warnings.append(
                problem("orphan", f"{rule.id} has parent {rule.parent}, not seen before it", line)
            )
        expected = 1 if rule.parent is None else depth.get(rule.parent, 0) + 1
        if rule.depth != expected:
            warnings.append(
                problem(
                    "misplaced",
                    f"{rule.id} has depth {rule.depth}, its place gives {expected}",
                    line,
                )
            )
        depth[rule.id] = rule.depth
    for rule in records:
        for ref in rule.references:
            if ref not in depth:
                warnings.append(
                    problem(
                        "dangling-reference",
                        f"{rule.id} cites {ref}, which is not in the document",
                        rule.location.line,
                    )
                )
    return warnings


def count_records(records: list[Rule]) -> dict[str, int]:
    """One count per record kind (`chapters`, `sections`, `rules`, `subrules`), the total,
    and the examples."""
    counts = {f"{kind}s": n for kind, n in sorted(Counter(r.kind for r in records).items())}
    counts["records"] = len(records)
    counts["examples"] = sum(len(r.examples) for r in records)
    return counts
