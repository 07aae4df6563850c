"""Splits and merges: one record's text spread over 2-3 consecutive siblings on the
other side (or gathered from them). Pure."""

from __future__ import annotations

from collections import defaultdict

from pipeline.diff.items import Item, RareIndex
from pipeline.diff.text import Scorer

GROUP_SIMILAR = 0.85
SPLIT_MARGIN = 0.05
MIN_PIECE_TOKENS = 3
MAX_PIECES = 3


def _sibling_runs(items: list[Item]) -> list[list[Item]]:
    """Free items grouped by parent, each group in document order."""
    runs: dict[str | None, list[Item]] = {}
    for item in items:
        runs.setdefault(item.parent, []).append(item)
    return list(runs.values())


def find_groups(singles: list[Item], pieces: list[Item]) -> list[tuple[Item, list[Item]]]:
    """Each single whose text is best explained by 2-3 consecutive free siblings on the
    other side, clearly better than by any one of them alone."""
    index = RareIndex(pieces)
    # Each window once, by the positions of its pieces, with its length in tokens; one
    # with a piece too short to count never groups, whatever it is compared with.
    window_of: dict[int, list[tuple[tuple[int, ...], list[Item], int]]] = defaultdict(list)
    for run in _sibling_runs(pieces):
        for size in range(2, MAX_PIECES + 1):
            for start in range(len(run) - size + 1):
                window = run[start : start + size]
                lengths = [len(p.masked_tokens) for p in window]
                if min(lengths) < MIN_PIECE_TOKENS:
                    continue
                entry = (tuple(p.pos for p in window), window, sum(lengths))
                for member in window:
                    window_of[member.pos].append(entry)
    scored: list[tuple[float, int, Item, list[Item]]] = []
    for single in singles:
        windows: dict[tuple[int, ...], tuple[list[Item], int]] = {}
        for candidate in index.candidates(single):
            for key, window, total in window_of.get(candidate.pos, []):
                windows.setdefault(key, (window, total))
        size = len(single.masked_tokens)
        scorer = Scorer(single.masked_tokens)
        for key in sorted(windows):
            window, total = windows[key]
            if 2 * min(size, total) < GROUP_SIMILAR * (size + total):
                continue
            joined = [t for p in window for t in p.masked_tokens]
            sim = 1.0 if joined == single.masked_tokens else scorer.at_least(joined, GROUP_SIMILAR)
            if sim is None:
                continue
            # A window that rebuilds the text exactly is a split even when one piece holds
            # nearly all of it (a short first sentence cut off a rule with long examples).
            if sim == 1.0 or not any(
                scorer.at_least(p.masked_tokens, sim - SPLIT_MARGIN) for p in window
            ):
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
