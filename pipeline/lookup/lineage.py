"""The one lineage: a record followed through a document's versions, for every answer
that crosses them. JSON only, like `store.reader`.

Each stored diff's renumbering map (`diff.renumbering.map_of_diff`) becomes a `Step` once
per reader: old id -> the new ids it went to (none: removed; several: split), and back,
new id -> the old ids it came from (several: merged). An id the map does not list stayed
at its number. `follow` (every branch of a split), `history` (back and forth from the
newest version holding a record) and `entry_along` (the renumbering map's entry across
several versions, which `renumbering`, show's "now" and cite-check read) walk these
steps; the site's old-number pages are `follow`'s answers and the export's lineages read
each step, so none of them can disagree.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from typing import Any, NamedTuple

from pipeline.errors import NotFound, UsageError
from pipeline.store.reader import StoredCorpus

# (document, old version, new version) -> the renumbering map's JSON of that pair
MapOf = Callable[[str, str, str], dict[str, Any]]


class Step(NamedTuple):
    """The lineage table of one stored diff (old version -> the next one)."""

    old: str
    new: str
    forward: dict[str, tuple[str, ...]]  # listed old id -> its new ids (empty: removed)
    entries: dict[str, dict[str, Any]]  # listed old id -> the map's entry
    back: dict[str, tuple[str, ...]]  # new id -> the listed old ids that went there
    added: frozenset[str]

    def ahead(self, old_id: str) -> tuple[str, ...]:
        """Where an id of the old version went: unlisted ids stay at their number."""
        return self.forward.get(old_id, (old_id,))

    def behind(self, new_id: str) -> tuple[str, ...]:
        """The old ids an id of the new version came from: none when it was added, or when
        its number held another rule that moved away (that number is new, then, too)."""
        if new_id in self.back:
            return self.back[new_id]
        if new_id in self.added or new_id in self.forward:
            return ()
        return (new_id,)

    def change(self, old_id: str | None, new_id: str | None) -> str:
        """The class of what happened between the two: the map's class, `added`,
        `removed` or `unchanged`."""
        if old_id is None:
            return "added" if new_id is not None else "absent"
        entry = self.entries.get(old_id)
        if entry is not None:
            return str(entry.get("class"))
        return "unchanged" if new_id is not None else "removed"


def step_of_map(data: dict[str, Any]) -> Step:
    """A renumbering map's JSON (as stored, `diff.renumbering.map_of_diff`'s model) as a step."""
    forward: dict[str, tuple[str, ...]] = {}
    entries: dict[str, dict[str, Any]] = {}
    back: dict[str, list[str]] = {}
    for entry in data.get("entries") or []:
        old_id = entry["old_id"]
        new_ids = tuple(entry.get("new_ids") or ([entry["new_id"]] if entry.get("new_id") else []))
        forward[old_id], entries[old_id] = new_ids, entry
        if entry.get("class") == "possibly-moved":
            continue  # where its words stand, not a record's past: history looks elsewhere
        for new_id in new_ids:
            back.setdefault(new_id, []).append(old_id)
    return Step(
        old=str(data.get("old_version")),
        new=str(data.get("new_version")),
        forward=forward,
        entries=entries,
        back={k: tuple(v) for k, v in back.items()},
        added=frozenset(data.get("added") or []),
    )


class Crossed(NamedTuple):
    """One renumbering crossed while following a citation: an entry of a stored map."""

    old_version: str
    new_version: str
    old_id: str
    new_ids: tuple[str, ...]
    cls: str
    method: str | None = None
    similarity: float | None = None


class Trail(NamedTuple):
    """Where a citation of `since` lives in `version`: `ids` (empty: removed in
    `removed_in`; several: split), and the renumberings crossed, oldest first."""

    since: str
    version: str
    ids: tuple[str, ...]
    crossed: tuple[Crossed, ...] = ()
    removed_in: str | None = None


class HistoryStep(NamedTuple):
    """A record in one version: its id there (None: absent), its text, and what happened
    to it coming from the version before (`first stored` for the oldest)."""

    version: str
    citation: str | None
    text: str | None
    change: str = ""
    citations: tuple[str, ...] = ()


def text_of(record: dict[str, Any] | None) -> str | None:
    """What history shows of a record: a rule's text (or its title), a term's
    definition, a ruling's answer."""
    if record is None:
        return None
    if "definition" in record:
        return str(record["definition"])
    if "answer" in record or "question" in record:
        return record.get("answer") or record.get("text")
    text, title = record.get("text"), record.get("title")
    return text if text or title is None else title


