"""The records every stage passes along. Pure data: no I/O, no imports from the package.

Every string in a parsed record is either the publisher's own number or text
copied out of the document; nothing here is generated or summarised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Rendition = Literal["txt", "pdf", "html", "json", "tar.gz", "wiki"]

# The version of the record contract (README, "Changelog"). 2: `depth` counts from 1 in every
# family, one set of count keys, warning codes from WarningCode, errata keyed by version.
# 3: line and page spans and character offsets in `location`, the extraction engine in
# `parser`, the lint's reviewed findings in `publisher_errata`.
SCHEMA_VERSION = 3


class Model(BaseModel):
    """Strict base: unknown fields are errors, so a typo in the corpus never loads silently."""

    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- registry


class Discovery(Model):
    """How to find the current file's URL on a landing page (file names change per release)."""

    page: str
    link_pattern: str = Field(description="regex an absolute link URL must match")


class ManifestKey(Model):
    """The entries of an archive manifest (shared/sources format) that are this source."""

    game: str
    document: str
    format: str
    path_pattern: str | None = Field(
        default=None, description="regex the entry's path must match (excludes side files)"
    )
    version_map: dict[str, str] = Field(
        default_factory=dict,
        description="manifest version -> the document version it is a rendition of, as a "
        "maintainer reviewed it (e.g. a prototype folder '2.10.1-prototype' -> '2.10.1')",
    )
    side_files: list[SideFile] = Field(
        default_factory=list,
        description="files of the same game and document that are no document (metadata)",
    )


class SideFile(Model):
    """A file an archive keeps beside a document that is not one: reported, never parsed."""

    path_pattern: str = Field(description="regex the entry's path must match")
    reason: str = Field(description="what the file is, for the import report")


class LevelScheme(Model):
    """One level of a numbering scheme: `1.0.1a` is four levels (1, .0, .1, a)."""

    kind: str = Field(description="the level's name: chapter, section, rule, subrule, ...")
    segment: Literal["digits", "letter", "roman", "upper", "digits-or-upper"] = Field(
        default="digits",
        description="what the level adds: digits, a lower-case letter, "
        "a lower-case roman numeral, an upper-case letter, or digits or an upper-case "
        "letter (appendices A, B beside chapters 1, 2)",
    )
    width: int | None = Field(
        default=None, description="exactly this many digits (MTG's section 100 is chapter 1 + 00)"
    )
    join: str = Field(default=".", description="printed between the parent's number and this one")
    printed: Literal["full", "own"] = Field(
        default="full",
        description="full: the whole path is printed (1.0.1a); own: only this level's segment "
        "(a.), the path comes from the outline position",
    )
    dot: Literal["none", "optional", "required"] = Field(
        default="none", description="a dot after the number (1.2.3.)"
    )
    title: Literal["never", "always", "short"] = Field(
        default="never",
        description="what follows the number is a title: never, always, or when it is short "
        "and no sentence (8.4.4 Channel)",
    )


class NumberedScheme(Model):
    """How a numbered rules document is written: read by the `numbered` engine (parse/numbered)."""

    prefix: str = Field(default="cr", description="citation ids are prefix:number")
    levels: list[LevelScheme] = Field(min_length=1)
    skip_letters: str = Field(default="", description="letters the numbering never uses (l, o)")
    example: list[str] = Field(default=["Example"], description="labels of example paragraphs")
    note: list[str] = Field(default=["Note"], description="labels of note paragraphs")
    bullets: list[str] = Field(
        default=["•", "●", "▪", "◦"], description="glyphs that start a list item"
    )
    keywords: list[str] = Field(
        default=["rule", "section"], description="words before a cited number (plural too)"
    )
    brackets: bool = Field(default=False, description="numbers in [brackets] are references")
    bare: bool = Field(
        default=False, description="a dotted number is a reference wherever it stands"
    )
    ranges: bool = Field(default=False, description="601.2a–h and 119.7–8 are ranges")
    letters: bool = Field(default=False, description="9.2.7b, c, and d cites three rules")
    exclude_self: bool = Field(default=True, description="a record never cites itself")
    title: str | None = Field(
        default=None, description="the title the document states before its rules"
    )
    statements: list[str] = Field(
        default_factory=list,
        description="sentences that state the version or date, with {version} and {date}: "
        "'This is version {version} of this document, effective {date}.'",
    )
    version_pattern: str = Field(default=r"\d+(?:\.\d+)*", description="regex of a version")
    version_is_date: bool = Field(
        default=False, description="the version is the stated date (YYYY-MM-DD)"
    )
    date_is: Literal["published", "effective"] = "published"
    hyphens: Literal["glued", "vocabulary", "space"] = Field(
        default="glued",
        description="a line ending in a dash: glued (kept, no space: non-/Commander), "
        "vocabulary (dropped unless the document writes the word with it), space",
    )
    wraps: Literal["join", "paragraphs"] = Field(
        default="join",
        description="an unnumbered line continues its paragraph (join) or is a paragraph "
        "of its own (paragraphs)",
    )
    ends: list[str] = Field(
        default_factory=list, description="headings after which the rules end (back matter)"
    )


