"""Where an old record's sentences went: containment, sentence by sentence. Pure.

Similarity of whole texts misses a rule that gained a sentence (most of the new text is
new), a rule whose sentences now sit in several rules, and a rule that became one
sentence of another. A reader finds these by reading sentence by sentence, so this
module does: each text is cut into sentences (cited numbers masked, typography folded,
lower-cased: the forms the aligner compares), and a sentence is found in a record when
one of that record's sentences holds at least SENTENCE_SIMILAR of its words in order
(and is no more than twice as long: a short sentence is not "found" in a paragraph).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from pipeline.diff.items import Item

SENTENCE_SIMILAR = 0.8
LONGEST = 2
# A sentence this short ("A checkpoint occurs.") is said in many places: no evidence alone.
MIN_SENTENCE_TOKENS = 4
RARE_WORDS = 3
_END = re.compile(r"[.!?][\"”’)\]]*$")
_WORD = re.compile(r"[^\w#]+")
_PUNCTUATION = ".,;:!?\"'“”‘’()[]"

Sentence = tuple[str, ...]


def split_sentences(tokens: Sequence[str]) -> list[Sentence]:
    """Tokens cut after each one that ends a sentence (a full stop, question or exclamation
    mark, with any closing quote or bracket after it). Punctuation around a word is left
    out: a sentence that ends a rule ("now.") is the same inside another ("now, as ...")."""
    out: list[Sentence] = []
    current: list[str] = []
    for token in tokens:
        word = token.strip(_PUNCTUATION)
        if word:
            current.append(word)
        if _END.search(token):
            if current:
                out.append(tuple(current))
            current = []
    if current:
        out.append(tuple(current))
    return out


def sentences_of(item: Item) -> list[Sentence]:
    return split_sentences(item.key_tokens)


class _Contained:
    """How much of one sentence another holds: SequenceMatcher indexes the fixed one."""

    def __init__(self, sentence: Sentence) -> None:
        self.size = len(sentence)
        self.matcher = SequenceMatcher(None, autojunk=False)
        self.matcher.set_seq2(list(sentence))

    def share(self, other: Sentence) -> float | None:
        """The share of the sentence's words the other holds in order, if it reaches
        SENTENCE_SIMILAR; None otherwise."""
        if not self.size or not (SENTENCE_SIMILAR * self.size <= len(other) <= LONGEST * self.size):
            return None
        self.matcher.set_seq1(list(other))
        held = sum(block.size for block in self.matcher.get_matching_blocks())
        share = round(held / self.size, 4)
        return share if share >= SENTENCE_SIMILAR else None


def _words(sentence: Sentence) -> set[str]:
    return {w for w in (_WORD.sub("", t) for t in sentence) if w}


@dataclass(frozen=True)
class Found:
    """One old sentence and the new record (position) that says it, with how closely."""

    index: int
    size: int
    new: int
    score: float


class SentenceIndex:
    """Every sentence of the new records, found by its rarest words."""

    def __init__(self, items: Sequence[Item]) -> None:
        self.sentences: dict[int, list[Sentence]] = {}
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.copies: dict[Sentence, set[int]] = defaultdict(set)
        for item in items:
            sents = sentences_of(item)
            self.sentences[item.pos] = sents
            for i, sent in enumerate(sents):
                self.copies[sent].add(item.pos)
                for word in _words(sent):
                    self.postings[word].append((item.pos, i))

    def said_once(self, sentence: Sentence) -> bool:
        """Whether a sentence, word for word, stands in at most one new record."""
        return len(self.copies.get(sentence, ())) <= 1

    def where(self, sentence: Sentence) -> list[tuple[int, float]]:
        """(new position, score) of every new record with a sentence saying this one."""
        words = sorted(
            (w for w in _words(sentence) if w in self.postings),
            key=lambda w: (len(self.postings[w]), w),
        )
        seen: set[tuple[int, int]] = set()
        for word in words[:RARE_WORDS]:
            seen.update(self.postings[word])
        contained = _Contained(sentence)
        best: dict[int, float] = {}
        for pos, i in sorted(seen):
            candidate = self.sentences[pos][i]
            score = 1.0 if candidate == sentence else contained.share(candidate)
            if score is not None and score > best.get(pos, 0.0):
                best[pos] = score
        return sorted(best.items())


def covered_share(old: Item, new: Item) -> float:
    """The share of the old record's words in sentences the new record holds whole (every
    word, in order, with words added around them or between them)."""
    sents = sentences_of(old)
    total = sum(len(s) for s in sents)
    if not total:
        return 0.0
    theirs = sentences_of(new)
    found = 0
    for sent in sents:
        contained = _Contained(sent)
        if sent in theirs or any(contained.share(t) == 1.0 for t in theirs):
            found += len(sent)
    return round(found / total, 4)
