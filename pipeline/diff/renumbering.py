"""The renumbering map: old citation id -> where that record lives in a newer version. Pure.

`map_of_diff` reads one diff's changes; `compose_maps` follows consecutive maps
along the chain of stored versions, so a citation written against any old version
can be resolved against the current one. `lookup` answers one id.

An old id the map does not list is unchanged at the same number. A listed id is
renumbered, moved, split or merged (its number changed), removed, or changed at
the same number (its class is then the text class: reworded, typography-only,
reference-only, example-or-note-only).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from pipeline.models.changes import Change, ChangeClass
from pipeline.models.diffs import DocumentDiff, MapEntry, MapStep, RenumberingMap

NUMBER_CHANGES: tuple[ChangeClass, ...] = (
    "renumbered",
    "moved",
    "split",
    "merged",
    "possibly-moved",
)
# Text classes from the least to the most change, to summarise a chain of steps.
_TEXT_ORDER: tuple[ChangeClass | None, ...] = (
    None,
    "typography-only",
    "reference-only",
    "example-or-note-only",
    "cards-changed",
    "reworded",
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


def _stronger(a: ChangeClass | None, b: ChangeClass | None) -> ChangeClass | None:
    rank = {c: i for i, c in enumerate(_TEXT_ORDER)}
    return a if rank.get(a, len(rank)) >= rank.get(b, len(rank)) else b


def _text_of(entry: MapEntry) -> ChangeClass | None:
    """How one step changed the text."""
    if entry.cls in NUMBER_CHANGES:
        return entry.text_change
    return None if entry.cls == "removed" else entry.cls


@dataclass
class _Track:
    """One old id followed along the chain."""

    old_id: str
    current: str | None
    new_ids: list[str]
    number_class: ChangeClass | None
    text: ChangeClass | None
    weak: bool
    steps: list[MapStep]
    last: MapEntry | None = None

    def entry(self) -> MapEntry | None:
        if not self.steps or all(s.cls == "unchanged" for s in self.steps):
            return None
        if self.current is None:
            cls: ChangeClass = "removed"
        elif self.current != self.old_id or self.number_class in (
            "split",
            "merged",
            "possibly-moved",
        ):
            cls = self.number_class or "renumbered"
        else:
            cls = self.text or "reworded"
            if self.text is None:
                return None  # moved away and back, the same text: nothing to say
        last = self.last
        return MapEntry(
            old_id=self.old_id,
            new_id=self.current,
            new_ids=self.new_ids if cls in ("split", "possibly-moved") else [],
            old_ids=list(last.old_ids) if last and cls == "merged" else [],
            cls=cls,
            text_change=self.text if cls in NUMBER_CHANGES else None,
            method=last.method if last else None,
            similarity=last.similarity if last else None,
            weak=self.weak,
            evidence=last.evidence if last else None,
            steps=self.steps,
        )


def _number_class(before: ChangeClass | None, step: ChangeClass) -> ChangeClass | None:
    if step not in NUMBER_CHANGES:
        return before
    order: tuple[ChangeClass, ...] = ("renumbered", "moved", "merged", "split", "possibly-moved")
    if before is None:
        return step
    return before if order.index(before) >= order.index(step) else step


def compose_maps(maps: Sequence[RenumberingMap], old_ids: Iterable[str]) -> RenumberingMap:
    """Follow consecutive maps (oldest first) from the ids of the first version to the
    last version. `old_ids` are the record ids of the first version: an id a map names
    is only an old citation if the first version had it (or it is where one went)."""
    if not maps:
        raise ValueError("compose_maps needs at least one map")
    for before, after in itertools.pairwise(maps):
        if before.new_version != after.old_version:
            raise ValueError(f"maps do not chain: {before.new_version} then {after.old_version}")
    tracks: dict[str, _Track] = {}
    at: dict[str, list[_Track]] = {}  # current id -> the tracks standing there
    start = set(old_ids)
    fresh: set[str] = set()  # current ids of records added after the first version
    for index, step_map in enumerate(maps):
        version = step_map.new_version
        moved: list[tuple[_Track, MapEntry]] = []
        for entry in step_map.entries:
            standing = at.get(entry.old_id)
            if standing is None and entry.old_id in start and entry.old_id not in tracks:
                # Unchanged until now: start following it here.
                earlier = [
                    MapStep(version=m.new_version, id=entry.old_id, cls="unchanged")
                    for m in maps[:index]
                ]
                track = _Track(entry.old_id, entry.old_id, [], None, None, False, earlier)
                tracks[entry.old_id] = track
                standing = [track]
            for track in standing or []:
                moved.append((track, entry))
        step = {e.old_id: e for e in step_map.entries}
        carried: set[str] = set()
        for ident in fresh:
            went = step.get(ident)
            if went is None:
                carried.add(ident)
            elif went.new_id is not None:
                carried.add(went.new_id)
        fresh = carried | set(step_map.added)
        stepped: set[int] = set()
        for track, entry in moved:
            stepped.add(id(track))
            track.current = entry.new_id
            track.new_ids = list(entry.new_ids) or ([entry.new_id] if entry.new_id else [])
            track.number_class = _number_class(track.number_class, entry.cls)
            track.text = _stronger(track.text, _text_of(entry))
            track.weak = track.weak or entry.weak
            track.last = entry
            track.steps.append(
                MapStep(version=version, id=entry.new_id, cls=entry.cls, method=entry.method)
            )
        for track in tracks.values():
            if id(track) not in stepped and track.current is not None:
                track.steps.append(MapStep(version=version, id=track.current, cls="unchanged"))
        at = {}
        for track in tracks.values():
            if track.current is not None:
                at.setdefault(track.current, []).append(track)
    entries = [e for e in (tracks[k].entry() for k in sorted(tracks, key=id_key)) if e]
    return RenumberingMap(
        document=maps[-1].document,
        old_version=maps[0].old_version,
        new_version=maps[-1].new_version,
        via=[maps[0].old_version, *(m.new_version for m in maps)],
        entries=entries,
        added=sorted((a for a in fresh if a), key=id_key),
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
    entry = next((e for e in rmap.entries if e.old_id == old_id), None)
    if entry is None:
        return Lookup("current", old_id, None)
    if entry.new_id is None:
        return Lookup("removed", None, entry)
    if entry.new_id != old_id or entry.cls in NUMBER_CHANGES:
        return Lookup("renumbered", entry.new_id, entry)
    if entry.cls in _STILL_CURRENT:
        return Lookup("current", old_id, entry)
    return Lookup("changed", old_id, entry)
