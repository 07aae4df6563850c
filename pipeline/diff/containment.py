"""Pairings by containment, the aligner's last tiers: a rule that gained or lost a
sentence at its own number, a rule whose sentences went into several rules (a split),
and a rule whose text became part of another rule (a merge, even when that rule is
already paired with an old one). Pure.

Each works on what the earlier tiers left: old records still free, and old records
paired only on similarity, subrules or structure whose sentences turn out to be spread
over several new records. Every group it makes carries the share of the old words
found, and is weak (a reader should check it) below WEAK_BELOW.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from pipeline.diff.items import Alignment, Item
from pipeline.diff.sentences import (
    MIN_SENTENCE_TOKENS,
    SENTENCE_SIMILAR,
    Sentence,
    SentenceIndex,
    covered_share,
    sentences_of,
)
from pipeline.diff.text import similarity

CONTAINED = "contained"
# "Mostly contained": this share of the old words, in sentences the new records say.
MOSTLY = 0.6
# So few words found are no evidence of where a rule went, whatever their share.
MIN_FOUND_TOKENS = 6
# A rewording in place: the same number, the same parent, the same opening words, and
# this much of the text in common (a symbol replaced by words and a citation).
IN_PLACE_SIMILAR = 0.4
OPENING_TOKENS = 5
WHOLE = 0.99
SHORT_SENTENCE = 8


class Aligning(Protocol):
    """What these tiers need of the aligner."""

    old: list[Item]
    new: list[Item]
    new_by_id: dict[str, Item]
    result: Alignment

    def is_free_old(self, o: Item) -> bool: ...
    def is_free_new(self, n: Item) -> bool: ...
    def parent_consistent(self, o: Item, n: Item) -> bool: ...
    def home_of(self, o: Item) -> str | None: ...
    def preference(self, o: Item, n: Item) -> tuple[bool, bool, int, bool, int, int, int]: ...
    def pair(
        self, o: Item, n: Item, method: str, score: float | None = None, evidence: str = ""
    ) -> None: ...


def match_in_place(aligner: Aligning, floor: float | None = None) -> None:
    """A free old record and the free new one at its number, under the parent's new home,
    are one rule when either text is the other's sentences plus more (a sentence added
    or dropped), or when they open alike and still share `floor` of the words
    (IN_PLACE_SIMILAR unless the caller asks for surer pairings)."""
    floor = IN_PLACE_SIMILAR if floor is None else floor
    for o in aligner.old:
        n = aligner.new_by_id.get(o.id)
        if (
            n is None
            or not aligner.is_free_old(o)
            or not aligner.is_free_new(n)
            or not o.key_tokens
            or not aligner.parent_consistent(o, n)
        ):
            continue
        grown, shrunk = covered_share(o, n), covered_share(n, o)
        if max(grown, shrunk) >= WHOLE:
            kind = (
                "its sentences all stand in the new text"
                if grown >= WHOLE
                else ("the new text's sentences all stood in it")
            )
            aligner.pair(o, n, CONTAINED, 1.0, f"same number, {kind}")
            continue
        opening = o.key_tokens[:OPENING_TOKENS]
        score = similarity(o.key_tokens, n.key_tokens)
        if (
            len(opening) == OPENING_TOKENS
            and opening == n.key_tokens[:OPENING_TOKENS]
            and score >= floor
        ):
            aligner.pair(o, n, CONTAINED, score, f"same number and opening, similarity {score:g}")


def _near(aligner: Aligning, n: Item, home: str | None) -> bool:
    """Whether a new record stands where the old one's parent went: under it, or under one
    of its children (a rule split into a rule and subrules of a sibling)."""
    if n.parent == home:
        return True
    parent = aligner.new_by_id.get(n.parent) if n.parent is not None else None
    return parent is not None and home is not None and parent.parent == home


@dataclass
class _Where:
    """Where one old record's sentences went."""

    targets: list[int]  # new positions, in document order
    share: float  # of the old words found in them


