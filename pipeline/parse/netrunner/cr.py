"""Netrunner Comprehensive Rules (NISEI / Null Signal Games PDFs) -> records.

Layout of the PDFs, as pdfplumber lines:
- page 1 (and 2-3): title, preface with `This is version 1.4 of this document,
  effective 20 December 2019.`, then "Summary of Changes" bullets (`front`);
- a table of contents in two columns, which the parser skips entirely: the
  body starts at the first chapter heading in the chapter font after it;
- chapters `1. Game Concepts` and sections `1.2. The Golden Rules` as
  headings in larger fonts; rules `1.2.3. text` in the body font; lettered
  subrules `a. text` indented under a rule, wrapped lines indented further;
- `Example:` / `Example 2:` paragraphs, kept apart from the rule text;
- the timing appendix uses `1)`, `a)`, `i)` list items: kept as bullets;
- "Appendix: Previous Revision" and "Acknowledgements" are back matter.

Ids: `cr:1`, `cr:1.2`, `cr:1.2.3`, `cr:1.2.3a` (the document cites `rule 1.5.4d`).
What is Netrunner's own here is the font-size headings and the indentation
that tells a subrule from a wrapped line; the rest is the engine's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.errors import ParseError
from pipeline.models import (
    CountKey,
    Document,
    LevelScheme,
    Line,
    Location,
    NumberedScheme,
    ParseOptions,
    Passage,
    WarningCode,
)
from pipeline.parse.common import options_of, slugify, warn
from pipeline.parse.netrunner.front import join, read_front
from pipeline.parse.numbered.engine import Engine, Reader, read_statement
from pipeline.parse.numbered.finish import Parsed, finish_document
from pipeline.parse.numbered.layout import drop_page_numbers, mode
from pipeline.parse.numbered.numbers import NumberStart

FAMILY = "netrunner-cr"
PARSER_VERSION = "2.0"

SCHEME = NumberedScheme(
    levels=[
        LevelScheme(kind="chapter", dot="required", title="always"),
        LevelScheme(kind="section", dot="required", title="always"),
        LevelScheme(kind="rule", dot="required"),
        LevelScheme(kind="subrule", segment="letter", join="", printed="own", dot="required"),
    ],
    note=[],
    keywords=["rule", "section", "step"],
    letters=True,
    statements=["This is version {version} of this document, effective {date}."],
    date_is="effective",
)
ENGINE = Engine(SCHEME)
LIST_ITEM_RE = re.compile(r"^(?:\d+|[a-z]|[ivx]+)\)\s+\S")
# Lettered subrules start at the item indent (144 pt); their wrapped lines sit
# at 168 pt, and a wrapped line that happens to begin "a. " must not open a subrule.
SUBRULE_MAX_X = 156.0
# Rule numbers sit left of the item indent (86-99 pt); wrapped rule text at 144 pt.
RULE_MAX_X = 120.0
# Heading fonts relative to the body font (10.99 pt): chapters 20 pt, sections 16 pt.
CHAPTER_SCALE = 1.7
SECTION_SCALE = 1.35
BACK_MATTER_CHAPTER = "appendix: previous revision"


@dataclass
class _Body:
    reader: Reader
    chapter_size: float
    section_size: float
    back: list[tuple[Line, list[Line]]] = field(default_factory=list)

    def open(self, start: NumberStart, line: Line, parent: str | None) -> None:
        at = Location(line=line.line, page=line.page)
        level = start.level
        number = (parent or "") + start.number if start.own else start.number
        draft = self.reader.open(number, parent, level, "", at)
        draft.highlighted = line.highlight
        draft.open("title" if level < 2 else "text", start.rest)

    def misplaced(self, start: NumberStart, line: Line, parent: str | None) -> None:
        if parent is None or not start.number.startswith(parent + "."):
            kind = ENGINE.numbering.levels[start.level].kind
            message = (
                f"{kind} {start.number} outside its {'chapter' if start.level == 1 else 'section'}"
            )
            self.reader.warnings.append(warn(WarningCode.MISPLACED, message, line.line, line.page))

    def heading(self, line: Line, start: NumberStart | None) -> bool:
        size, reader = line.size or 0.0, self.reader
        if start is not None and start.level == 0 and size >= self.chapter_size:
            self.open(start, line, None)
            if start.rest.strip().lower().startswith(BACK_MATTER_CHAPTER):
                self.back.append((line, []))
            return True
        if start is not None and start.level == 1 and size >= self.section_size:
            parent = reader.open_path[0]
            self.misplaced(start, line, parent)
            self.open(start, line, parent)
            return True
        if size >= self.chapter_size and self.back:
            # An unnumbered heading after the revision appendix (Acknowledgements).
            self.back.append((line, []))
            return True
        draft = reader.current
        if (
            draft is not None
            and draft.part == "title"
            and size >= self.section_size
            and not self.back
        ):
            draft.add(line.text)
            return True
        return False

    def item(self, line: Line, start: NumberStart | None) -> bool:
        x, reader = line.x0 if line.x0 is not None else 0.0, self.reader
        if start is not None and start.level == 2 and x < RULE_MAX_X:
            parent = reader.open_path[1]
            self.misplaced(start, line, parent)
            self.open(start, line, parent)
            return True
        if start is not None and start.level == 3 and x < SUBRULE_MAX_X:
            placed = reader.place(start)
            if placed is not None:
                self.open(start, line, placed[1])
                return True
        draft = reader.current
        if draft is None:
            return False
        if not draft.label(ENGINE.labels, SCHEME, line.text):
            if not LIST_ITEM_RE.match(line.text):
                return False
            draft.open("bullets", line.text)
        draft.mark(line.highlight)
        return True

    def feed(self, line: Line) -> None:
        start = ENGINE.numbering.match_start(line.text)
        if self.heading(line, start):
            return
        if self.back:
            self.back[-1][1].append(line)
            return
        if self.item(line, start):
            return
        draft = self.reader.current
        if draft is None:
            message = f"text before any heading: {line.text[:60]!r}"
            self.reader.warnings.append(
                warn(WarningCode.UNPLACED_TEXT, message, line.line, line.page)
            )
            return
        if draft.part == "title":
            draft.open("text")  # the first body line after a heading is the section's own prose
        draft.add(line.text)
        draft.mark(line.highlight)


def _find_body_start(lines: list[Line], chapter_size: float) -> int | None:
    """Index of the first chapter heading after the table of contents heading."""
    toc = next(
        (
            i
            for i, ln in enumerate(lines)
            if ln.text.strip().lower() == "table of contents" and (ln.size or 0) >= chapter_size
        ),
        None,
    )
    for index in range(0 if toc is None else toc + 1, len(lines)):
        start = ENGINE.numbering.match_start(lines[index].text)
        if (lines[index].size or 0) >= chapter_size and start is not None and start.level == 0:
            return index
    return None


def _back_matter(back: list[tuple[Line, list[Line]]]) -> list[Passage]:
    passages = []
    for heading, body in back:
        title = heading.text
        numbered = ENGINE.numbering.match_start(title)
        if (
            numbered is not None
            and numbered.level == 0
            and body
            and (body[0].bold or (body[0].size or 0) > (heading.size or 0) * 0.7)
        ):
            title, body = body[0].text, body[1:]
        blocks: list[list[str]] = []
        for line in body:
            if line.text.startswith(("●", "○", "•")) or not blocks:
                blocks.append([line.text])
            else:
                blocks[-1].append(line.text)
        text = "\n".join(join(block) for block in blocks if block)
        location = Location(line=heading.line, page=heading.page)
        passages.append(Passage(id=slugify(title), title=title, text=text, location=location))
    return passages


def parse(
    lines: list[Line],
    notes: dict[str, int] | None = None,
    options: ParseOptions | None = None,
    *,
    document: str = "netrunner/cr",
    rendition: str = "pdf",
    version: str | None = None,
) -> Document:
    """Parse the extracted lines of a Netrunner CR PDF into a Document."""
    options = options_of(options, document, rendition, version)
    document = options.document
    body = mode([line.size for line in lines if line.size is not None]) or 10.0
    chapter_size, section_size = body * CHAPTER_SCALE, body * SECTION_SCALE
    start = _find_body_start(lines, chapter_size)
    if start is None:
        raise ParseError(document, "no chapter heading found after the table of contents")
    toc = next(
        (i for i, ln in enumerate(lines[:start]) if ln.text.strip().lower() == "table of contents"),
        start,
    )
    parsed = Parsed(drafts=[], missing="page 1 states no 'This is version ... effective ...' line")
    preface = read_front(drop_page_numbers(lines[:toc]), section_size, ENGINE.references, parsed)
    read_statement(ENGINE, preface, parsed)
    reader = _Body(Reader(ENGINE), chapter_size, section_size)
    for line in drop_page_numbers(lines[start:]):
        reader.feed(line)
    parsed.drafts = reader.reader.drafts
    parsed.warnings += reader.reader.warnings
    parsed.back_matter = _back_matter(reader.back)
    finish = ENGINE.finish(FAMILY, PARSER_VERSION)
    doc = finish_document(parsed, finish, options, notes)
    doc.counts[CountKey.HIGHLIGHTED] = sum(1 for r in doc.records if r.highlighted)
    doc.counts[CountKey.PUBLISHER_CHANGES] = len(parsed.publisher_changes)
    return doc
