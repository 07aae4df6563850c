"""The parsed records: a Document and what it holds, addressed by the publisher's own numbers.

Every string in a parsed record is either the publisher's own number or text
copied out of the document; nothing here is generated or summarised."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum

from pydantic import Field

from pipeline.models.base import Model
from pipeline.models.scheme import NumberedScheme

# The version of the record contract (CHANGELOG.md). 2: `depth` counts from 1 in every
# family, one set of count keys, warning codes from WarningCode, errata keyed by version.
# 3: line and page spans and character offsets in `location`, the extraction engine in
# `parser`, the lint's reviewed findings in `publisher_errata`. 4: `publisher_notes`, what the
# publisher printed that the parser read right (never a warning); errata carry the `digest`
# of the text they were reviewed in.
SCHEMA_VERSION = 4


class Location(Model):
    """Where a record's text sits in the extracted stream (docs/records.md).

    `line` and `page` are the first line (1-based) and page holding it; `end_line` and
    `end_page` the last line holding the record's own text (never page furniture or the
    next record's heading). `char_start` and `char_end` are the 0-based, end-exclusive
    offsets of that span in the extracted text: every extracted line's text joined with
    "\n", from the span's first visible character to the end of its last line."""

    line: int
    page: int | None = None
    end_line: int | None = Field(default=None, description="the last line of the record's text")
    end_page: int | None = Field(default=None, description="the page of end_line (PDFs)")
    char_start: int | None = Field(
        default=None, description="0-based offset of the span in the extracted text"
    )
    char_end: int | None = Field(
        default=None, description="end-exclusive offset of the span in the extracted text"
    )


class WarningCode(StrEnum):
    """Every warning a parser gives; docs/records.md says what each means."""

    DANGLING_REFERENCE = "dangling-reference"
    DUPLICATE_ID = "duplicate-id"
    ORPHAN = "orphan"
    MISPLACED = "misplaced"
    NUMBERING = "numbering"
    UNPLACED_TEXT = "unplaced-text"
    UNLABELLED_PARAGRAPH = "unlabelled-paragraph"
    UNALIGNED_NUMBERS = "unaligned-numbers"
    NO_VERSION = "no-version"
    BAD_DATE = "bad-date"
    AMBIGUOUS_DATE = "ambiguous-date"
    VERSION_MISMATCH = "version-mismatch"
    EFFECTIVE_DATE_MISMATCH = "effective-date-mismatch"
    TITLE_NOT_RECOGNISED = "title-not-recognised"
    NO_INTRODUCTION = "no-introduction"
    NO_CONTENTS = "no-contents"
    CONTENTS_MISMATCH = "contents-mismatch"
    NO_GLOSSARY = "no-glossary"
    NO_CREDITS = "no-credits"
    UNEXPECTED_END = "unexpected-end"
    EMPTY_DEFINITION = "empty-definition"
    NO_SOURCES = "no-sources"
    UNKNOWN_FIELD = "unknown-field"
    CARD_MISMATCH = "card-mismatch"
    BAD_VERIFIED = "bad-verified"
    EMPTY_QUESTION = "empty-question"
    NO_ANSWER = "no-answer"
    NO_WIKITEXT_SECTION = "no-wikitext-section"
    # fab-html (the FaB rules site's pages)
    ANCHOR_MISMATCH = "anchor-mismatch"
    HEADING_LEVEL = "heading-level"
    UNKNOWN_ICON = "unknown-icon"
    PAGE_MISSING = "page-missing"
    # the extraction-artefact lint (pipeline/parse/lint.py; docs/lint.md)
    LINT_TEX_ANGLE = "lint-tex-angle"
    LINT_MARKUP = "lint-markup"
    LINT_SPACE_BEFORE_PUNCTUATION = "lint-space-before-punctuation"
    LINT_EMPTY_OPERAND = "lint-empty-operand"
    LINT_DOUBLED_HEADING = "lint-doubled-heading"
    LINT_DOUBLED_SPACE = "lint-doubled-space"
    LINT_REPLACEMENT_CHAR = "lint-replacement-char"
    LINT_LOST_CHARACTER = "lint-lost-character"
    LINT_CONTROL_CHAR = "lint-control-char"
    LINT_ZERO_WIDTH = "lint-zero-width"
    LINT_UNBALANCED_QUOTES = "lint-unbalanced-quotes"
    LINT_UNBALANCED_BRACKETS = "lint-unbalanced-brackets"
    BAD_ENTRY = "bad-entry"
    BAD_MARKUP = "bad-markup"
    UNPRINTED_TEXT = "unprinted-text"
    NO_CHANGELOG = "no-changelog"
    # the account of every number (pipeline/parse/account.py)
    UNACCOUNTED_NUMBER = "unaccounted-number"


