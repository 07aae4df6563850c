"""The `lineages` of the SQLite export: each record followed through a document's versions.

A record continues the one its diff's renumbering map names, else the one with its own
id (unless that one was renumbered away). Each chain is a lineage, named by its first
record's key; every record row gets its `lineage`, `previous_citation` and `change`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipeline.corpus.sqlite_schema import Row

# (old version, new version) -> the stored diff's JSON, or None when none was stored
DiffOf = Callable[[str, str], dict[str, Any] | None]


def change_classes(diff: dict[str, Any]) -> dict[str, str]:
    """New id -> the class of the first change that produced it (a split names several)."""
    classes: dict[str, str] = {}
    for change in diff.get("changes", []):
        for new_id in [change.get("new_id"), *change.get("new_ids", [])]:
            if new_id:
                classes.setdefault(new_id, str(change.get("class")))
    return classes


def link_lineages(records: list[Row], versions: list[str], diff_of: DiffOf) -> list[Row]:
    """Set each record row's lineage fields (rows of one document, oldest version first)
    and give the lineage rows."""
    by_version: dict[str, list[Row]] = {}
    for row in records:
        by_version.setdefault(row["version"], []).append(row)
    previous: dict[str, str] = {}  # citation -> lineage in the previous version
    lineages: dict[str, Row] = {}
    for index, version in enumerate(versions):
        diff = diff_of(versions[index - 1], version) if index else None
        classes = change_classes(diff) if diff is not None else {}
        moves = diff.get("renumbering", []) if diff else []
        back = {m["new_id"]: m["old_id"] for m in moves if m.get("old_id") and m.get("new_id")}
        moved_away = set(back.values())
        current: dict[str, str] = {}
        claimed: set[str] = set()
        for row in by_version.get(version, []):
            citation = row["citation"]
            before = back.get(citation)
            if before is None and citation in previous and citation not in moved_away:
                before = citation
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
            if index == 0:
                row["change"] = None
            else:
                row["change"] = classes.get(citation) or (
                    ("unchanged" if before else "added") if diff is not None else None
                )
        previous = current
    return list(lineages.values())
