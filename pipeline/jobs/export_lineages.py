"""The `lineages` of the SQLite export: each record followed through a document's versions.

A record continues the record its diff's lineage step names (`corpus.lineage.Step`, the
table history, follow and show read too), else the one with its own id when no diff
was stored. Each chain is a lineage, named by its first record's key; every record row
gets its `lineage`, `previous_citation` and `change`. A split continues in its first
part (as history follows it); a merge continues the first record merged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipeline.corpus.lineage import Step, step_of_map
from pipeline.corpus.sqlite_schema import Row
from pipeline.diff.models import DocumentDiff
from pipeline.diff.renumbering import map_of_diff

# (old version, new version) -> the stored diff's JSON, or None when none was stored
DiffOf = Callable[[str, str], dict[str, Any] | None]
# (old version, new version) -> the lineage step of their stored diff, or None
StepOf = Callable[[str, str], Step | None]


def step_of_diff(diff: dict[str, Any]) -> Step:
    """A stored diff's JSON as its lineage step (through its renumbering map)."""
    rmap = map_of_diff(DocumentDiff.model_validate(diff))
    return step_of_map(rmap.model_dump(mode="json", by_alias=True))


def link_lineages(records: list[Row], versions: list[str], diff_of: DiffOf) -> list[Row]:
    """`link_steps` with each step read off the stored diff `diff_of` gives."""

    def step_of(old: str, new: str) -> Step | None:
        diff = diff_of(old, new)
        return step_of_diff(diff) if diff is not None else None

    return link_steps(records, versions, step_of)


def _before(step: Step | None, citation: str, previous: dict[str, str]) -> str | None:
    """The id of the previous version this record continues, if any."""
    if step is None:
        return citation if citation in previous else None
    return next((old for old in step.behind(citation) if old in previous), None)


def link_steps(records: list[Row], versions: list[str], step_of: StepOf) -> list[Row]:
    """Set each record row's lineage fields (rows of one document, oldest version first)
    and give the lineage rows."""
    by_version: dict[str, list[Row]] = {}
    for row in records:
        by_version.setdefault(row["version"], []).append(row)
    previous: dict[str, str] = {}  # citation -> lineage in the previous version
    lineages: dict[str, Row] = {}
    for index, version in enumerate(versions):
        step = step_of(versions[index - 1], version) if index else None
        rows = by_version.get(version, [])
        befores = {row["citation"]: _before(step, row["citation"], previous) for row in rows}

        def first_part(row: Row, step: Step | None = step, befores: Any = befores) -> bool:
            # A split's first part claims the lineage before its other parts.
            before = befores[row["citation"]]
            return bool(step and before and step.ahead(before)[:1] == (row["citation"],))

        current: dict[str, str] = {}
        claimed: set[str] = set()
        for row in sorted(rows, key=lambda r: not first_part(r)):
            citation = row["citation"]
            before = befores[citation]
            lineage = previous.get(before) if before else None
            if lineage is None or lineage in claimed:
                lineage, before = row["key"], None
                lineages[lineage] = {
                    "id": lineage,
                    "document": row["document"],
                    "first_version": version,
                    "first_citation": citation,
                    "versions": 0,
                }
            claimed.add(lineage)
            current[citation] = lineage
            entry = lineages[lineage]
            entry.update(
                latest_version=version, latest_citation=citation, versions=entry["versions"] + 1
            )
            row["lineage"] = lineage
            row["previous_citation"] = before
            if index == 0 or step is None:
                row["change"] = None
            else:
                row["change"] = step.change(before, citation)
        previous = current
    return list(lineages.values())
