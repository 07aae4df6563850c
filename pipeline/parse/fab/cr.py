"""Flesh and Blood Comprehensive Rules (`fab-cr`): text export and PDF, one record model.

The text export states no version: the caller's is used, or it is null with
`no-version`. The PDF's title page states both version and date; one this
parser does not recognise is a ParseError. The PDF's paragraphs come from the
engine's layout reader, so both renditions reach the rule tree as the same
blocks. FaB's own: `N Title` is a chapter only when it is the next chapter and
opens a section `N.M` that opens rules or another section (the inline glossary
`1 Glossary` / `1.-1.K` and acknowledgments `2 Acknowledgments` / `2.0 ...`
fail that test and become glossary and back matter); a rule whose text is a
keyword name (`8.4.4 Channel`) is a heading; two or more unnumbered, unlabelled
paragraphs after a rule are its bullets, a lone one is kept in its text with a
warning (2.10.1 lost a number or a label there); a line without a letter or
digit (the publisher's stray `%`) continues its paragraph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.records import Document, Location, ParseOptions, WarningCode
from pipeline.models.scheme import FORMS, LevelScheme, NumberedScheme
from pipeline.parse.common import slugify, unplaced, warn
from pipeline.parse.numbered.document import pdf_blocks
from pipeline.parse.numbered.engine import Engine, is_title, passage
from pipeline.parse.numbered.finish import Parsed, finish_document
from pipeline.parse.numbered.layout import Block, body_size, text_blocks
from pipeline.parse.numbered.numbers import NumberStart
from pipeline.parse.numbered.records import Draft, paragraphs, span
from pipeline.parse.numbered.statements import (
    DATE_IN_TEXT,
    compile_statement,
    find_statement,
    read_date,
)

FAMILY = "fab-cr"
PARSER_VERSION = "2.0"
SCHEME = NumberedScheme(
    levels=[
        LevelScheme(kind="chapter", title="always"),
        LevelScheme(kind="section", title="always"),
        LevelScheme(kind="rule", title="short"),
        LevelScheme(kind="subrule", segment="letter", join=""),
    ],
    brackets=True, keywords=[], exclude_self=False, wraps="paragraphs", hyphens="vocabulary",
)  # fmt: skip
ENGINE = Engine(SCHEME)
CHAPTER, SECTION, RULE, SUBRULE = range(4)
GLOSSARY_ENTRY_RE = re.compile(r"^[0-9]+\.-1\.[0-9]+ (\S.*)$")
TITLE_RE = re.compile(r"comprehensive\s+rules", re.IGNORECASE)
# A release's version on its title page: `2.14.0`, and the next major's `3.0` too.
VERSION_RE = re.compile(r"(?<![\d.])(\d+\.\d+(?:\.\d+)*)(?![\d.])")
# A title-page date in the forms the statement reader knows (`Effective: June 10, 2026`).
DATE_STATEMENTS = [compile_statement(FORMS[name]) for name in ("effective", "last-updated")]
NO_STATED_VERSION = (
    "the text export states no version and none was given; "
    "pass the version the source is known to be"
)
_SENTENCE_END = (".", ":", ";", "?", "!", ",", '"', "\u201d")


def is_title_text(text: str) -> bool:
    """A keyword name such as `Channel` or `Create (token)`, not a sentence."""
    return ENGINE.references.bracket.search(text) is None and is_title(text, 8, _SENTENCE_END)


def unlabelled(number: str) -> str:
    """Why a paragraph after a rule is kept in its text, in either rendition."""
    return (
        f"cr:{number} is followed by an unnumbered paragraph that is neither an example, a "
        "note nor part of a list; kept in its text (a rule number or an 'Example:' label may "
        "be missing)"
    )


def number_at(block: Block, level: int) -> NumberStart | None:
    start = ENGINE.numbering.match_start(block.text)
    return start if start is not None and start.level == level else None


def parent(number: str) -> str | None:
    return ENGINE.numbering.parent_of(number)


def start_kind(text: str) -> str | None:
    """The kinds of entry whose indentation the PDF reader learns."""
    if (kind := ENGINE.kind_of(text)) in ("rule", "subrule"):
        return kind
    return "glossary" if GLOSSARY_ENTRY_RE.match(text) else None


@dataclass
class _Draft(Draft):
    # unlabelled paragraphs, not yet placed, with the lines each was read from
    pending: list[tuple[str, Location]] = field(default_factory=list)


@dataclass
class _Matter:
    title: str
    heading: Block
    back: bool
    parent: str = ""  # the heading a sub-passage (`2.0 Legend Story Studios`) sits under
    blocks: list[Block] = field(default_factory=list)
    copyright: bool = False


def _opens_chapter(blocks: list[Block], index: int, number: str) -> bool:
    """`N Title` followed by `N.M Title` that opens rules (`N.M.K`) or another section."""
    if index + 2 >= len(blocks):
        return False
    section = number_at(blocks[index + 1], SECTION)
    if section is None or parent(section.number) != number:
        return False
    if rule := number_at(blocks[index + 2], RULE):
        return parent(rule.number) == section.number
    other = number_at(blocks[index + 2], SECTION)
    return other is not None and parent(other.number) == number


class Builder:
    """Blocks -> rule tree, glossary and front/back matter, in order."""

    def __init__(self) -> None:
        self.parsed = Parsed(drafts=[], missing=NO_STATED_VERSION)
        self.matter: list[_Matter] = []
        self.chapter = 0
        self.region = "start"
        self.current: _Draft | None = None

    def warn(self, code: WarningCode, message: str, where: Location) -> None:
        self.parsed.warnings.append(warn(code, message, where))

    def resolve_pending(self, draft: _Draft) -> None:
        """Unlabelled paragraphs after a rule: a list when two or more, else kept in the text."""
        for piece, at in draft.pending if len(draft.pending) >= 2 else ():
            draft.open("bullets", piece, at)
        if len(draft.pending) == 1:
            draft.open("text", *draft.pending[0])
            self.warn(WarningCode.UNLABELLED_PARAGRAPH, unlabelled(draft.number), draft.location)
        draft.pending = []

    def close(self, region: str | None = None) -> None:
        if self.current is not None:
            self.resolve_pending(self.current)
        if region is not None:
            self.current, self.region = None, region

    def open_record(self, start: NumberStart, block: Block) -> None:
        self.close()
        level = start.level
        draft = _Draft(
            start.number, SCHEME.levels[level].kind, parent(start.number), block.location
        )
        if level < RULE or (level == RULE and is_title_text(start.rest)):
            draft.title = [start.rest]
        else:
            draft.add(start.rest)
        self.parsed.drafts.append(draft)
        self.current = draft

    def add_plain(self, block: Block) -> None:
        draft, text = self.current, block.text
        if draft is None:
            self.parsed.warnings.append(unplaced(text, block.location))
        elif draft.title and draft.kind == "rule" and not draft.text and draft.part == "text":
            draft.add(text, block.location)
        elif not any(ch.isalnum() for ch in text):
            if draft.pending:
                piece, at = draft.pending[-1]
                draft.pending[-1] = (piece + "\n" + text, span(at, block.location))
            else:
                draft.add(text, block.location)
        elif block.bullet:
            self.resolve_pending(draft)
            draft.open("bullets", text, block.location)
        else:
            draft.pending.append((text, block.location))

    def open_matter(self, title: str, block: Block) -> None:
        self.close("matter")
        self.matter.append(_Matter(title, block, back=self.chapter > 0))

    def feed(self, blocks: list[Block], index: int) -> None:
        block = blocks[index]
        chapter = number_at(block, CHAPTER) if block.heading is not False else None
        number = int(chapter.number) if chapter is not None else 0
        if chapter and number > self.chapter and _opens_chapter(blocks, index, chapter.number):
            self.chapter, self.region = number, "rules"
            self.open_record(chapter, block)
        elif block.heading is not False and self.is_glossary_heading(blocks, index):
            self.close("glossary")
        elif chapter is not None and is_title_text(chapter.rest) and not block.bullet:
            self.open_matter(chapter.rest, block)
        elif block.heading and not number_at(block, SECTION) and self.region != "matter":
            self.open_matter(block.text, block)  # an unnumbered heading (PDF): front or back
        elif self.region == "glossary":
            self.feed_glossary(block)
        elif self.region == "matter":
            self.feed_matter(block)
        elif self.region == "rules":
            self.feed_rules(block)
        else:
            self.add_plain(block)

    def is_glossary_heading(self, blocks: list[Block], index: int) -> bool:
        chapter = number_at(blocks[index], CHAPTER)
        if (chapter.rest if chapter else blocks[index].text) != "Glossary":
            return False
        following = blocks[index + 1].text if index + 1 < len(blocks) else ""
        return bool(blocks[index].heading) or GLOSSARY_ENTRY_RE.match(following) is not None

    def feed_rules(self, block: Block) -> None:
        start = ENGINE.numbering.match_start(block.text)
        if start is not None and start.level == SECTION and block.heading is not False:
            if parent(start.number) != str(self.chapter):
                message = f"section {start.number} appears inside chapter {self.chapter}"
                self.warn(WarningCode.MISPLACED, message, block.location)
            self.open_record(start, block)
        elif start is not None and start.level in (RULE, SUBRULE) and not block.heading:
            self.open_record(start, block)
        elif self.current is not None and ENGINE.labels.match(block.text):
            self.resolve_pending(self.current)
            self.current.label(ENGINE.labels, block.text, block.location)
        else:
            self.add_plain(block)

    def feed_glossary(self, block: Block) -> None:
        entry, glossary = GLOSSARY_ENTRY_RE.match(block.text), self.parsed.glossary
        if entry is not None or block.bold:
            glossary.append((entry.group(1) if entry else block.text, [], block.location))
        elif glossary:
            term, lines, at = glossary[-1]
            glossary[-1] = (term, [*lines, block.text], span(at, block.location))
        else:
            self.add_plain(block)

    def feed_matter(self, block: Block) -> None:
        part, sub = self.matter[-1], number_at(block, SECTION)
        under = part.parent or part.title
        if sub is not None and block.heading is not False and is_title_text(sub.rest):
            self.matter.append(_Matter(sub.rest, block, part.back, under))
        elif block.heading and sub is None:
            self.matter.append(_Matter(block.text, block, part.back, under))
        elif block.text.startswith("©"):
            self.matter.append(_Matter("", block, part.back, under, [block], copyright=True))
        else:
            part.blocks.append(block)

    def finish(self) -> Parsed:
        self.close()
        for part in self.matter:
            slug = "copyright" if part.copyright else slugify(f"{part.parent} {part.title}")
            ident = f"{'back' if part.back else 'front'}:{slug}"
            found = passage(ident, part.title, part.blocks, paragraphs, part.heading)
            (self.parsed.back_matter if part.back else self.parsed.front_matter).append(found)
        return self.parsed


def read_title_page(lines: list[Line], *, what: str) -> tuple[str, str, str]:
    """(title, version, ISO date) from the first page, or a ParseError saying what it found."""
    if not lines:
        raise ParseError(what, "the PDF has no text")
    page = [line for line in lines if line.page == lines[0].page]
    title = next((line.text for line in page if TITLE_RE.search(line.text)), None)
    version = next((m.group(1) for line in page if (m := VERSION_RE.search(line.text))), None)
    date = next((m.group(0) for line in page if (m := DATE_IN_TEXT.search(line.text))), None)
    if date is None:  # a date written out (`June 10, 2026`), alone or in a statement
        stated = find_statement(page, DATE_STATEMENTS)
        whole = next((line.text for line in page if read_date(line.text)), None)
        date = stated.date_text if stated is not None and stated.date else whole
    if title is None or version is None or date is None:
        wanted = (
            ("'Comprehensive Rules'", title),
            ("a version like 2.14.0", version),
            ("a date like 2026-6-10", date),
        )
        missing = ", ".join(name for name, value in wanted if value is None)
        seen = " | ".join(line.text for line in page[:6])
        problem = f"unrecognised title page: page {page[0].page} lacks {missing}"
        raise ParseError(what, f"{problem} (it reads: {seen!r})", page[0].line)
    if (published := read_date(date)) is None:
        raise ParseError(what, f"title page date {date!r} is not a date")
    return title, version, published


def read_pdf(lines: list[Line], parsed: Parsed, *, what: str) -> list[Block]:
    """The body's blocks; the title page's title, version and date into `parsed`."""
    if any(line.x0 is None or line.size is None for line in lines):
        raise ParseError(what, "the lines carry no positions; pass extract_pdf_lines(...).lines")
    parsed.title, parsed.stated, parsed.published = read_title_page(lines, what=what)
    body = [line for line in lines if line.page != lines[0].page and line.text.strip()]
    if body_size(body) is None:
        raise ParseError(what, "the PDF has a title page but no body text")
    return pdf_blocks(ENGINE, body, start_kind)


def parse(lines: list[Line], notes: dict[str, int], options: ParseOptions) -> Document:
    """Parse a FaB CR rendition (`txt` or `pdf`) into a Document with `source` left None."""
    builder = Builder()
    if options.rendition == "pdf":
        blocks = read_pdf(lines, builder.parsed, what=options.document)
    elif options.rendition == "txt":
        blocks = text_blocks(lines)
    else:
        message = f"rendition {options.rendition!r} is not one fab-cr reads (txt or pdf)"
        raise ParseError(options.document, message)
    for index in range(len(blocks)):
        builder.feed(blocks, index)
    parsed = builder.finish()
    if not any(draft.kind == "chapter" for draft in parsed.drafts):
        raise ParseError(
            options.document,
            "no chapter found (expected a heading like '1 Game Concepts' followed by "
            "'1.0 General' and rule '1.0.1 ...'); is this a Flesh and Blood Comprehensive "
            "Rules document?",
        )
    return finish_document(parsed, ENGINE.finish(FAMILY, PARSER_VERSION), options, notes)
