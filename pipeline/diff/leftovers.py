"""The aligner's last look at what is left: no rule is called removed while its words are
still in the newer version. Pure.

A rule every earlier tier left free may still stand in the new version, reworded more
than a sentence comparison allows ("When a phase or step ends, any effects scheduled to
last 'until end of' that phase or step expire." is now "As a step or phase ends, if there
are effects that last until the end of that step or phase, those effects expire."), or
folded into a rule already paired with another one. A reader finds it by its words: so
does this tier, sentence by sentence over the rule's own text (examples left out), each
sentence found where a new sentence says mostly the same content words (FOUND of the
two sentences' words in common), near where the rule's parent went; elsewhere only where
a new sentence holds every one of them and little else (FOUND_FAR).

What it finds, where MOSTLY of the rule's content words are found:
- one free record: the rule, reworded (method `contained`);
- several records, one of them free at least: a split (a piece may be a record already
  paired: a rule split at its own number, the rest of whose words went to new rules);
- only records already paired: a possible move, for a reader to check, never "removed".
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.diff.containment import CONTAINED, Aligning
from pipeline.diff.items import Item
from pipeline.diff.sentences import split_sentences

FOUND = 0.6
FOUND_FAR = 0.8
MOSTLY = 0.55
MIN_CONTENT = 3
MIN_FOUND = 5
# Function words: they say nothing of what a sentence is about.
_FUNCTION_WORDS = (
    "a an and any are as at be been but by can do does for from has have if in into "
    "is it its it's not of on or so such than that the their them then there these "
    "they this those to was were what when which while who will with would #"
)
_STOP = frozenset(_FUNCTION_WORDS.split())
_WORD = re.compile(r"[^\w']+")


def content_words(sentence: Sequence[str]) -> frozenset[str]:
    """A sentence's words that say something: lower-cased, punctuation and function words
    and masked numbers left out."""
    words = (_WORD.sub("", t.lower()) for t in sentence)
    return frozenset(w for w in words if w and w not in _STOP)


@dataclass
class Found:
    """Where a left-over old record's words stand in the new version."""

    targets: list[int]  # new positions, in document order
    share: float  # of its content words
    free: list[int] = field(default_factory=list)


class _WordIndex:
    """Every new sentence's content words, found by word."""

    def __init__(self, items: Sequence[Item]) -> None:
        self.sentences: dict[tuple[int, int], frozenset[str]] = {}
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for item in items:
            for i, sent in enumerate(_sentences(item)):
                words = content_words(sent)
                if len(words) >= MIN_CONTENT:
                    self.sentences[(item.pos, i)] = words
                    for w in words:
                        self.postings[w].append((item.pos, i))

    def best(
        self, words: frozenset[str], near: set[int], allowed: set[int] | None = None
    ) -> tuple[int, float, frozenset[str]] | None:
        """The new record whose sentence has the most words in common with these (twice the
        shared words over both counts): FOUND near the old parent's new home, FOUND_FAR and
        every one of these words elsewhere; ties to the nearer, then the later."""
        counts: dict[tuple[int, int], int] = defaultdict(int)
        for w in words:
            for key in self.postings.get(w, ()):
                counts[key] += 1
        best: tuple[float, bool, int, int] | None = None
        for (pos, i), count in counts.items():
            if allowed is not None and pos not in allowed:
                continue
            # Both sentences mostly the same words: a short old sentence is not "found" in
            # a long one that happens to use its words, nor a long one in a short one.
            share = round(2 * count / (len(words) + len(self.sentences[(pos, i)])), 4)
            if share < FOUND or (pos not in near and (count < len(words) or share < FOUND_FAR)):
                continue
            entry = (share, pos in near, -pos, -i)
            if best is None or entry > best:
                best = entry
        if best is None:
            return None
        pos, i = -best[2], -best[3]
        return pos, best[0], self.sentences[(pos, i)]


def _split(tokens: list[str]) -> list[tuple[str, ...]]:
    """Sentences, less the citations ("(See rule 601, “Casting Spells.”)"): said in many
    rules, they are no evidence of where one went."""
    return [s for s in split_sentences(tokens) if s and s[0].lower() not in ("see", "(see")]


def _sentences(item: Item) -> list[tuple[str, ...]]:
    """The record's own text (its title where it has none), lower-cased, in sentences."""
    return _split((item.masked[1] or item.masked[0]).lower().split())


def _near(aligner: Aligning, o: Item, new_children: dict[str, list[Item]]) -> set[int]:
    """New positions near where the old record's parent went: under the home, its parent,
    and their children."""
    home = aligner.home_of(o)
    if home is None:
        return set()
    roots = [home]
    parent = aligner.new_by_id.get(home)
    if parent is not None and parent.parent is not None:
        roots.append(parent.parent)
    out: set[int] = set()
    for root in roots:
        for child in new_children.get(root, []):
            out.add(child.pos)
            out.update(c.pos for c in new_children.get(child.id, []))
    return out


