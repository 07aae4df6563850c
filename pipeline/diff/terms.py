"""Glossary terms: a term is its head, so terms pair by id first; a term whose head
changed (it gained a form: "Protector" became "Protect, Protector") pairs with the
new term that has a head word in common and says the same definition. Pure."""

from __future__ import annotations

import re

from pipeline.diff.align import Aligner
from pipeline.diff.items import Alignment, Item
from pipeline.diff.text import similarity, tokenize

DEFINITION = "definition"
# A renamed head is kept only for a definition this close (or found whole in the other).
DEFINITION_SIMILAR = 0.85
_HEAD_WORD = re.compile(r"[^\W_]+")


def _head_words(item: Item) -> set[str]:
    return {w.lower() for w in _HEAD_WORD.findall(item.fields[0])}


def _definition(item: Item) -> list[str]:
    return [t.lower() for t in tokenize(item.masked[1])]


def align_same_id(old: list[Item], new: list[Item]) -> Alignment:
    """Terms by id, then the terms left by head word and definition, closest first."""
    aligner = Aligner(old, new)
    for o in old:
        n = aligner.new_by_id.get(o.id)
        if n is not None and n.pos not in aligner.result.new_taken:
            aligner.pair(o, n, "same-id")
    scored: list[tuple[float, int, int]] = []
    news = aligner.free_new()
    for o in aligner.free_old():
        words, definition = _head_words(o), _definition(o)
        if not definition:
            continue
        for n in news:
            if not words & _head_words(n):
                continue
            score = similarity(definition, _definition(n))
            if score >= DEFINITION_SIMILAR:
                scored.append((score, o.pos, n.pos))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    for score, o_pos, n_pos in scored:
        o, n = old[o_pos], new[n_pos]
        if aligner.is_free_old(o) and aligner.is_free_new(n):
            aligner.pair(o, n, DEFINITION, score, f"the same definition under {n.fields[0]!r}")
    return aligner.result
