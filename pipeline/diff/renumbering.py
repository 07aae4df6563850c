"""The renumbering map: old citation id -> where that record lives in a newer version. Pure.

`map_of_diff` reads one diff's changes: the step a record's lineage
(`lookup.lineage`) takes between two versions, so a citation written against any old
version can be resolved against the current one. `lookup` answers one id.

An old id the map does not list is unchanged at the same number. A listed id is
renumbered, moved, split or merged (its number changed), removed, or changed at
the same number (its class is then the text class: reworded, typography-only,
reference-only, example-or-note-only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pipeline.models.changes import Change, ChangeClass
from pipeline.models.diffs import DocumentDiff, MapEntry, RenumberingMap

NUMBER_CHANGES: tuple[ChangeClass, ...] = (
    "renumbered",
    "moved",
    "split",
    "merged",
    "possibly-moved",
)
_CHUNK = re.compile(r"\d+|\D+")


def id_key(ident: str) -> tuple[tuple[int, str], ...]:
    """Natural order of citation ids: cr:2 < cr:10 < cr:10.1 < cr:10.1a."""
    return tuple((int(c), "") if c.isdigit() else (-1, c) for c in _CHUNK.findall(ident))


def _entries_of(change: Change) -> list[MapEntry]:
    common = {
        "method": change.method,
        "similarity": change.similarity,
        "weak": change.weak,
        "evidence": change.evidence,
    }
    if change.cls == "added":
        return []
    if change.cls == "removed":
        return [MapEntry(old_id=change.old_id or "", new_id=None, cls="removed", **common)]
    if change.cls in ("split", "possibly-moved"):
        old = change.old_id or change.old_ids[0]
        return [
            MapEntry(
                old_id=old,
                new_id=change.new_ids[0],
                new_ids=list(change.new_ids),
                cls=change.cls,
                text_change=change.text_change,
                **common,
            )
        ]
    if change.cls == "merged":
        return [
            MapEntry(
                old_id=old,
                new_id=change.new_id,
                old_ids=list(change.old_ids),
                cls="merged",
                text_change=change.text_change,
                **common,
            )
            for old in change.old_ids
        ]
    assert change.old_id is not None
    return [
        MapEntry(
            old_id=change.old_id,
            new_id=change.new_id,
            cls=change.cls,
            text_change=change.text_change,
            **common,
        )
    ]


def map_of_diff(diff: DocumentDiff) -> RenumberingMap:
    """The map of one diff: every old id that did not stay the same at the same number."""
    entries: dict[str, MapEntry] = {}
    added: list[str] = []
    for change in diff.changes:
        if change.cls == "added" and change.new_id is not None:
            added.append(change.new_id)
        for entry in _entries_of(change):
            known = entries.get(entry.old_id)
            # A record whose text went to several places and, in part, into a rule that
            # gathers others is first of all split: its entry lists every piece.
            if known is None or (known.cls == "merged" and entry.cls == "split"):
                entries[entry.old_id] = entry
    return RenumberingMap(
        document=diff.document,
        old_version=diff.old_version,
        new_version=diff.new_version,
        via=[diff.old_version, diff.new_version],
        entries=[entries[k] for k in sorted(entries, key=id_key)],
        added=sorted(added, key=id_key),
    )


Status = Literal["current", "renumbered", "changed", "removed"]
# A citation whose rule changed no more than this still says what it said.
_STILL_CURRENT: tuple[ChangeClass | None, ...] = (None, "typography-only", "reference-only")


@dataclass(frozen=True)
class Lookup:
    """What became of one old id: its status, where it lives now, and the map's entry."""

    status: Status
    new_id: str | None
    entry: MapEntry | None


def lookup(rmap: RenumberingMap, old_id: str) -> Lookup:
    """Resolve one id of the map's old version (which must have it) in its new version."""
    return status_of(old_id, next((e for e in rmap.entries if e.old_id == old_id), None))


def status_of(old_id: str, entry: MapEntry | None) -> Lookup:
    """What an old id's map entry (None: the map does not list it) says became of it."""
    if entry is None:
        return Lookup("current", old_id, None)
    if entry.new_id is None:
        return Lookup("removed", None, entry)
    if entry.new_id != old_id or entry.cls in NUMBER_CHANGES:
        return Lookup("renumbered", entry.new_id, entry)
    if entry.cls in _STILL_CURRENT:
        return Lookup("current", old_id, entry)
    return Lookup("changed", old_id, entry)
