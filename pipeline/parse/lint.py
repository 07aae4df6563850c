"""Extraction-artefact lint: text a parse kept that no publisher printed on purpose.

`lint_document(doc)` reads every text of a parsed document (rule titles, texts,
examples, notes and bullets; glossary terms and definitions; front and back
matter; rulings) and returns one ParseWarning per finding, naming the record id,
the field and the exact offending text (marked `«…»`, with a little context).
`find_artefacts(doc)` gives the same findings as data. Both are pure.

`lint_parsed(doc)` is what the parse entry point (`runner.families.parse_bytes`) runs
after every parse: a finding a maintainer has reviewed in the publisher's own bytes, in
this very text of this document (`parse/errata.py`, `ARTEFACTS`), is recorded in
`publisher_errata`; an unreviewed one is a publisher note when it is what the publisher
printed (`PUBLISHERS`: quotation marks, brackets, spaces, a `?` the file holds) and a
warning otherwise (so the version is staged for review, as any warning stages it).

Each rule is one declarative entry of RULES: a code, a message and either a
regular expression (every match is a finding) or a predicate (a function of the
text giving the offending spans). The rules are written so that legitimate
text stays quiet: MTG's em dashes and quotations, FaB's bracketed references
and `[...]` elisions, quotations spanning several paragraphs of one record.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate

from pipeline.models.records import (
    Document,
    Erratum,
    Location,
    ParseWarning,
    PublisherNote,
    WarningCode,
    text_digest,
)
from pipeline.parse.errata import known_artefact
from pipeline.parse.lint_predicates import (
    LintField,
    Span,
    find_doubled_heading,
    find_unbalanced_brackets,
    find_unbalanced_quotes,
)

__all__ = [
    "EXTRACTED",
    "PUBLISHERS",
    "RULES",
    "Finding",
    "LintField",
    "LintRule",
    "find_artefacts",
    "lint_document",
    "lint_parsed",
]

_CONTEXT = 24


@dataclass(frozen=True)
class LintRule:
    code: WarningCode
    message: str
    pattern: re.Pattern[str] | None = None
    predicate: Callable[[LintField], list[Span]] | None = None
    # What every finding of the rule contains: a text without it is skipped unread (the
    # lint runs after every parse, over thousands of texts). A gate matches within one
    # text (no lookaround, no anchor, never the SEPARATOR), so the texts a rule reads
    # are found with one search of all texts joined (`_reading_lists`).
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


@dataclass(frozen=True)
class Finding:
    """One artefact: which rule, which record and field, the exact text, and its context."""

    code: WarningCode
    record: str
    field: str
    text: str
    excerpt: str
    location: Location | None
    digest: str  # text_digest of the whole text the finding is in

    def describe(self, message: str) -> str:
        return f"{self.record} {self.field}: {message}: {self.excerpt!r}"

    def warning(self, message: str) -> ParseWarning:
        return ParseWarning(code=self.code, message=self.describe(message), location=self.location)

    def note(self, message: str) -> PublisherNote:
        return PublisherNote(
            code=self.code,
            record=self.record,
            field=self.field,
            text=self.text,
            message=self.describe(message),
            digest=self.digest,
            location=self.location,
        )


def _excerpt(text: str, start: int, end: int) -> str:
    """The exact match with some context either side, marked `«…»` so spaces show."""
    before = text[max(0, start - _CONTEXT) : start]
    after = text[end : end + _CONTEXT]
    return f"{before}«{text[start:end]}»{after}"


# --------------------------------------------------------------------------- the rules

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
# as they are, each of these is what the file holds.
EXTRACTED = frozenset(
    {
        WarningCode.LINT_TEX_ANGLE,
        WarningCode.LINT_MARKUP,
        WarningCode.LINT_SPACE_BEFORE_PUNCTUATION,
        WarningCode.LINT_EMPTY_OPERAND,
    }
)


# --------------------------------------------------------------------------- reading a document


def _fields(doc: Document) -> Iterator[LintField]:
    for rule in doc.records:
        where = rule.location
        if rule.title:
            yield LintField(rule.id, "title", rule.title, where)
        if rule.text:
            yield LintField(rule.id, "text", rule.text, where, title=rule.title)
        for name, parts in (
            ("examples", rule.examples),
            ("notes", rule.notes),
            ("bullets", rule.bullets),
        ):
            for index, part in enumerate(parts):
                yield LintField(rule.id, f"{name}[{index}]", part, where)
    for term in doc.glossary:
        yield LintField(term.id, "term", term.term, term.location)
        yield LintField(term.id, "definition", term.definition, term.location, title=term.term)
    for passage in doc.front_matter + doc.back_matter:
        yield LintField(passage.id, "title", passage.title, passage.location)
        yield LintField(passage.id, "text", passage.text, passage.location)
    for ruling in doc.rulings:
        for name, value in (
            ("question", ruling.question),
            ("answer", ruling.answer),
            ("text", ruling.text),
        ):
            if value:
                yield LintField(ruling.id, name, value, ruling.location)


# Joins the texts for the gates' one search: a noncharacter, which no gate matches.
SEPARATOR = "\uffff"


def _reading_lists(fields: list[LintField], rules: tuple[LintRule, ...]) -> list[list[LintRule]]:
    """For each text, the rules to read it with, in `rules` order: a gated rule only where
    its gate matches, found by one search of all texts joined (some 5,000 texts and a
    dozen rules: a search of each text by each rule was most of the lint's time)."""
    joined = SEPARATOR.join(field.text for field in fields)
    starts = list(accumulate((len(field.text) + 1 for field in fields[:-1]), initial=0))
    # Which texts each rule reads: its gate's or its marks' matches, mapped to texts.
    reads: list[set[int] | None] = []
    by_mark: dict[str, list[set[int]]] = {}
    for rule in rules:
        if rule.gate is None:
            reads.append(None)  # every text
            continue
        found: set[int] = set()
        reads.append(found)
        if rule.marks:
            for mark in rule.marks:
                by_mark.setdefault(mark, []).append(found)
        else:
            found.update(bisect_right(starts, m.start()) - 1 for m in rule.gate.finditer(joined))
    if by_mark:
        any_mark = re.compile(f"[{re.escape(''.join(by_mark))}]")
        for match in any_mark.finditer(joined):
            index = bisect_right(starts, match.start()) - 1
            for marked in by_mark[match.group()]:
                marked.add(index)
    lists: list[list[LintRule]] = [[] for _ in fields]
    for rule, texts in zip(rules, reads, strict=True):
        for index in range(len(fields)) if texts is None else sorted(texts):
            lists[index].append(rule)
    return lists


def find_artefacts(doc: Document, rules: tuple[LintRule, ...] = RULES) -> list[Finding]:
    """Every finding of `rules` in the document's texts, in record order."""
    fields = list(_fields(doc))
    return [
        Finding(
            code=rule.code,
            record=field.record,
            field=field.name,
            text=field.text[start:end],
            excerpt=_excerpt(field.text, start, end),
            location=field.location,
            digest=text_digest(field.text),
        )
        for field, todo in zip(fields, _reading_lists(fields, rules), strict=True)
        for rule in todo
        for start, end in rule.spans(field)
    ]


def lint_document(doc: Document) -> list[ParseWarning]:
    """Every extraction artefact in the document's texts as a warning; [] when clean."""
    return [finding.warning(MESSAGES[finding.code]) for finding in find_artefacts(doc)]


def lint_parsed(doc: Document, *, text_file: bool = False) -> Document:
    """The document with its findings added: reviewed ones (parse/errata.py: this document,
    the very text reviewed) to `publisher_errata`, the publisher's own (PUBLISHERS') to
    `publisher_notes`, the rest to `warnings`. From a text file (`text_file`), whose bytes
    are the text, what an extraction could have made (EXTRACTED) is the file's own too:
    a note."""
    publishers = PUBLISHERS | EXTRACTED if text_file else PUBLISHERS
    errata: list[Erratum] = []
    notes: list[PublisherNote] = []
    warnings: list[ParseWarning] = []
    for finding in find_artefacts(doc):
        message = MESSAGES[finding.code]
        reason = known_artefact(
            doc.document, finding.code, finding.record, finding.field, finding.text, finding.digest
        )
        if reason is not None:
            errata.append(
                Erratum(
                    record=finding.record,
                    cites=finding.text,
                    reason=reason,
                    location=finding.location,
                    code=str(finding.code),
                    field=finding.field,
                    digest=finding.digest,
                )
            )
        elif finding.code in publishers:
            notes.append(finding.note(message))
        else:
            warnings.append(finding.warning(message))
    if not errata and not warnings and not notes:
        return doc
    return doc.model_copy(
        update={
            "warnings": [*doc.warnings, *warnings],
            "publisher_errata": [*doc.publisher_errata, *errata],
            "publisher_notes": [*doc.publisher_notes, *notes],
        }
    )
