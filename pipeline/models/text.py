"""What counts as the same text, for the rendition check (verify) and for the diff's
typography-only class alike: one definition, part of the record contract."""

from __future__ import annotations

import re
from functools import lru_cache

_SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2032\u2039\u203a`"
_DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_TYPOGRAPHY = str.maketrans(
    {
        **{c: "'" for c in _SINGLE_QUOTES},
        **{c: '"' for c in _DOUBLE_QUOTES},
        **{c: "-" for c in _DASHES},
        **{c: " " for c in "\u00a0\u2009\u202f"},
        **{c: None for c in "\u00ad\u200b\u200c\u200d\ufeff"},
        "\u2026": "...",
        # A ligature is a way of setting two letters: "Æther" and "Aether" are one word.
        **{"\u00c6": "Ae", "\u00e6": "ae", "\u0152": "Oe", "\u0153": "oe"},
    }
)
_BRACKETED_ELLIPSIS = re.compile(r"\[\s*\.\.\.\s*\]")
_SPACE_BEFORE_PUNCT = re.compile(r" ([.,;:!?)\]}])")
_SPACE_AFTER_OPEN = re.compile(r"([(\[{]) ")
_SPACED_DASH = re.compile(r" ?- ?")


# A diff folds both versions' texts, so each version's is folded twice in an import
# (as the new side, then as the old): remembered, the second is a lookup.
@lru_cache(maxsize=1 << 16)
def fold_typography(text: str) -> str:
    """The text with only typographic differences folded away: curly and straight quotes
    (single and double kept apart, so an apostrophe never becomes a quotation mark),
    dashes, ellipses (`…`, `...`, `[...]`), soft hyphens and zero-width characters,
    non-breaking and repeated spaces, spaces around a dash, and the space a PDF
    extraction leaves before punctuation or after an opening bracket (`[1.0.1a] .`),
    and the ligatures Æ, æ, Œ and œ, written out as two letters ("Æther" is "Aether").
    No other letter and no digit is ever touched."""
    folded = text.translate(_TYPOGRAPHY)
    if "[" in folded:
        folded = _BRACKETED_ELLIPSIS.sub("...", folded)
    folded = " ".join(folded.split())  # str.split's whitespace is the pattern \s's
    folded = _SPACE_BEFORE_PUNCT.sub(r"\1", folded)
    if "(" in folded or "[" in folded or "{" in folded:
        folded = _SPACE_AFTER_OPEN.sub(r"\1", folded)
    return _SPACED_DASH.sub("-", folded) if "-" in folded else folded
