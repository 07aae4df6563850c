"""What the Markdown and HTML changelogs share: grouping changes by chapter and section,
describing one change (with how its pairing was made, and a warning on a weak one), the
summary rows, and the renumbering map they both end with. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pipeline.diff.documents import CHANGE_CLASSES, is_renumbering_noise
from pipeline.diff.renumbering import NUMBER_CHANGES, map_of_diff
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff, MapEntry
from pipeline.models.records import Document, Rule

_GROUPS = {"glossary": "Glossary", "ruling": "Rulings"}
WEAK_MARK = "⚠"
WEAK_NOTE = (
    "made on similarity, subrules or position with under 0.85 of the words in common: check them"
)


def primary_id(change: Change) -> str:
    if change.cls == "possibly-moved":  # the old rule's story: its words stand elsewhere
        return change.old_id or "?"
    return change.new_id or change.old_id or (change.new_ids or change.old_ids or ["?"])[0]


def _record(change: Change, old: dict[str, Rule], new: dict[str, Rule]) -> Rule | None:
    for rid in (change.new_id, *change.new_ids):
        if rid in new:
            return new[rid]
    for rid in (change.old_id, *change.old_ids):
        if rid in old:
            return old[rid]
    return None


def _heading(rule: Rule) -> str:
    return f"{rule.number} {rule.title}" if rule.title else rule.id


def _chain(rule: Rule, records: dict[str, Rule]) -> list[Rule]:
    chain = [rule]
    while chain[-1].parent is not None and chain[-1].parent in records and len(chain) < 32:
        chain.append(records[chain[-1].parent])
    return chain[::-1]


def group_changes(
    changes: Iterable[Change], old: Document, new: Document
) -> list[tuple[str, list[tuple[str | None, list[Change]]]]]:
    """[(chapter heading, [(section heading or None, changes)])] in the order changes come."""
    old_by_id = {r.id: r for r in old.records}
    new_by_id = {r.id: r for r in new.records}
    chapters: dict[str, dict[str | None, list[Change]]] = {}
    for change in changes:
        rule = _record(change, old_by_id, new_by_id)
        if rule is None:  # glossary terms, rulings: grouped by the kind their id names
            prefix = primary_id(change).split(":", 1)[0]
            chapter, section = _GROUPS.get(prefix, prefix), None
        else:
            records = new_by_id if new_by_id.get(rule.id) is rule else old_by_id
            chain = _chain(rule, records)
            chapter = _heading(chain[0])
            section = _heading(chain[1]) if len(chain) > 1 else None
        chapters.setdefault(chapter, {}).setdefault(section, []).append(change)
    return [(c, list(sections.items())) for c, sections in chapters.items()]


def anchor_ids(changes: list[Change]) -> list[str]:
    """One unique, stable HTML id per change, derived from its citation id (the HTML
    report's and the site's changes pages' anchors)."""
    seen: dict[str, int] = {}
    out = []
    for change in changes:
        base = "change-" + (re.sub(r"[^A-Za-z0-9]+", "-", primary_id(change)).strip("-") or "x")
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def change_ids(change: Change) -> tuple[str, str]:
    old = ", ".join(change.old_ids) if change.old_ids else (change.old_id or "")
    new = ", ".join(change.new_ids) if change.new_ids else (change.new_id or "")
    return old, new


def listed(ids: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1]


def reused_numbers(changes: list[Change]) -> set[str]:
    """Ids a removed rule held and an added one holds now: two rules at one number, which a
    contents list says, so the two lines are not read as one rule removed and re-added."""
    removed = {c.old_id for c in changes if c.cls == "removed" and c.old_id}
    return {c.new_id for c in changes if c.cls == "added" and c.new_id in removed}


def contents_entry(change: Change, reused: set[str] | None = None) -> tuple[str, str]:
    """How a contents list names one change: (the ids, what happened to them). A move is
    old → new, a split names its pieces, a merge the records it gathered, a possible move
    where its words stand; a number that changed hands says so."""
    reused = reused or set()
    if change.cls == "removed" and change.old_id in reused:
        return change.old_id or "", "removed (its number now holds another rule, added)"
    if change.cls == "added" and change.new_id in reused:
        return change.new_id or "", "added (at the number of another rule, removed)"
    if change.cls == "possibly-moved":
        return change.old_id or "", "possibly moved to " + listed(change.new_ids)
    if change.cls == "split":
        return change.old_id or listed(change.old_ids), "split into " + listed(change.new_ids)
    if change.cls == "merged":
        return listed(change.old_ids), "merged into " + (change.new_id or listed(change.new_ids))
    if change.old_id and change.new_id and change.old_id != change.new_id:
        return f"{change.old_id} → {change.new_id}", change.cls
    return primary_id(change), change.cls


def pairing(method: str | None, weak: bool, evidence: str | None = None) -> str:
    """How a pairing was made, and a warning when it is a weak one."""
    if method is None:
        return ""
    text = f"paired by {method}"
    if evidence:
        text += f": {evidence}"
    return f"{text}; {WEAK_MARK} weak" if weak else text


def describe(change: Change) -> str:
    parts = []
    if change.similarity is not None:
        parts.append(f"similarity {change.similarity:.4g}")
    if change.cls in ("renumbered", "moved", "split", "merged", "possibly-moved"):
        parts.append(f"text {change.text_change}" if change.text_change else "text unchanged")
    if change.cls == "added" and change.evidence:
        parts.append(f"{change.evidence}; {WEAK_MARK} check it")
    elif change.weak:
        parts.append(pairing(change.method, True, change.evidence))
    return "; ".join(parts)


def cards(change: Change) -> str:
    """Rulings: which cards a ruling was attached to or detached from."""
    parts = []
    if change.cards_gained:
        parts.append("cards gained: " + ", ".join(change.cards_gained))
    if change.cards_lost:
        parts.append("cards lost: " + ", ".join(change.cards_lost))
    return "; ".join(parts)


def hidden_note(diff: DocumentDiff, shown: list[Change]) -> str:
    visible = {id(c) for c in shown}
    hidden = [c for c in diff.changes if id(c) not in visible]
    if not hidden:
        return ""
    renum = sum(is_renumbering_noise(c) for c in hidden)
    ref = sum(c.cls == "reference-only" for c in hidden)
    bits = [f"{renum} pure renumberings"] if renum else []
    bits += [f"{ref} reference-only changes"] if ref else []
    return "Hidden here (kept in the JSON): " + ", ".join(bits) + "."


def summary_rows(diff: DocumentDiff) -> list[tuple[str, int]]:
    return [(cls, diff.summary.get(cls, 0)) for cls in CHANGE_CLASSES]


def weak_count(diff: DocumentDiff) -> int:
    return sum(c.weak for c in diff.changes)


def map_entries(diff: DocumentDiff) -> list[MapEntry]:
    """The renumbering map a changelog ends with: every old id whose number changed or that
    was removed (changes at the same number are the body's)."""
    return [e for e in map_of_diff(diff).entries if e.cls in NUMBER_CHANGES or e.cls == "removed"]


def map_new(entry: MapEntry) -> list[str]:
    """The new ids of a map entry: one, a split's pieces, or none (removed)."""
    return (
        list(entry.new_ids) if len(entry.new_ids) > 1 else ([entry.new_id] if entry.new_id else [])
    )


def map_change(entry: MapEntry) -> str:
    return entry.cls + (f" (text {entry.text_change})" if entry.text_change else "")
