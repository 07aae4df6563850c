"""The lint's rules: each one declarative entry of RULES, with a code, a message and either
a regular expression (every match is a finding) or a predicate (a function of the text
giving the offending spans); and which findings are the publisher's own (PUBLISHERS,
EXTRACTED). `parse/lint.py` reads a document with them.

The rules are written so that legitimate text stays quiet: MTG's em dashes and
quotations, FaB's bracketed references and `[...]` elisions, quotations spanning several
paragraphs of one record.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.models.records import WarningCode
from pipeline.parse.lint_predicates import (
    LintField,
    Span,
    find_doubled_heading,
    find_unbalanced_brackets,
    find_unbalanced_quotes,
)


@dataclass(frozen=True)
class LintRule:
    code: WarningCode
    message: str
    pattern: re.Pattern[str] | None = None
    predicate: Callable[[LintField], list[Span]] | None = None
    # What every finding of the rule contains: a text without it is skipped unread (the
    # lint runs after every parse, over thousands of texts). A gate matches within one
    # text (no lookaround, no anchor, never the SEPARATOR), so the texts a rule reads
    # are found with one search of all texts joined (`lint._reading_lists`).
    gate: re.Pattern[str] | None = None
    # Or: the characters every finding contains one of (the gate is then any of them);
    # the rules' marks are all looked for in one search.
    marks: str = ""

    def __post_init__(self) -> None:
        if self.marks:
            assert self.gate is None, "a rule has marks or a gate"
            object.__setattr__(self, "gate", re.compile(f"[{re.escape(self.marks)}]"))

    def spans(self, field: LintField) -> list[Span]:
        """The rule's findings in the text, read whole (the gate is `_reading_lists`')."""
        if self.pattern is not None:
            return [(m.start(), m.end()) for m in self.pattern.finditer(field.text)]
        assert self.predicate is not None
        return self.predicate(field)


_REFERENCE = (
    r"(?:\[\d+(?:\.\d+)*[a-z]?(?:\s*,\s*\d+(?:\.\d+)*[a-z]?)*\]|\brules? \d+(?:\.\d+)+[a-z]?)"
)
# `. . .` and `...` are elisions (MTG writes "enters with . . . ,"), not a lost operand.
_NO_ELLIPSIS = r"(?![ \t]?\.[ \t]?\.)"
_HTML_ELEMENTS = (
    "a|abbr|article|aside|b|big|blockquote|body|br|caption|center|cite|code|col|colgroup|dd|"
    "del|details|div|dl|dt|em|figcaption|figure|font|footer|h[1-6]|head|header|hr|html|i|img|"
    "input|ins|kbd|label|li|link|main|mark|meta|nav|ol|p|pre|q|s|script|section|small|span|"
    "strike|strong|style|sub|summary|sup|svg|table|tbody|td|tfoot|th|thead|title|tr|tt|u|ul|"
    "var|wbr"
)
_OPERAND_WORDS = (
    "of|the|to|by|from|with|than|and|or|a|an|is|are|as|at|in|on|for|plus|minus|equal to|"
    "gains?|gets?|loses?|deals?|pays?"
)


def _between(first: str, last: str) -> str:
    """The characters from `first` to `last`, both included."""
    return "".join(map(chr, range(ord(first), ord(last) + 1)))


RULES: tuple[LintRule, ...] = (
    LintRule(
        WarningCode.LINT_TEX_ANGLE,
        "¡ or ¿ where < or > belong (a TeX font-encoding artefact)",
        pattern=re.compile("[¡¿]"),
        marks="¡¿",
    ),
    LintRule(
        WarningCode.LINT_MARKUP,
        "stray markup or an undecoded character entity",
        # HTML's own elements only: a game's keywords and placeholders in angle brackets
        # (`<Blocker>`, `<attribute>`, `<Y>`) are what the page prints.
        pattern=re.compile(
            rf"</?(?i:{_HTML_ELEMENTS})(?![\w-])"
            r"(?:\s+[A-Za-z-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*"
            r"\s*/?>|&(?:[a-z]{2,8}|#\d{1,7}|#x[0-9a-fA-F]{1,6});"
        ),
        marks="<&",
    ),
    LintRule(
        WarningCode.LINT_SPACE_BEFORE_PUNCTUATION,
        "a space before punctuation after a reference",
        pattern=re.compile(rf"{_REFERENCE}[ \t]+[.,;:!?](?!\.\.)"),
        gate=re.compile(r"[ \t][.,;:!?]"),
    ),
    LintRule(
        WarningCode.LINT_EMPTY_OPERAND,
        "an operand is missing (a word or sign directly followed by punctuation, or empty "
        "brackets): an icon or symbol was probably dropped",
        pattern=re.compile(
            # a dot that starts a word (`converted to .txt form`) is no full stop
            rf"\b(?:{_OPERAND_WORDS})[ \t]+(?:[,;:)]|\.(?![A-Za-z])){_NO_ELLIPSIS}"
            # empty brackets, but not a name that ends in them (the card `realloc()`)
            rf"|(?<=\s)[+×=][ \t]*[,.;:)]{_NO_ELLIPSIS}|(?<!\w)\(\s*\)|(?<!\w)\[\s*\]"
        ),
        gate=re.compile(r"[ \t][,.;:)]|[+×=][,.;:)]|\(\s*\)|\[\s*\]"),
    ),
    LintRule(
        WarningCode.LINT_DOUBLED_HEADING,
        "the keyword heading is doubled into its text",
        predicate=find_doubled_heading,
    ),
    LintRule(
        WarningCode.LINT_DOUBLED_SPACE,
        "a doubled space inside a sentence",
        pattern=re.compile(r"(?<=[^\s.!?:])[ \u00a0]{2,}(?=\S)"),
        gate=re.compile("[ \u00a0]{2}"),
    ),
    LintRule(
        WarningCode.LINT_REPLACEMENT_CHAR,
        "U+FFFD, the replacement character: bytes were decoded with the wrong encoding",
        pattern=re.compile("\ufffd"),
        marks="\ufffd",
    ),
    LintRule(
        WarningCode.LINT_LOST_CHARACTER,
        "a ? where the file's encoding could not hold a character (a minus sign, a letter)",
        # not a query string (`default.asp?x=magic`)
        pattern=re.compile(r"(?<=\[)\?(?=\d)|(?<=\w)\?(?=\w)(?!\w*=)"),
        marks="?",
    ),
    LintRule(
        WarningCode.LINT_CONTROL_CHAR,
        "a control character (C0 or C1) inside the text",
        pattern=re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]"),
        marks=_between("\x00", "\x09") + _between("\x0b", "\x1f") + _between("\x7f", "\x9f"),
    ),
    LintRule(
        WarningCode.LINT_ZERO_WIDTH,
        "a zero-width or invisible formatting character",
        pattern=re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]"),
        marks="\u00ad\u180e\ufeff"
        + _between("\u200b", "\u200f")
        + _between("\u202a", "\u202e")
        + _between("\u2060", "\u2064"),
    ),
    LintRule(
        WarningCode.LINT_UNBALANCED_QUOTES,
        "quotation marks do not pair up",
        predicate=find_unbalanced_quotes,
        marks='\u201c\u201d"',
    ),
    LintRule(
        WarningCode.LINT_UNBALANCED_BRACKETS,
        "a bracket closes nothing or is never closed",
        predicate=find_unbalanced_brackets,
        marks="()[]{}",
    ),
)
MESSAGES = {rule.code: rule.message for rule in RULES}
# Findings that are what the publisher printed, read right: the file's own quotation marks,
# brackets and spaces, and a `?` the file itself holds (a decoder never writes one; a wrong
# one writes U+FFFD). Each is a publisher note, never a warning. The other rules find text
# an extraction or a parse may have made (markup, lost operands, doubled headings, control
# and invisible characters): each is a warning until reviewed.
PUBLISHERS = frozenset(
    {
        WarningCode.LINT_DOUBLED_SPACE,
        WarningCode.LINT_UNBALANCED_QUOTES,
        WarningCode.LINT_UNBALANCED_BRACKETS,
        WarningCode.LINT_LOST_CHARACTER,
    }
)


# What an extraction from a PDF or a page can make: from a text file, whose bytes are read
# as they are, each of these is what the file holds (a text export of a PDF keeps the
# PDF's zero-width spaces, which the PDF engines drop).
EXTRACTED = frozenset(
    {
        WarningCode.LINT_TEX_ANGLE,
        WarningCode.LINT_MARKUP,
        WarningCode.LINT_SPACE_BEFORE_PUNCTUATION,
        WarningCode.LINT_EMPTY_OPERAND,
        WarningCode.LINT_ZERO_WIDTH,
    }
)