# Stored versions further apart than this may have releases between them the corpus never
# stored: what happened is said to have happened between the two.
_RELEASES_APART = 366
# The classes that change a number, from the least to the most a reader should check.
NUMBER_CHANGES = ("renumbered", "moved", "merged", "split", "possibly-moved")
# Text classes from the least to the most change, to sum up several steps in one.
_TEXT_ORDER = (
    None,
    "typography-only",
    "reference-only",
    "example-or-note-only",
    "cards-changed",
    "reworded",
)


def _text_rank(cls: str | None) -> int:
    return _TEXT_ORDER.index(cls) if cls in _TEXT_ORDER else len(_TEXT_ORDER)


def label_of(step: Step, old_id: str | None, new_id: str | None) -> str:
    """What history says of one step: the class, with the text change as well when the
    number changed too ("renumbered and reworded"), and "added between OLD and NEW" when
    the two stored versions are over a year apart."""
    change = step.change(old_id, new_id)
    entry = step.entries.get(old_id) if old_id is not None else None
    if entry is not None and change in NUMBER_CHANGES and entry.get("text_change"):
        change = f"{change} and {entry['text_change']}"
    if change in ("added", "removed") and _years_apart(step.old, step.new):
        change = f"{change} between {step.old} and {step.new}"
    return change


def _years_apart(old: str, new: str) -> bool:
    try:
        return (date.fromisoformat(new) - date.fromisoformat(old)).days > _RELEASES_APART
    except ValueError:
        return False


def entry_along(steps: Iterable[Step], old_id: str) -> dict[str, Any] | None:
    """The renumbering map entry (its JSON) of `old_id` across consecutive steps: the
    record followed where each step's entry sends it (a split: its first part), every
    step named, the number and text changes summed up; None when nothing changed."""
    current: str | None = old_id
    new_ids: list[str] = []
    number: str | None = None
    text: str | None = None
    weak, last = False, None
    named: list[dict[str, Any]] = []
    for step in steps:
        if current is None:
            continue
        entry = step.entries.get(current)
        if entry is None:
            named.append({"version": step.new, "id": current, "class": "unchanged"})
            continue
        cls = entry["class"]
        current = entry.get("new_id")
        new_ids = list(entry.get("new_ids") or []) or ([current] if current else [])
        if cls in NUMBER_CHANGES:
            number = max(number or cls, cls, key=NUMBER_CHANGES.index)
        said = entry.get("text_change") if cls in NUMBER_CHANGES else cls
        text = max(text, None if cls == "removed" else said, key=_text_rank)
        weak, last = weak or bool(entry.get("weak")), entry
        named.append(
            {"version": step.new, "id": current, "class": cls, "method": entry.get("method")}
        )
    if last is None:
        return None
    if current is None:
        cls = "removed"
    elif current != old_id or number in ("split", "merged", "possibly-moved"):
        cls = number or "renumbered"
    elif text is None:
        return None  # moved away and back, the same text: nothing to say
    else:
        cls = text
    return {
        "old_id": old_id,
        "new_id": current,
        "new_ids": new_ids if cls in ("split", "possibly-moved") else [],
        "old_ids": list(last.get("old_ids") or []) if cls == "merged" else [],
        "class": cls,
        "text_change": text if cls in NUMBER_CHANGES else None,
        "method": last.get("method"),
        "similarity": last.get("similarity"),
        "weak": weak,
        "evidence": last.get("evidence"),
        "steps": named,
    }


def added_along(steps: Iterable[Step]) -> set[str]:
    """The ids of the last version holding a record added after the first."""
    fresh: set[str] = set()
    for step in steps:
        carried = {i for i in fresh if i not in step.entries}
        carried |= {n for i in fresh if (n := step.entries.get(i, {}).get("new_id"))}
        fresh = carried | step.added
    return fresh