class Source(Model):
    """One entry of the registry: one rendition of one document at one URL."""

    id: str = Field(description="registry key, e.g. fab-cr-txt")
    game: str
    document: str = Field(description="document id 'game/document', e.g. fab/cr")
    title: str
    family: str = Field(description="parser family, e.g. fab-cr")
    rendition: Rendition
    url: str | None = None
    discovery: Discovery | None = None
    allowed_hosts: list[str] = Field(default_factory=list)
    published_sha256_url: str | None = None
    attestation_pages: list[str] = Field(
        default_factory=list,
        description="web pages that publish a SHA-256 for this source's URL (checked by "
        "`verify --published`)",
    )
    max_bytes: int = 64 * 1024 * 1024
    primary: bool = Field(
        default=False, description="the rendition whose records are stored for the document"
    )
    manifest: ManifestKey | None = None
    options: dict[str, str] = Field(default_factory=dict)
    scheme: NumberedScheme | None = Field(
        default=None, description="family `numbered`: how the document is numbered"
    )


# --------------------------------------------------------------------------- fetch


class FetchResult(Model):
    """What one download was: enough to prove later which bytes were read from where."""

    source: str
    url: str
    final_url: str
    status: int
    etag: str | None = None
    last_modified: str | None = None
    content_type: str | None = None
    bytes: int
    sha256: str
    retrieved: str = Field(description="UTC ISO-8601 time of retrieval")
    from_cache: bool = Field(default=False, description="true when a 304 reused the stored blob")


# --------------------------------------------------------------------------- extraction


class Line(Model):
    """One line of extracted text and where it sat in the original bytes."""

    text: str
    line: int = Field(description="1-based line number in the extracted stream")
    page: int | None = None
    x0: float | None = None
    top: float | None = None
    size: float | None = None
    bold: bool = False
    highlight: bool = False


@dataclass(frozen=True)
class HtmlText:
    """The visible text of an HTML element (lines joined by '\\n') and the links inside it."""

    text: str
    links: tuple[str, ...] = ()
    line: int | None = None


@dataclass(frozen=True)
class QAItem:
    """A question found on an FAQ page, with its answer and the card or section it concerns."""

    question: HtmlText
    answer: HtmlText | None
    card: HtmlText | None = None
    section: HtmlText | None = None


@dataclass
class HtmlSection:
    """A heading and the blocks under it (before the first heading: heading None)."""

    heading: str | None
    anchor: str | None
    line: int | None
    blocks: list[HtmlText] = field(default_factory=list)


@dataclass(frozen=True)
class FaqPage:
    """What extraction reads off an FAQ page with the registry's selectors."""

    title: str | None
    items: list[QAItem]
    version_text: str | None = None
    selectors: dict[str, str] = field(default_factory=dict)  # the ones it was read with


@dataclass(frozen=True)
class WikiPage:
    """A verified MediaWiki revision: its wikitext and the sections of its rendering."""

    title: str
    revid: int
    sha1: str
    wikitext: str
    sections: list[HtmlSection]


@dataclass(frozen=True)
class SiteBlock:
    """One block of a rules-site page (pipeline.extract.fab_html): a heading with its anchor,
    a paragraph, a quoted paragraph (blockquote) or a list item, as a reader sees its text
    (resource icons written back as the text export's `{r}`-style tokens)."""

    kind: Literal["heading", "paragraph", "quote", "item", "other"]
    text: str
    line: int
    level: int | None = None  # heading level, 1-6
    anchor: str | None = None  # the heading's id
    strong: bool = False  # the heading's text (after its number) is all <strong>: a keyword
    links: tuple[str, ...] = ()  # fragment ids of the in-site links (cross-references)


@dataclass(frozen=True)
class SitePage:
    """One page of a rules site, in the order the site's index lists it (1-based `page`)."""

    url: str | None
    page: int
    title: str | None
    blocks: list[SiteBlock]
    stated_version: str | None = None
    icons: tuple[str, ...] = ()  # `{x}` tokens the page's icon images were written back as
    unknown_icons: tuple[str, ...] = ()  # images inside the content that are no known icon