def _where_it_went(
    aligner: Aligning,
    o: Item,
    index: SentenceIndex,
    old_copies: Counter[Sentence],
    floor: float,
    mostly: float,
) -> _Where | None:
    sents = sentences_of(o)
    total = sum(len(s) for s in sents)
    home = aligner.home_of(o)
    paired = aligner.result.pairs.get(o.pos)
    own = paired.new if paired is not None else None
    found, targets = 0, set()
    for sent in sents:
        if len(sent) < MIN_SENTENCE_TOKENS:
            continue
        hits = index.where(sent)
        if not hits:
            continue
        pos, score = max(
            hits, key=lambda h: (round(h[1], 2), aligner.preference(o, aligner.new[h[0]]))
        )
        # Near its old parent's new home a sentence said with a word or two changed is
        # where it went; elsewhere only the same sentence, said once on each side and
        # long enough to say something of its own ("Quick-Draw has no function while on
        # the board." is not "Accelerate has no function while on the board.", and "sets
        # a player's life total" is not "sets a single player's life total").
        # A rule another old rule already holds gathers this one only where it says this
        # sentence whole: "A two-player game is a game that begins with only two players."
        # is not in "A multiplayer game is a game that begins with more than two players."
        if score < 1.0 and pos != own and not aligner.is_free_new(aligner.new[pos]):
            continue
        if _near(aligner, aligner.new[pos], home):
            if score < floor or (len(sent) < SHORT_SENTENCE and score < 1.0):
                continue
        elif (
            sent not in index.sentences[pos]
            or len(sent) < SHORT_SENTENCE
            or not index.said_once(sent)
            or old_copies[sent] > 1
        ):
            continue
        found += len(sent)
        targets.add(pos)
    if not total or found < MIN_FOUND_TOKENS or found < mostly * total:
        return None
    return _Where(sorted(targets), round(found / total, 4))


def match_contained(aligner: Aligning, judged: tuple[str, ...], floor: float | None = None) -> None:
    """Old records whose text is mostly found, sentence by sentence, in new records:
    one free target pairs; a target already paired makes a merge; several targets make
    a split (also of a record paired only on `judged` grounds, if its pairing is one of
    them and the others are free). A `floor` above MOSTLY is what a record must have
    found of its words; above SENTENCE_SIMILAR, what a sentence said with words changed
    must keep of them."""
    mostly = MOSTLY if floor is None else max(floor, MOSTLY)
    floor = SENTENCE_SIMILAR if floor is None else max(floor, SENTENCE_SIMILAR)
    result = aligner.result
    index = SentenceIndex(aligner.new)
    old_copies: Counter[Sentence] = Counter(s for o in aligner.old for s in set(sentences_of(o)))
    for o in aligner.old:
        paired = result.pairs.get(o.pos)
        if o.pos in result.old_in_group or (paired is not None and paired.method not in judged):
            continue
        where = _where_it_went(aligner, o, index, old_copies, floor, mostly)
        if where is None:
            continue
        targets = where.targets
        if paired is not None:
            extra = [t for t in targets if t != paired.new]
            if paired.new not in targets or not extra:
                continue
            if not all(aligner.is_free_new(aligner.new[t]) for t in extra):
                continue
            del result.pairs[o.pos]
            del result.new_taken[paired.new]
            _add_split(result, o.pos, targets, where.share)
        elif len(targets) > 1:
            _add_split(result, o.pos, targets, where.share)
        else:
            _join(aligner, o, targets[0], where.share)


def _add_split(result: Alignment, o_pos: int, targets: list[int], share: float) -> None:
    result.splits.append((o_pos, targets))
    result.group_scores[("split", o_pos)] = (CONTAINED, share)
    result.old_in_group.add(o_pos)
    result.new_in_group.update(targets)


def _join(aligner: Aligning, o: Item, n_pos: int, share: float) -> None:
    """One target: a free one pairs; one paired with another old record (or gathering
    several already) gathers this one too."""
    result = aligner.result
    n = aligner.new[n_pos]
    if aligner.is_free_new(n):
        own = aligner.new_by_id.get(o.id)
        if (
            own is not None
            and own is not n
            and aligner.is_free_new(own)
            and aligner.parent_consistent(o, own)
        ):
            # Its own number is still there and unclaimed: part of the text went to `n`
            # and the rest may be reworded in place ("the turn player gains priority" in
            # FaB 7.6.3, now "the turn-player"). Which is the rule is not for us to say.
            return
        aligner.pair(o, n, CONTAINED, share, f"{share:.0%} of its words in sentences of {n.id}")
        return
    for i, (olds, target) in enumerate(result.merges):
        if target == n_pos:
            result.merges[i] = (sorted([*olds, o.pos]), n_pos)
            result.old_in_group.add(o.pos)
            method, score = result.group_scores.get(("merge", n_pos), ("merge", 1.0))
            result.group_scores[("merge", n_pos)] = (method, min(score, share))
            return
    other = result.new_taken.get(n_pos)
    if other is None:
        return  # a piece of a split: its text is accounted for there
    del result.pairs[other]
    del result.new_taken[n_pos]
    result.merges.append((sorted([o.pos, other]), n_pos))
    result.group_scores[("merge", n_pos)] = (CONTAINED, share)
    result.old_in_group.update((o.pos, other))
    result.new_in_group.add(n_pos)
