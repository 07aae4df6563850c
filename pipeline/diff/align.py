"""Align the records of two document versions: which old record became which new one.

Renumbering is the hard part. Insert a rule mid-section and every later sibling
shifts: old cr:1.2.4 lives at cr:1.2.5 and a different rule now sits at cr:1.2.4.
So a shared id proves nothing once the text differs. Records are paired in tiers,
each tier only among those still unpaired, from the most to the least certain:

1. level by level, top down, only where the parents correspond: same id and identical
   content (unchanged); then equal content, typography-folded content, content with
   cited numbers masked, and same title and text (examples or notes differ). Going top
   down pairs a parent before its children choose between identical candidates (MTG
   723.1a-c and 723.2a-c are word for word the same);
2. the same keys across levels and parents (moves, a rule that became a subrule);
3. splits and merges (one record's text spread over 2-3 consecutive siblings);
4. similar content (token similarity >= 0.85) among candidates sharing rare words;
5. children of a renumbered parent keep their suffix (cr:1.2.4a -> cr:1.2.5a);
6. a shared id whose parents correspond (a rewording in place).

Whatever is left is added or removed. Ties prefer a parent that maps onto the new
parent, then the same id, then the nearest position.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from pipeline.diff.text import Scorer, fold_typography, mask_citations, tokenize

SIMILAR = 0.85
SPLIT_MARGIN = 0.05
MIN_PIECE_TOKENS = 3
RARE_TOKENS = 4
MAX_PIECES = 3

_WORD = re.compile(r"[^\w#]+")


class Item:
    """One comparable record: a rule or a glossary term, reduced to what the diff needs.
    The normalised forms are computed on first use: most records are unchanged and
    paired by id and content alone, which keeps a 3,000-rule diff well under a second."""

    def __init__(self, pos: int, id_: str, number: str, parent: str | None, depth: int,
                 title: str, text: str, extras: Sequence[str], references: Sequence[str]) -> None:
        self.pos, self.id, self.number, self.parent, self.depth = pos, id_, number, parent, depth
        self.fields: tuple[str, ...] = (title, text, *extras)
        self.references = tuple(references)
        self.content = (title, text, tuple(extras), self.references)

    @cached_property
    def tokens(self) -> list[str]:
        return tokenize(" ".join(f for f in self.fields if f))

    @cached_property
    def folded(self) -> tuple[str, ...]:
        return tuple(fold_typography(f) for f in self.fields)

    @cached_property
    def masked(self) -> tuple[str, ...]:
        return tuple(mask_citations(f) for f in self.folded)

    @cached_property
    def masked_tokens(self) -> list[str]:
        return tokenize(" ".join(f for f in self.masked if f))

    @cached_property
    def words(self) -> frozenset[str]:
        """Lower-cased words without punctuation, for the rare-word candidate index."""
        return frozenset(w for w in (_WORD.sub("", t).lower() for t in self.masked_tokens) if w)


@dataclass
class Alignment:
    """The pairing: old position -> (new position, method); splits and merges apart."""

    pairs: dict[int, tuple[int, str]] = field(default_factory=dict)
    new_taken: dict[int, int] = field(default_factory=dict)
    splits: list[tuple[int, list[int]]] = field(default_factory=list)
    merges: list[tuple[list[int], int]] = field(default_factory=list)
    old_in_group: set[int] = field(default_factory=set)
    new_in_group: set[int] = field(default_factory=set)


Key = Callable[[Item], object]


class _Aligner:
    def __init__(self, old: list[Item], new: list[Item]) -> None:
        self.old, self.new = old, new
        self.new_by_id: dict[str, Item] = {}
        for item in new:
            self.new_by_id.setdefault(item.id, item)
        self.old_at: dict[int, list[Item]] = defaultdict(list)
        self.new_at: dict[int, list[Item]] = defaultdict(list)
        for item in old:
            self.old_at[item.depth].append(item)
        for item in new:
            self.new_at[item.depth].append(item)
        self.result = Alignment()
        self.id_map: dict[str, str] = {}
        self.new_ids_taken: set[str] = set()

    # ------------------------------------------------------------------ state
    def free_old(self, depth: int | None = None) -> list[Item]:
        r = self.result
        items = self.old if depth is None else self.old_at[depth]
        return [o for o in items if o.pos not in r.pairs and o.pos not in r.old_in_group]

    def free_new(self, depth: int | None = None) -> list[Item]:
        r = self.result
        items = self.new if depth is None else self.new_at[depth]
        return [n for n in items if n.pos not in r.new_taken and n.pos not in r.new_in_group]

    def pair(self, o: Item, n: Item, method: str) -> None:
        self.result.pairs[o.pos] = (n.pos, method)
        self.result.new_taken[n.pos] = o.pos
        self.id_map.setdefault(o.id, n.id)
        self.new_ids_taken.add(n.id)

    def parent_consistent(self, o: Item, n: Item) -> bool:
        if o.parent is None or n.parent is None:
            return o.parent == n.parent
        mapped = self.id_map.get(o.parent)
        if mapped is not None:
            return mapped == n.parent
        return o.parent == n.parent and n.parent not in self.new_ids_taken

    def preference(self, o: Item, n: Item) -> tuple[bool, bool, int, int, int]:
        return (self.parent_consistent(o, n), o.id == n.id, -abs(o.pos - n.pos), -o.pos, -n.pos)

    # ------------------------------------------------------------------ tiers
    def match_same_id_identical(self, depth: int) -> None:
        for o in self.free_old(depth):
            n = self.new_by_id.get(o.id)
            if n is not None and n.pos not in self.result.new_taken and n.content == o.content \
                    and self.parent_consistent(o, n):
                self.pair(o, n, "same-id")

    def match_by_key(self, key: Key, method: str, depth: int | None = None) -> None:
        """Pair records with equal keys. Within a level (depth given) only pairs whose
        parents correspond; across levels anything, ties going to the best preference."""
        groups: dict[object, tuple[list[Item], list[Item]]] = {}
        for o in self.free_old(depth):
            k = key(o)
            if k:
                groups.setdefault(k, ([], []))[0].append(o)
        for n in self.free_new(depth):
            k = key(n)
            if k in groups:
                groups[k][1].append(n)
        ambiguous: list[tuple[list[Item], list[Item]]] = []
        for olds, news in groups.values():
            if len(olds) == 1 and len(news) == 1 and (
                    depth is None or self.parent_consistent(olds[0], news[0])):
                self.pair(olds[0], news[0], method)
            elif news:
                ambiguous.append((olds, news))
        ambiguous.sort(key=lambda g: (min(i.depth for i in g[0]), g[0][0].pos))
        for olds, news in ambiguous:
            candidates = sorted(((self.preference(o, n), o, n) for o in olds for n in news
                                 if depth is None or self.parent_consistent(o, n)),
                                key=lambda c: c[0], reverse=True)
            self.take_greedy([(o, n) for _, o, n in candidates], method)

    def take_greedy(self, ordered: list[tuple[Item, Item]], method: str) -> None:
        for o, n in ordered:
            if o.pos not in self.result.pairs and n.pos not in self.result.new_taken:
                self.pair(o, n, method)

    def match_similar(self) -> None:
        olds, news = self.free_old(), self.free_new()
        index = _RareIndex(news)
        scored: list[tuple[float, tuple[bool, bool, int, int, int], Item, Item]] = []
        for o in olds:
            scorer = Scorer(o.masked_tokens)
            for n in index.candidates(o):
                sim = scorer.at_least(n.masked_tokens, SIMILAR)
                if sim is not None:
                    scored.append((sim, self.preference(o, n), o, n))
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        self.take_greedy([(o, n) for _, _, o, n in scored], "similar-text")

    def match_groups(self) -> None:
        """Splits (one old over consecutive new siblings) and merges (the reverse)."""
        for old_side in (True, False):
            singles = self.free_old() if old_side else self.free_new()
            pieces = self.free_new() if old_side else self.free_old()
            for single, group in _find_groups(singles, pieces):
                if old_side:
                    self.result.splits.append((single.pos, [p.pos for p in group]))
                    self.result.old_in_group.add(single.pos)
                    self.result.new_in_group.update(p.pos for p in group)
                else:
                    self.result.merges.append(([p.pos for p in group], single.pos))
                    self.result.new_in_group.add(single.pos)
                    self.result.old_in_group.update(p.pos for p in group)

    def match_parent_renumbered(self) -> None:
        for o in sorted(self.free_old(), key=lambda i: (i.depth, i.pos)):
            if o.parent is None or o.pos in self.result.pairs:
                continue
            mapped = self.id_map.get(o.parent)
            if mapped is None or mapped == o.parent or not o.id.startswith(o.parent):
                continue
            n = self.new_by_id.get(mapped + o.id[len(o.parent):])
            if n is not None and n.pos not in self.result.new_taken \
                    and n.pos not in self.result.new_in_group and n.parent == mapped:
                self.pair(o, n, "parent-renumbered")

    def match_same_id(self) -> None:
        for o in sorted(self.free_old(), key=lambda i: (i.depth, i.pos)):
            n = self.new_by_id.get(o.id)
            if n is not None and n.pos not in self.result.new_taken \
                    and n.pos not in self.result.new_in_group and self.parent_consistent(o, n):
                self.pair(o, n, "same-id")


class _RareIndex:
    """Candidate restriction: a record can only be similar to one sharing a rare word."""

    def __init__(self, items: list[Item]) -> None:
        self.postings: dict[str, list[Item]] = defaultdict(list)
        for item in items:
            for word in item.words:  # postings stay in document order whatever this order
                self.postings[word].append(item)

    def candidates(self, item: Item) -> list[Item]:
        words = sorted((w for w in item.words if w in self.postings),
                       key=lambda w: (len(self.postings[w]), w))
        seen: dict[int, Item] = {}
        for word in words[:RARE_TOKENS]:
            for other in self.postings[word]:
                seen.setdefault(other.pos, other)
        return [seen[p] for p in sorted(seen)]


def _sibling_runs(items: list[Item]) -> list[list[Item]]:
    """Free items grouped by parent, each group in document order."""
    runs: dict[str | None, list[Item]] = {}
    for item in items:
        runs.setdefault(item.parent, []).append(item)
    return list(runs.values())


def _find_groups(singles: list[Item], pieces: list[Item]) -> list[tuple[Item, list[Item]]]:
    """Each single whose text is best explained by 2-3 consecutive free siblings on the
    other side, clearly better than by any one of them alone."""
    index = _RareIndex(pieces)
    window_of: dict[int, list[list[Item]]] = defaultdict(list)
    for run in _sibling_runs(pieces):
        for size in range(2, MAX_PIECES + 1):
            for start in range(len(run) - size + 1):
                window = run[start:start + size]
                for member in window:
                    window_of[member.pos].append(window)
    scored: list[tuple[float, int, Item, list[Item]]] = []
    for single in singles:
        windows: dict[tuple[int, ...], list[Item]] = {}
        for candidate in index.candidates(single):
            for window in window_of.get(candidate.pos, []):
                windows.setdefault(tuple(p.pos for p in window), window)
        size = len(single.masked_tokens)
        scorer = Scorer(single.masked_tokens)
        for key in sorted(windows):
            window = windows[key]
            lengths = [len(p.masked_tokens) for p in window]
            total = sum(lengths)
            if min(lengths) < MIN_PIECE_TOKENS or 2 * min(size, total) < SIMILAR * (size + total):
                continue
            joined = [t for p in window for t in p.masked_tokens]
            sim = 1.0 if joined == single.masked_tokens else scorer.at_least(joined, SIMILAR)
            if sim is None:
                continue
            # A window that rebuilds the text exactly is a split even when one piece holds
            # nearly all of it (a short first sentence cut off a rule with long examples).
            if sim == 1.0 or not any(scorer.at_least(p.masked_tokens, sim - SPLIT_MARGIN)
                                     for p in window):
                scored.append((sim, -single.pos, single, window))
    scored.sort(key=lambda s: (s[0], s[1], [-p.pos for p in s[3]]), reverse=True)
    used_single: set[int] = set()
    used_piece: set[int] = set()
    found: list[tuple[Item, list[Item]]] = []
    for _, _, single, window in scored:
        if single.pos in used_single or any(p.pos in used_piece for p in window):
            continue
        used_single.add(single.pos)
        used_piece.update(p.pos for p in window)
        found.append((single, window))
    return found


def align_items(old: list[Item], new: list[Item]) -> tuple[Alignment, dict[str, str]]:
    """Pair old and new records; returns the alignment and the old id -> new id map."""
    aligner = _Aligner(old, new)
    tiers: list[tuple[Key, str]] = [
        (lambda i: i.content if any(i.fields) else None, "exact-text"),
        (lambda i: i.folded if any(i.folded) else None, "normalised-text"),
        (lambda i: i.masked if any(i.masked) else None, "masked-references"),
        (lambda i: i.masked[:2] if any(i.masked[:2]) else None, "same-text"),
    ]
    for depth in sorted({i.depth for i in old} | {i.depth for i in new}):
        aligner.match_same_id_identical(depth)
        for key, method in tiers:
            aligner.match_by_key(key, method, depth)
    for key, method in tiers:  # then across levels: a rule that became a subrule
        aligner.match_by_key(key, method)
    aligner.match_groups()
    aligner.match_similar()
    aligner.match_parent_renumbered()
    aligner.match_same_id()
    return aligner.result, aligner.id_map


def align_same_id(old: list[Item], new: list[Item]) -> Alignment:
    """Glossary terms: a term is its id; a changed term is an added and a removed one."""
    aligner = _Aligner(old, new)
    for o in old:
        n = aligner.new_by_id.get(o.id)
        if n is not None and n.pos not in aligner.result.new_taken:
            aligner.pair(o, n, "same-id")
    return aligner.result