class Lineages:
    """The steps of every stored diff of a corpus, each built once when first crossed."""

    def __init__(self, stored: StoredCorpus, map_of: MapOf | None = None) -> None:
        self.stored = stored
        self._map_of = map_of
        self._steps_of: dict[tuple[str, str, str], Step] = {}

    def step(self, document: str, old: str, new: str) -> Step:
        found = self.stored_step(document, old, new)
        if found is None:
            raise NotFound(
                f"a stored renumbering map {old}..{new} of {document}",
                "re-import the document so each diff stores its map",
            )
        return found

    def stored_step(self, document: str, old: str, new: str) -> Step | None:
        """The step of two consecutive versions: their stored map, else the one `map_of`
        reads off their diff; None when neither is at hand."""
        key = (document, old, new)
        if key not in self._steps_of:
            data = self.stored.stored_map(document, old, new)
            if data is None and self._map_of is not None:
                data = self._map_of(document, old, new)
            if data is None:
                return None
            self._steps_of[key] = step_of_map(data)
        return self._steps_of[key]

    def steps(self, document: str, since: str, to: str) -> Iterator[Step]:
        """The steps from `since` to `to`, oldest first: the one path every walk takes."""
        versions = self.stored.published(document)
        for version in (since, to):
            if version not in versions:
                known = ", ".join(versions) or "none"
                raise NotFound(f"version {version} of {document}", f"published versions: {known}")
        start, end = versions.index(since), versions.index(to)
        if start > end:
            raise UsageError(
                f"{document}: {since} is newer than {to}; the older version comes first (swap them)"
            )
        for old, new in itertools.pairwise(versions[start : end + 1]):
            yield self.step(document, old, new)

    def follow(self, document: str, citation: str, since: str, to: str) -> Trail:
        """Every id `citation` of `since` became in `to`, each branch of a split followed."""
        ids: tuple[str, ...] = (citation,)
        crossed: list[Crossed] = []
        for step in self.steps(document, since, to):
            moved: list[str] = []
            for ident in ids:
                entry = step.entries.get(ident)
                if entry is not None and step.ahead(ident) != (ident,):
                    crossed.append(
                        Crossed(
                            step.old,
                            step.new,
                            ident,
                            step.ahead(ident),
                            str(entry.get("class")),
                            entry.get("method"),
                            entry.get("similarity"),
                        )
                    )
                moved += [i for i in step.ahead(ident) if i not in moved]
            ids = tuple(moved)
            if not ids:
                return Trail(since, to, (), tuple(crossed), removed_in=step.new)
        return Trail(since, to, ids, tuple(crossed))

    def renumbered_in(self, document: str, old_id: str, upto: str) -> str | None:
        """The version in which `old_id` left its number: the newest step up to `upto`
        whose stored map lists it (the alias table says where it went, not when). Stored
        maps only, never one read off a diff, so the json-only `show` says the same."""
        versions = self.stored.published(document)
        if upto in versions:
            versions = versions[: versions.index(upto) + 1]
        for old, new in reversed(list(itertools.pairwise(versions))):
            if self.stored.stored_map(document, old, new) is None:
                continue
            if old_id in self.step(document, old, new).entries:
                return new
        return None

    def anchor(self, document: str, citation: str, upto: str | None = None) -> tuple[str, str]:
        """(version, id): the newest published version up to `upto` holding `citation`,
        else the newest whose alias table names it (an id renumbered before it)."""
        versions = self.stored.published(document)
        if upto is not None and upto in versions:
            versions = versions[: versions.index(upto) + 1]
        for version in reversed(versions):
            if self.stored.version(document, version).has(citation):
                return version, citation
        for version in reversed(versions):
            alias = self.stored.aliases(document, version).get(citation)
            if alias:
                return version, alias
        raise NotFound(
            f"{citation} in any stored version of {document}",
            "check the number (`rulescorpus search` finds a rule by its words)",
        )

    def history(self, document: str, citation: str) -> list[HistoryStep]:
        """The record in every published version, from the newest version that holds it
        (or an alias of it) back along each map and forward to the current version. A
        record's bytes are read only where its map entry says it changed."""
        versions = self.stored.published(document)
        anchor, ident = self.anchor(document, citation)
        at = versions.index(anchor)
        ids: dict[str, tuple[str, ...]] = {anchor: (ident,)}
        changes: dict[str, str] = {}
        for i in range(at, 0, -1):  # backwards: new id -> the old ids it came from
            new, old = versions[i], versions[i - 1]
            if not ids[new]:  # absent here (added later): absent in every older version too
                ids[old] = ()
                changes[new] = "absent"
                continue
            step = self.step(document, old, new)
            came = tuple(o for n in ids[new] for o in step.behind(n))
            ids[old] = came
            changes[new] = label_of(step, came[0] if came else None, ids[new][0])
        for i in range(at, len(versions) - 1):  # forwards: old id -> the new ids it went to
            old, new = versions[i], versions[i + 1]
            step = self.step(document, old, new)
            if not ids[old]:
                ids[new] = ()
                changes[new] = "absent"
                continue
            went = step.ahead(ids[old][0])
            ids[new] = went
            changes[new] = label_of(step, ids[old][0], went[0] if went else None)
        steps: list[HistoryStep] = []
        text: str | None = None
        for index, version in enumerate(versions):
            here = ids.get(version, ())
            change = changes.get(version, "first stored" if index == 0 and here else "absent")
            if not here:
                text = None
            elif text is None or change != "unchanged" or index == at:
                record = self.stored.version(document, version).record(here[0])
                text = text_of(record)
            steps.append(HistoryStep(version, here[0] if here else None, text, change, tuple(here)))
        return steps
