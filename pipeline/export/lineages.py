"""The `lineages` of the SQLite export: each record followed through a document's versions.

A record continues the record its diff's lineage step names (`lookup.lineage.Step`, the
table history, follow and show read too), else the one with its own id when no diff
was stored. Each chain is a lineage, named by its first record's key; every record row
gets its `lineage`, `previous_citation` and `change`. A split continues in its first
part (as history follows it); a merge continues the first record merged.

The rows of one version are linked as that version is read, before they are written, so
the export holds only the previous version's citations, never every version's rows.
"""

from __future__ import annotations

from typing import Any

from pipeline.export.schema import Row
from pipeline.lookup.lineage import Step


def _before(step: Step | None, citation: str, previous: dict[str, str]) -> str | None:
    """The id of the previous version this record continues, if any."""
    if step is None:
        return citation if citation in previous else None
    return next((old for old in step.behind(citation) if old in previous), None)


class Linker:
    """The lineages of one document, its versions given oldest first."""

    def __init__(self) -> None:
        self.previous: dict[str, str] = {}  # citation -> lineage in the previous version
        self.lineages: dict[str, Row] = {}
        self.first = True

    def link(self, version: str, rows: list[Row], step: Step | None) -> None:
        """Set the lineage fields of one version's record rows. `step` is the lineage step
        of the stored diff from the previous version, or None when none was stored."""
        previous, first = self.previous, self.first
        befores = {row["citation"]: _before(step, row["citation"], previous) for row in rows}

        def first_part(row: Row, befores: Any = befores) -> bool:
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
                self.lineages[lineage] = {
                    "id": lineage,
                    "document": row["document"],
                    "first_version": version,
                    "first_citation": citation,
                    "versions": 0,
                }
            claimed.add(lineage)
            current[citation] = lineage
            entry = self.lineages[lineage]
            entry.update(
                latest_version=version, latest_citation=citation, versions=entry["versions"] + 1
            )
            row["lineage"] = lineage
            row["previous_citation"] = before
            row["change"] = None if first or step is None else step.change(before, citation)
        self.previous, self.first = current, False

    def rows(self) -> list[Row]:
        """The lineage rows, in the order their first records were linked."""
        return list(self.lineages.values())
