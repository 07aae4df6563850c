"""Diff of two rulings snapshots: added, removed, reworded rulings and card attachments.

Pure. A ruling's id is a hash of its text, so an unchanged ruling keeps its id and
an edited one gets a new id: edited rulings are found by pairing a vanished id with
a new one that shares a card and whose question (or text) is similar enough.
"""

from __future__ import annotations

from collections import Counter

from pipeline.diff.text import Scorer, tokenize, word_ops
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document, Ruling

# A rewording that keeps at least this share of the question's words is the same ruling.
MATCH_THRESHOLD = 0.6


def ruling_key_text(ruling: Ruling) -> str:
    """What identifies a ruling to a reader: its question, else its text or section."""
    return ruling.question or ruling.text or ruling.section or ""


def ruling_full_text(ruling: Ruling) -> str:
    """Every plain-text part, in reading order, for the word-level diff."""
    parts = [ruling.attribution, ruling.question, ruling.answer, ruling.text]
    return "\n".join(p for p in parts if p)


def _attachment_change(old: Ruling, new: Ruling) -> tuple[list[str], list[str]]:
    gained = [c for c in new.cards if c not in old.cards]
    lost = [c for c in old.cards if c not in new.cards]
    return gained, lost


def _shares_card(old: Ruling, new: Ruling) -> bool:
    # Rulings from a page with no card (wiki sections) pair on text alone.
    return not (old.cards or new.cards) or bool(set(old.cards) & set(new.cards))


def pair_edited(removed: list[Ruling], added: list[Ruling]) -> list[tuple[Ruling, Ruling, float]]:
    """Greedy best-first pairing of vanished and new rulings; deterministic on ties."""
    candidates: list[tuple[float, float, int, int]] = []
    for i, old in enumerate(removed):
        old_key = tokenize(ruling_key_text(old))
        for j, new in enumerate(added):
            if not _shares_card(old, new) or (old.question is None) != (new.question is None):
                continue
            # The new side is the fixed one, as SequenceMatcher(None, old, new) has it.
            score = Scorer(tokenize(ruling_key_text(new))).at_least(old_key, MATCH_THRESHOLD)
            if score is None:
                continue
            whole = Scorer(tokenize(ruling_full_text(new))).at_least(
                tokenize(ruling_full_text(old)), 0.0
            )
            candidates.append((score, whole or 0.0, i, j))
    candidates.sort(key=lambda c: (-c[0], -c[1], c[2], c[3]))
    used_old: set[int] = set()
    used_new: set[int] = set()
    pairs = []
    for score, _, i, j in candidates:
        if i in used_old or j in used_new:
            continue
        used_old.add(i)
        used_new.add(j)
        pairs.append((removed[i], added[j], score))
    return pairs


def diff_rulings(old: Document, new: Document) -> DocumentDiff:
    """Changes from `old` to `new`, in the order of the new snapshot, then the removed."""
    old_by_id = {r.id: r for r in old.rulings}
    new_by_id = {r.id: r for r in new.rulings}
    removed = [r for r in old.rulings if r.id not in new_by_id]
    added = [r for r in new.rulings if r.id not in old_by_id]
    pairs = pair_edited(removed, added)
    paired_old = {o.id: (n, s) for o, n, s in pairs}
    paired_new = {n.id for _, n, _ in pairs}
    changes: list[Change] = []
    for ruling in new.rulings:
        if ruling.id in old_by_id:
            gained, lost = _attachment_change(old_by_id[ruling.id], ruling)
            if gained or lost:
                changes.append(
                    Change(
                        cls="cards-changed",
                        old_id=ruling.id,
                        new_id=ruling.id,
                        cards_gained=gained,
                        cards_lost=lost,
                    )
                )
        elif ruling.id not in paired_new:
            changes.append(Change(cls="added", new_id=ruling.id, cards_gained=list(ruling.cards)))
        else:
            before = next(o for o, n, _ in pairs if n.id == ruling.id)
            gained, lost = _attachment_change(before, ruling)
            changes.append(
                Change(
                    cls="reworded",
                    old_id=before.id,
                    new_id=ruling.id,
                    similarity=paired_old[before.id][1],
                    words=word_ops(
                        tokenize(ruling_full_text(before)), tokenize(ruling_full_text(ruling))
                    ),
                    cards_gained=gained,
                    cards_lost=lost,
                )
            )
    for ruling in removed:
        if ruling.id not in paired_old:
            changes.append(Change(cls="removed", old_id=ruling.id, cards_lost=list(ruling.cards)))
    summary = dict(sorted(Counter(c.cls for c in changes).items()))
    return DocumentDiff(
        document=new.document,
        old_version=old.version or "unversioned",
        new_version=new.version or "unversioned",
        summary=summary,
        changes=changes,
    )
