"""Text comparison for the diff: cited-number masking, token similarity and word-level
edit scripts. Pure functions of strings. What counts as typography is defined once, in
`pipeline.models.text.fold_typography`, for the diff and the rendition check alike.

Tokens are whitespace-separated words, so a word diff reads like the document
and a rendering can rebuild the text by joining tokens with single spaces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from pipeline.models.changes import WordOp

# A dotted number (702.19c, 1.0.1a, 383.4.c.2.a) is a citation wherever it stands;
# a bare number (903, section 8) only in a list introduced by rule/section.
_DOTTED = re.compile(r"(?<![\w.])\d+(?:\.[0-9a-z]+)+")
_BARE_ITEM = r"(?:#|\d+[a-z]?)(?:[-–—](?:#|\d+[a-z]?|[a-z]))?"
_KEYWORD_LIST = re.compile(
    rf"(?i:\b(?:rules?|sections?|chapters?)\s+)({_BARE_ITEM}"
    rf"(?:(?:\s*,\s*|\s+)(?:(?:and|or|through)\s+)?{_BARE_ITEM})*)(?![\w.]\w)"
)
_DIGITS = re.compile(r"\d+[a-z]?")
_NUMBER_TOKEN = re.compile(r"^[\[(]?(\d+(?:\.[0-9a-z]+)*)[\])]?[.,;:]*[\])]?[.,;:]*$")

MASK = "#"


def mask_citations(text: str) -> str:
    """The text with every cited rule number replaced by '#'."""
    masked = _DOTTED.sub(MASK, text)

    def mask_list(match: re.Match[str]) -> str:
        head = match.group(0)[: match.start(1) - match.start(0)]
        return head + _DIGITS.sub(MASK, match.group(1))

    return _KEYWORD_LIST.sub(mask_list, masked)


_CITING_WORD = re.compile(rf"(?i)\b(?:rules?|sections?|chapters?)\s+(?={re.escape(MASK)})")


def drop_citing_words(masked: str) -> str:
    """A masked text without the word that introduces a citation: "See 702.158" and "See
    rule 702.158" cite alike."""
    return _CITING_WORD.sub("", masked)


def tokenize(text: str) -> list[str]:
    return text.split()


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """Token-level similarity in [0, 1], rounded so JSON carries no float noise."""
    if list(a) == list(b):
        return 1.0
    return round(SequenceMatcher(None, a, b, autojunk=False).ratio(), 4)


class Scorer:
    """Similarity of many sequences against one: SequenceMatcher indexes its second
    sequence once, so the fixed side goes there."""

    def __init__(self, fixed: Sequence[str]) -> None:
        self.size = len(fixed)
        self.matcher = SequenceMatcher(None, autojunk=False)
        self.matcher.set_seq2(list(fixed))

    def at_least(self, other: Sequence[str], threshold: float) -> float | None:
        """The similarity if it reaches the threshold, else None; cheap bounds first."""
        shorter, longer = sorted((len(other), self.size))
        if longer == 0 or 2.0 * shorter / (shorter + longer) < threshold:
            return None
        self.matcher.set_seq1(list(other))
        if self.matcher.quick_ratio() < threshold:
            return None
        ratio = self.matcher.ratio()
        return round(ratio, 4) if ratio >= threshold else None


def word_ops(old: Sequence[str], new: Sequence[str]) -> list[WordOp]:
    """Equal/insert/delete runs over tokens; a replacement is a delete then an insert."""
    ops: list[tuple[str, list[str]]] = []

    def push(op: str, tokens: Sequence[str]) -> None:
        if not tokens:
            return
        if ops and ops[-1][0] == op:
            ops[-1][1].extend(tokens)
        else:
            ops.append((op, list(tokens)))

    if list(old) == list(new):
        return [WordOp(op="equal", text=" ".join(old))] if old else []
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            push("equal", old[i1:i2])
        else:
            push("delete", old[i1:i2])
            push("insert", new[j1:j2])
    return [WordOp(op=op, text=" ".join(tokens)) for op, tokens in ops]


def number_changes(old: Sequence[str], new: Sequence[str]) -> list[tuple[str, str]] | None:
    """Pairs (old number, new number) if the only token differences are cited numbers
    replaced one for one; None if anything else differs."""
    pairs: list[tuple[str, str]] = []
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag != "replace" or i2 - i1 != j2 - j1:
            return None
        for a, b in zip(old[i1:i2], new[j1:j2], strict=True):
            ma, mb = _NUMBER_TOKEN.match(a), _NUMBER_TOKEN.match(b)
            if ma is None or mb is None or a.replace(ma.group(1), "") != b.replace(mb.group(1), ""):
                return None
            pairs.append((ma.group(1), mb.group(1)))
    return pairs
