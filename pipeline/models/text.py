"""What counts as the same text, for the rendition check (verify) and for the diff's
typography-only class alike: one definition, part of the record contract."""

from __future__ import annotations

import re

# What counts as the same text, for the rendition check (verify) and for the diff's
# typography-only class alike: one definition, part of the record contract.
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
    }
)


_BRACKETED_ELLIPSIS = re.compile(r"\[\s*\.\.\.\s*\]")


_SPACE_RUN = re.compile(r"\s+")


_SPACE_BEFORE_PUNCT = re.compile(r" ([.,;:!?)\]}])")


_SPACE_AFTER_OPEN = re.compile(r"([(\[{]) ")


_SPACED_DASH = re.compile(r" ?- ?")


def fold_typography(text: str) -> str:
    """The text with only typographic differences folded away: curly and straight quotes
    (single and double kept apart, so an apostrophe never becomes a quotation mark),
    dashes, ellipses (`…`, `...`, `[...]`), soft hyphens and zero-width characters,
    non-breaking and repeated spaces, spaces around a dash, and the space a PDF
    extraction leaves before punctuation or after an opening bracket (`[1.0.1a] .`).
    Letters and digits are never touched."""
    folded = _BRACKETED_ELLIPSIS.sub("...", text.translate(_TYPOGRAPHY))
    folded = _SPACE_RUN.sub(" ", folded).strip()
    folded = _SPACE_BEFORE_PUNCT.sub(r"\1", folded)
    folded = _SPACE_AFTER_OPEN.sub(r"\1", folded)
    return _SPACED_DASH.sub("-", folded)