class CountKey(StrEnum):
    """Keys of Document.counts besides one per record kind (`chapters`, `rules`, ...)."""

    RECORDS = "records"
    GLOSSARY = "glossary"
    EXAMPLES = "examples"
    HIGHLIGHTED = "highlighted"
    PUBLISHER_CHANGES = "publisher_changes"
    NUMBERING_GAPS = "numbering_gaps"
    RULINGS = "rulings"
    CARDS = "cards"
    CARD_FILES = "card_files"
    ENTRIES = "entries"
    MULTI_CARD_RULINGS = "multi_card_rulings"
    QUESTION_RULINGS = "question_rulings"
    TEXT_RULINGS = "text_rulings"
    VERIFIED_RULINGS = "verified_rulings"
    SECTIONS = "sections"
    CITATIONS = "citations"
    CITED_DOCUMENTS = "cited_documents"
    CONTENTS = "contents_entries"
    FURNITURE = "furniture_lines"


class ParseWarning(Model):
    code: WarningCode
    message: str
    location: Location | None = None


class Rule(Model):
    """A numbered entry of a rules document, addressed by the publisher's own number."""

    id: str = Field(description="citation id, 'cr:' + the publisher's number")
    number: str
    kind: str = Field(description="chapter, section, rule or subrule (family-specific level name)")
    parent: str | None = None
    depth: int
    title: str | None = None
    text: str = ""
    examples: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    bullets: list[str] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list)
    location: Location
    highlighted: bool | None = Field(
        default=None, description="PDF text in the publisher's change-highlight colour"
    )
    key: str | None = Field(
        default=None,
        description="the publisher's stable symbolic key of the entry (Null Signal Games' "
        "YAML source: `rule_player_definitions`, `sec_golden_rules`); null where the "
        "document has none",
    )
    cards: list[str] = Field(
        default_factory=list,
        description="card names the text cites as cards (`{card:…}` markup), in order",
    )


class GlossaryTerm(Model):
    id: str = Field(description="'glossary:' + slug of the term")
    term: str
    definition: str
    references: list[str] = Field(default_factory=list)
    location: Location


class Passage(Model):
    """Front or back matter: preface, credits, acknowledgments. Kept verbatim, never a rule."""

    id: str
    title: str
    text: str
    location: Location


class Citation(Model):
    """A wiki's structured citation of a printed document."""

    document: str
    page: int | None = None
    column: int | None = None
    paragraphs: str | None = None
    quote: str = ""


class Ruling(Model):
    id: str = Field(description="'ruling:' + hash of normalised content")
    cards: list[str] = Field(default_factory=list)
    card_titles: list[str] = Field(default_factory=list)
    question: str | None = None
    answer: str | None = None
    text: str | None = None
    question_md: str | None = None
    answer_md: str | None = None
    text_md: str | None = None
    card_references: list[str] = Field(default_factory=list)
    attribution: str | None = Field(
        default=None, description="the heading naming who ruled, e.g. 'UFAQ [Michael Boggs]'"
    )
    sources: list[str] = Field(
        default_factory=list, description="ids of the named sources (ruling_sources.json)"
    )
    updated: str | None = None
    verified: bool | None = None
    section: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    location: Location | None = None