@dataclass(frozen=True)
class RulesSite:
    """The pages of a rules site read from its bundle, in index order, and the pages the
    index lists that the bundle does not hold."""

    index: str | None
    pages: list[SitePage]
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class YamlFile:
    """One YAML member of an archive, parsed with yaml.safe_load (pipeline.extract.yaml_bundle).

    `start` is the 1-based line at which the file begins in the bundle's line stream (its
    chapter files concatenated in order), so a record's location is one line number."""

    path: str
    data: object
    text: str
    start: int = 1


@dataclass(frozen=True)
class YamlBundle:
    """Null Signal Games' CR source as a tarball holds it: chapter files `data/input/NN_*.yaml`
    in order, the changelogs, and `config.yaml` (none of them required but the chapters)."""

    chapters: tuple[YamlFile, ...]
    changelogs: tuple[YamlFile, ...] = ()
    config: YamlFile | None = None
    commit: str | None = None


@dataclass(frozen=True)
class NsgHtmlItem:
    """A numbered entry of Null Signal Games' generated CR page (pipeline.extract.nsg_html):
    its printed number (`1.2.3.`, `a.`), anchor id, visible text and inner blocks."""

    kind: Literal["chapter", "section", "rule", "subrule"]
    printed: str
    anchor: str | None
    text: str
    line: int
    heading: bool = False  # a subsection printed as a heading (class SubSection)
    snippet: str | None = None
    examples: tuple[str, ...] = ()
    bullets: tuple[str, ...] = ()
    links: tuple[str, ...] = ()  # fragment ids of the in-page links, in order
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class NsgHtmlPage:
    """What the NSG CR page states: title, version, effective date, changes, entries."""

    title: str | None
    version_text: str | None
    effective_text: str | None
    changes: tuple[tuple[str, tuple[str, ...]], ...]  # (text, fragment ids it links to)
    items: tuple[NsgHtmlItem, ...]
    unknown_icons: tuple[str, ...] = ()


class Location(Model):
    """Where a record's text sits in the extracted stream (README, "Record contract").

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


# --------------------------------------------------------------------------- records


class WarningCode(StrEnum):
    """Every warning a parser gives; README "Warning codes" says what each means."""

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
    # the extraction-artefact lint (pipeline/parse/lint.py; README "Extraction-artefact lint")
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
    """A defect in the publisher's own text, reviewed and listed in parse/errata.py."""

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
    extraction: dict[str, int] = Field(
        default_factory=dict, description="notes from extraction, e.g. zero_width_removed"
    )
    aliases: dict[str, str] = Field(
        default_factory=dict, description="old citation id -> id in this version (renumbering)"
    )


# --------------------------------------------------------------------------- lock


class Pin(Model):
    """The lock pins each stored (document, rendition, version) to its bytes."""

    document: str
    rendition: str
    version: str
    sha256: str
    bytes: int
    url: str | None = None


class Lock(Model):
    pins: list[Pin] = Field(default_factory=list)


# --------------------------------------------------------------------------- same text

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


# --------------------------------------------------------------------------- diff


ChangeClass = Literal[
    "added",
    "removed",
    "reworded",
    "renumbered",
    "moved",
    "split",
    "merged",
    "reference-only",
    "typography-only",
    "example-or-note-only",
    "cards-changed",
]


class WordOp(Model):
    op: Literal["equal", "insert", "delete"]
    text: str


class Change(Model):
    cls: ChangeClass = Field(alias="class")
    old_id: str | None = None
    new_id: str | None = None
    old_ids: list[str] = Field(default_factory=list)
    new_ids: list[str] = Field(default_factory=list)
    similarity: float | None = None
    text_change: ChangeClass | None = Field(
        default=None,
        description="for renumbered, moved, split and merged: how the text changed as well "
        "(typography-only, reference-only, example-or-note-only or reworded); null if identical",
    )
    words: list[WordOp] = Field(default_factory=list)
    cards_gained: list[str] = Field(default_factory=list, description="rulings: cards attached")
    cards_lost: list[str] = Field(default_factory=list, description="rulings: cards detached")
    method: str | None = Field(
        default=None,
        description="how the old and new records were paired: exact, typography, masked, "
        "same-text, similar, children, structural, split or merge (null: added or removed)",
    )
    weak: bool = Field(
        default=False,
        description="a pairing made on similarity, children or structure with less than 0.85 "
        "of its words in common: a reader should check it",
    )
    evidence: str | None = Field(
        default=None, description="why a children or structural pairing was made"
    )

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
