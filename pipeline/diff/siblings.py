"""Order inside a parent: the aligner's tier for a section whose rules were rewritten as a
whole. Pure.

When a publisher rewrites the steps of a section, each rule's number shifts while its
words change ("Third, the active player gets priority." is now "Second, the active player
gets priority. (See rule 117.)"), two rules trade places, or a rule becomes a subrule of
its neighbour. Similarity over the whole document misses these: each text alone is too
changed, and the shared number points at the wrong rule. A reader compares the two lists
of rules side by side, in order. So does this tier: the free old children of a parent and
the free new records under its new home (children and their subrules, for a rule pushed
down a level) are aligned in order, Needleman–Wunsch over similarity, with cited numbers,
ordinals ("Second," and "Third,") and list numbers masked, and over a rule's own title and
text (its examples are illustrations: a rule that lost four of its five examples is the
same rule). Then a pair that crosses the alignment (a swap) is taken if its similarity
alone is high enough, and last a rule standing alone between the same two neighbours in
both versions, at its own number, opening with the same words, is that rule reworded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from pipeline.diff.containment import Aligning
from pipeline.diff.items import Item
from pipeline.diff.text import Scorer

SEQUENCE = "sequence"
# In order beside paired neighbours, this much of the words in common is the same rule.
IN_ORDER = 0.5
# Out of order (a swap), more is needed: nothing but the words vouches for it.
CROSSING = 0.6
# Alone between the same two neighbours at its own number: the same first words and this.
SLOT = 0.2
SLOT_OPENING, LONG_WORD = 3, 5
# A rule now part of a longer one: this share of its own words, in order, in the new text.
HELD, MIN_HELD_TOKENS = 0.65, 6

_ORDINAL = re.compile(
    r"^(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
    r"|finally|then|next)\W*$"
)
_LIST_NUMBER = re.compile(r"^\(?(\d+|[a-z])[.)]$")
_ORDINAL_MASK, _LIST_MASK = "#nth", "#n"


def sequence_tokens(item: Item) -> list[str]:
    """A rule's own text as this tier compares them: cited numbers, ordinal words and list
    numbers masked, lower-cased, without examples or notes. A heading (a title and no
    text) has none: two words of a title say too little to pair by."""
    tokens = item.masked[1].lower().split()
    out: list[str] = []
    for token in tokens:
        if _ORDINAL.match(token):
            out.append(_ORDINAL_MASK)
        elif _LIST_NUMBER.match(token):
            out.append(_LIST_MASK)
        else:
            out.append(token)
    return out


def _candidates(
    aligner: Aligning, parent: str, home: str, new_children: dict[str, list[Item]], deeper: bool
) -> list[Item]:
    """The free new records under `home`, in order: its children, and their children too
    where the section kept its number (a rule pushed down a level stays in its section;
    a section that moved is matched child for child)."""
    found: list[Item] = []
    for child in new_children.get(home, []):
        found.append(child)
        if deeper and home == parent:
            found.extend(new_children.get(child.id, []))
    return sorted((n for n in found if aligner.is_free_new(n)), key=lambda n: n.pos)


def _align_in_order(weights: list[list[float | None]]) -> list[tuple[int, int]]:
    """Needleman–Wunsch with free gaps: the order-keeping pairs of the largest total weight
    (a cell of None cannot pair). Ties keep the earlier pair on both sides."""
    rows, cols = len(weights), len(weights[0]) if weights else 0
    best = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        for j in range(cols - 1, -1, -1):
            options = [best[i + 1][j], best[i][j + 1]]
            w = weights[i][j]
            if w is not None:
                options.append(best[i + 1][j + 1] + w)
            best[i][j] = max(options)
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < rows and j < cols:
        w = weights[i][j]
        if w is not None and best[i][j] == best[i + 1][j + 1] + w:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def match_in_order(
    aligner: Aligning,
    old_children: dict[str, list[Item]],
    new_children: dict[str, list[Item]],
    floor: float | None = None,
) -> None:
    """Pair the free old children of each parent with the free new records under its new
    home, in order; then crossing pairs (swaps); then a rule alone in its slot."""
    in_order = IN_ORDER if floor is None else max(floor, IN_ORDER)
    crossing = CROSSING if floor is None else max(floor, CROSSING)
    tokens: dict[int, list[str]] = {}  # by object: old and new positions overlap

    def tokens_of(item: Item) -> list[str]:
        if id(item) not in tokens:
            tokens[id(item)] = sequence_tokens(item)
        return tokens[id(item)]

    parents = sorted(old_children, key=lambda p: old_children[p][0].pos)
    for parent in parents:
        free = [o for o in old_children[parent] if aligner.is_free_old(o) and tokens_of(o)]
        home = aligner.home_of(free[0]) if free else None
        if home is None:
            continue
        # Children with children first, then with the subrules too: a step's own rule that
        # became a subrule of the next rule stands after that rule in the new order.
        for deeper in (False, True):
            olds = [o for o in free if aligner.is_free_old(o)]
            news = [
                n for n in _candidates(aligner, parent, home, new_children, deeper) if tokens_of(n)
            ]
            if not olds or not news:
                continue
            scores = [[_score(tokens_of(o), tokens_of(n), in_order) for n in news] for o in olds]
            for i, j in _align_in_order(scores):
                score = scores[i][j]
                assert score is not None
                _pair(aligner, olds[i], news[j], score, f"in order under {home}")
            left = [
                (score, i, j)
                for i, row in enumerate(scores)
                for j, score in enumerate(row)
                if score is not None and score >= crossing
            ]
            for score, i, j in sorted(left, key=lambda s: (-s[0], s[1], s[2])):
                if aligner.is_free_old(olds[i]) and aligner.is_free_new(news[j]):
                    _pair(aligner, olds[i], news[j], score, f"out of order under {home}")
        if floor is None:
            _match_slots(aligner, old_children[parent], new_children.get(home, []), tokens_of)


def _score(old: list[str], new: list[str], floor: float) -> float | None:
    """Word similarity, or, for a rule that became part of a longer one (a step's own rule
    now a subrule that says more), the share of its words the new text holds in order."""
    ratio = Scorer(old).at_least(new, floor)
    if ratio is not None or len(old) < MIN_HELD_TOKENS or len(new) <= len(old):
        return ratio
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    held = sum(block.size for block in matcher.get_matching_blocks()) / len(old)
    return round(held, 4) if held >= max(HELD, floor) else None


def _pair(aligner: Aligning, o: Item, n: Item, score: float, where: str) -> None:
    aligner.pair(o, n, SEQUENCE, score, f"{where}, similarity {score:g} (ordinals masked)")


def _match_slots(
    aligner: Aligning,
    olds: Sequence[Item],
    news: Sequence[Item],
    tokens_of: Callable[[Item], list[str]],
) -> None:
    """A free old rule whose number holds a free new rule, whose neighbours on both sides
    are paired with that rule's neighbours (or are the ends of the list), and whose first
    words are the same: the same rule, its words changed ("These Magic rules assume a game
    between two players." became "These Magic rules apply to any Magic game ...")."""
    new_index = {n.id: k for k, n in enumerate(news)}
    for k, o in enumerate(olds):
        m = new_index.get(o.id)
        if m is None or not aligner.is_free_old(o) or not aligner.is_free_new(news[m]):
            continue
        n = news[m]
        if not aligner.parent_consistent(o, n):
            continue
        if not (
            _neighbours_paired(aligner, olds, news, k, m, -1)
            and _neighbours_paired(aligner, olds, news, k, m, 1)
        ):
            continue
        a, b = tokens_of(o), tokens_of(n)
        opening = a[:SLOT_OPENING]
        # "If the card ..." opens many rules; "These Magic rules ..." says what it is about.
        if opening != b[:SLOT_OPENING] or sum(len(t) >= LONG_WORD for t in opening) < 2:
            continue
        score = Scorer(a).at_least(b, SLOT)
        if score is None:
            continue
        aligner.pair(
            o,
            n,
            SEQUENCE,
            score,
            f"same number between the same neighbours, same opening, similarity {score:g}",
        )


def _neighbours_paired(
    aligner: Aligning, olds: Sequence[Item], news: Sequence[Item], k: int, m: int, step: int
) -> bool:
    i, j = k + step, m + step
    old_end, new_end = not 0 <= i < len(olds), not 0 <= j < len(news)
    if old_end or new_end:
        return old_end and new_end
    paired = aligner.result.pairs.get(olds[i].pos)
    return paired is not None and paired.new == news[j].pos