class Erratum(Model):
    """A defect in the publisher's own text, reviewed and listed in parse/errata.toml."""

    record: str
    cites: str = Field(
        description="what the defect names: the cited id that does not exist, or the exact "
        "offending text of an extraction-artefact finding"
    )
    reason: str
    location: Location | None = None
    code: str | None = Field(
        default=None,
        description="the warning the defect would be were it not reviewed (a `lint-…` "
        "code; null: a dangling reference or a source defect)",
    )
    field: str | None = Field(
        default=None, description="lint findings: the record's field (`text`, `examples[0]`)"
    )
    digest: str | None = Field(
        default=None,
        description="lint findings: text_digest of the field's whole text, the text the "
        "finding was reviewed in (a later release with the same text keeps the review)",
    )


class PublisherNote(Model):
    """What the publisher printed and the parser read right: a quotation mark that pairs with
    nothing, a doubled space, a citation of a rule the document does not have. Stored and
    reported, never a warning: it does not stage a version (README "Warnings and notes")."""

    code: WarningCode = Field(description="the kind of finding (`lint-unbalanced-quotes`, ...)")
    record: str = Field(description="the id of the record it was found in")
    field: str = Field(description="the record's field (`text`, `examples[0]`, `definition`)")
    text: str = Field(description="the exact offending text, or the id cited")
    message: str = Field(description="one line for a person: the finding in its context")
    digest: str = Field(description="text_digest of the field's whole text")
    location: Location | None = None


def text_digest(text: str) -> str:
    """The first 16 hex digits of the SHA-256 of `text` (UTF-8): what a reviewed finding
    is matched by, so a review holds for as long as the publisher leaves the text alone."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class PublisherChange(Model):
    text: str
    cites: list[str] = Field(default_factory=list)


class SourceRef(Model):
    """Which bytes a version was read from. No retrieval time or mirror path here: the same
    bytes must give the same JSON on any machine (those live in the provenance file)."""

    url: str | None
    sha256: str
    bytes: int
    rendition: str


@dataclass(frozen=True)
class ParseOptions:
    """What a parser is told besides its input: every family's parser takes
    (content, extraction notes, ParseOptions) and returns a Document."""

    document: str
    rendition: str
    version: str | None = None  # what the caller expects or asserts; the document's own wins
    settings: dict[str, str] = field(default_factory=dict)  # the registry entry's `options`
    scheme: NumberedScheme | None = None  # family `numbered`: the registry entry's scheme


class ParserInfo(Model):
    family: str
    version: str
    engine: str | None = Field(
        default=None,
        description="what extracted the text the parser read: pdfium, pdfplumber, "
        "python-codecs utf-8, beautifulsoup4 html.parser, PyYAML safe_load, ...",
    )
    engine_version: str | None = Field(default=None, description="that engine's version")


class Document(Model):
    """One version of one document, parsed. Byte-identical JSON for identical input bytes."""

    schema_version: int = Field(
        default=SCHEMA_VERSION, description="the record contract this JSON follows (README)"
    )
    game: str
    document: str
    title: str | None
    version: str | None
    published: str | None = None
    effective: str | None = None
    source: SourceRef | None = None
    renditions: list[SourceRef] = Field(
        default_factory=list, description="every rendition of this version that was checked"
    )
    parser: ParserInfo
    counts: dict[str, int] = Field(default_factory=dict)
    warnings: list[ParseWarning] = Field(default_factory=list)
    records: list[Rule] = Field(default_factory=list)
    glossary: list[GlossaryTerm] = Field(default_factory=list)
    front_matter: list[Passage] = Field(default_factory=list)
    back_matter: list[Passage] = Field(default_factory=list)
    rulings: list[Ruling] = Field(default_factory=list)
    publisher_changes: list[PublisherChange] = Field(default_factory=list)
    publisher_errata: list[Erratum] = Field(
        default_factory=list, description="reviewed defects of the publisher's text"
    )
    publisher_notes: list[PublisherNote] = Field(
        default_factory=list,
        description="what the publisher printed and the parser read right, not yet reviewed "
        "(a stray quotation mark, a doubled space, a citation of a rule the document lacks); "
        "never a warning",
    )
    extraction: dict[str, int] = Field(
        default_factory=dict, description="notes from extraction, e.g. zero_width_removed"
    )
    aliases: dict[str, str] = Field(
        default_factory=dict, description="old citation id -> id in this version (renumbering)"
    )