def said_by_its_own(
    aligner: Aligning, target: int, said: frozenset[str], words: frozenset[str]
) -> bool:
    """Whether the new sentence holding these words owes none of them to this old rule: the
    record holding it is paired with an old record that had every word the two share.
    Then they are that record's words, still there (a deleted rule one word from its
    sibling, a sentence another section always had), not a move. A rule folded into
    another brings a word of its own ("Melded permanents and other double-faced
    permanents can't be turned face down." took "melded" from 713.11)."""
    paired_with = aligner.result.new_taken.get(target)
    if paired_with is None:
        return False
    other = aligner.old[paired_with]
    theirs = frozenset(w for sent in _sentences(other) for w in content_words(sent))
    return not (said & words) - theirs


def where_words_went(
    aligner: Aligning, o: Item, index: _WordIndex, new_children: dict[str, list[Item]]
) -> Found | None:
    near = _near(aligner, o, new_children)
    sents = [content_words(s) for s in _sentences(o)]
    total = sum(len(s) for s in sents)
    hits = []
    for words in sents:
        if len(words) >= MIN_CONTENT:
            hit = index.best(words, near)
            if hit is not None:
                hits.append((words, hit[0], hit[2]))
    # A record owes this rule something if one sentence there brought a word of its own:
    # then the rule went there, and its other sentences found there went with it.
    owes = {pos for words, pos, said in hits if not said_by_its_own(aligner, pos, said, words)}
    found, targets = 0, set()
    for words, pos, _ in hits:
        if pos in owes:
            found += len(words)
            targets.add(pos)
    if not total or found < MIN_FOUND or found < MOSTLY * total:
        return None
    ordered = sorted(targets)
    return Found(
        ordered,
        round(found / total, 4),
        [t for t in ordered if aligner.is_free_new(aligner.new[t])],
    )


def match_leftovers(
    aligner: Aligning, new_children: dict[str, list[Item]]
) -> dict[int, tuple[list[int], float]]:
    """Pair or split the old records still free whose words stand in the new version;
    return the others found only in records already paired: old position -> (where, share),
    each a possible move."""
    result = aligner.result
    possible: dict[int, tuple[list[int], float]] = {}
    left = [o for o in aligner.old if aligner.is_free_old(o) and o.masked[1]]
    if not left:
        return possible
    index = _WordIndex(aligner.new)
    for o in left:
        if not aligner.is_free_old(o):
            continue
        found = where_words_went(aligner, o, index, new_children)
        if found is None:
            continue
        if not found.free:
            possible[o.pos] = (found.targets, found.share)
        elif len(found.targets) == 1:
            n = aligner.new[found.targets[0]]
            evidence = f"{found.share:.0%} of its content words in sentences of {n.id}"
            aligner.pair(o, n, CONTAINED, found.share, evidence)
        else:
            result.splits.append((o.pos, found.targets))
            result.group_scores[("split", o.pos)] = (CONTAINED, found.share)
            result.old_in_group.add(o.pos)
            result.new_in_group.update(found.free)
    return possible


def sources_of_added(
    aligner: Aligning, possible: dict[int, tuple[list[int], float]]
) -> dict[int, tuple[list[int], float]]:
    """New records still free whose words stood in the old version: paired with the one old
    record they came from if it is free too; otherwise (records paired elsewhere) new
    position -> (old positions, share), each possibly moved from there."""
    taken_by_possible = {t for targets, _ in possible.values() for t in targets}
    left = [
        n
        for n in aligner.new
        if aligner.is_free_new(n) and n.masked[1] and n.pos not in taken_by_possible
    ]
    if not left:
        return {}
    # A rule still saying the same at its new place was copied, not moved ("The text that
    # appears in the inset frame ..." is both 715.2 and the new 720.2).
    changed = {
        o.pos
        for o in aligner.old
        if aligner.is_free_old(o)
        or (
            (pair := aligner.result.pairs.get(o.pos)) is not None
            and aligner.new[pair.new].masked[1] != o.masked[1]
        )
    }
    index = _WordIndex([o for o in aligner.old if o.pos in changed])
    out: dict[int, tuple[list[int], float]] = {}
    for n in left:
        sents = [content_words(s) for s in _sentences(n)]
        total = sum(len(s) for s in sents)
        found, sources = 0, set()
        for words in sents:
            if len(words) < MIN_CONTENT:
                continue
            hit = index.best(words, set(), changed)
            if hit is not None:
                found += len(words)
                sources.add(hit[0])
        if not total or found < MIN_FOUND or found < MOSTLY * total:
            continue
        share = round(found / total, 4)
        olds = [aligner.old[s] for s in sorted(sources)]
        if len(olds) == 1 and aligner.is_free_old(olds[0]):
            # Its words were a rule nothing else took: that rule, reworded.
            evidence = f"{share:.0%} of the content words of {n.id} stood in it"
            aligner.pair(olds[0], n, CONTAINED, share, evidence)
        else:
            out[n.pos] = (sorted(sources), share)
    return out
