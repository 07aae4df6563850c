"""Magic's tournament policy (`mtg-policy`): the Tournament Rules (`mtr:3.9`) and the
Infraction Procedure Guide (`ipg:2.1`), Wizards' Word-made PDFs.

Both are outlines of two levels: chapters `1. Tournament Fundamentals` (set apart: larger
or bold) and their sections `1.1 Tournament Types` (MTR, no dot) or `2.1. Game Play Error
— Missed Trigger` (IPG). The engine's scheme numbers them; what is these documents' own:

- numbered steps inside a section (`1. If sideboarding is allowed, …`) have a chapter's
  shape: a chapter is only a number set apart that goes forward, and a section only one
  of the open chapter that goes forward and reads as a heading, so a step, a table cell or
  a wrapped line that starts with a number (`0.33 instead.`) stays text;
- the IPG prints each infraction's penalty on the heading's line at the right margin
  (`… Missed Trigger   No Penalty`): the contents (dot leaders) names the title, and what
  the heading adds after it is the penalty, kept as the record's first paragraph (a
  heading its contents entry does not begin is a `contents-mismatch` warning);
- unnumbered sub-blocks (`Definition`, `Philosophy`, `Additional Remedy`, `Upgrade: …`)
  are paragraphs of their section; `Examples` opens the lettered examples (`A. …`);
- the appendices (`Appendix A—Changes From Previous Versions`, as many as there are) are
  back matter, one passage each: the dates in a change log announce changes, they are
  not the document's date, which is the title page's `Effective May 13, 2024`;
- citations: `section 2.2` and `Tardiness (3.1)` cite the document itself; `MTR section
  4.3` and `section 5.2 of the Magic Tournament Rules` cite the Tournament Rules (`mtr:`),
  `rule 103.4c` the Comprehensive Rules (`cr:`), ids of the game's other documents;
- page furniture is the page numbers alone: a label at the top of two pages (`Examples`)
  is no running head.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.records import (
    CountKey,
    Document,
    Location,
    ParseOptions,
    Passage,
    WarningCode,
)
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.common import unique_slugs, unplaced, warn
from pipeline.parse.mtg.policy_layout import (
    GLYPH,
    ITEM,
    Paragraph,
    body_size,
    is_label,
    read_paragraphs,
)
from pipeline.parse.numbered.engine import Engine, is_title
from pipeline.parse.numbered.finish import Finish, Parsed, finish_document
from pipeline.parse.numbered.layout import drop_page_numbers
from pipeline.parse.numbered.numbers import NumberStart
from pipeline.parse.numbered.records import Draft, lines_span, paragraphs
from pipeline.parse.numbered.references import References
from pipeline.parse.numbered.statements import find_statement

FAMILY = "mtg-policy"
PARSER_VERSION = "1.0"
HEADING_STEP = 0.5  # points above the body's size that set a line apart
HEADING_WORDS = 14
# A contents entry: its number and title, dot leaders, the page (`2.1. Game Play Error —
# Missed Trigger ........ 7`, `1.11 Spectators ....8`).
CONTENTS = re.compile(r"^(?P<title>.*?\S)\s*(?:\.{4,}|…{2,})\s*\d+$")
CONTENTS_HEADINGS = ("contents", "table of contents")
UNLED = re.compile(r"^(?P<title>\D.*?\S)\s+\d+$")
BACK = re.compile(r"^appendix\b", re.IGNORECASE)
DASHES = re.compile(r"[\u2010-\u2015]")  # `Appendix A—Time Limits`: words on both sides
# Citations of the game's other documents, and the cited numbers in them.
OTHERS = {
    "mtr": r"Tournament Rules|MTR",
    "ipg": r"Infraction Procedure Guide|IPG",
}
CR_CITE = re.compile(
    r"\brules?\s+(?P<list>\d{3}(?:\.\d+[a-z]?)?(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
    r"\d{3}(?:\.\d+[a-z]?)?)*)",
    re.IGNORECASE,
)
CR_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
PAREN_CITE = re.compile(r"\((?P<n>\d+\.\d+)\)")
LEVELS = [
    LevelScheme(kind="chapter", dot="required", title="always"),
    LevelScheme(kind="section", dot="optional", title="always"),
]


def policy_scheme(prefix: str) -> NumberedScheme:
    return NumberedScheme(
        prefix=prefix,
        levels=LEVELS,
        example=["Example", "Examples"],
        note=[],
        bullets=["•"],
        keywords=["section"],
        statement_forms=["effective", "updated"],
        version_is_date=True,
        date_is="effective",
    )


def shape_of(options: ParseOptions) -> NumberedScheme:
    """The number shape of a tournament document, for the account of every number."""
    return options.scheme or policy_scheme(document_prefix(options))


def document_prefix(options: ParseOptions) -> str:
    """`mtr` or `ipg`: the registry's `prefix`, else the document id's last part."""
    return options.settings.get("prefix") or options.document.rsplit("/", 1)[-1]


class PolicyReferences(References):
    """The document's own citations, and those of the game's other documents (`mtr:`,
    `ipg:`, `cr:`), in the order they appear."""

    def __init__(self, scheme: NumberedScheme) -> None:
        super().__init__(scheme, Engine(scheme).numbering)
        section = r"\d+(?:\.\d+)?"
        self.others = [
            (prefix, re.compile(rf"\b(?:{words})\s+sections?\s+(?P<n>{section})"))
            for prefix, words in OTHERS.items()
        ] + [
            (
                prefix,
                re.compile(rf"\bsections?\s+(?P<n>{section})\s+of\s+the\s+[\w:. ]*?(?:{words})"),
            )
            for prefix, words in OTHERS.items()
        ]

    def cited(self, text: str, known: set[str] | None) -> Iterator[tuple[int, str]]:
        """(position, id) of each citation; another document's are blanked out before the
        document's own are looked for, so `MTR section 4.3` is never also `ipg:4.3`."""
        masked = text
        for prefix, pattern in self.others:
            for match in pattern.finditer(text):
                yield match.start(), f"{prefix}:{match.group('n')}"
                masked = masked[: match.start()] + " " * len(match.group(0)) + masked[match.end() :]
        for cite in CR_CITE.finditer(masked):
            for rule in CR_NUMBER.finditer(cite.group("list")):
                yield cite.start("list") + rule.start(), f"cr:{rule.group(0)}"
        for paren in PAREN_CITE.finditer(masked):
            yield paren.start(), f"{self.scheme.prefix}:{paren.group('n')}"
        yield from super().cited(masked, known)


def set_apart(paragraph: Paragraph, size: float) -> bool:
    return paragraph.bold or paragraph.size > size + HEADING_STEP


def read_contents(lines: list[Line], engine: Engine) -> tuple[dict[str, str], set[int]]:
    """The contents' titles by number, and the line numbers of its entries."""
    titles: dict[str, str] = {}
    used: set[int] = set()
    for index, line in enumerate(lines):
        match = CONTENTS.match(line.text.strip())
        # an entry whose title fills the line leaves no room for its leader (`Byes 49`)
        beside = {ln.line for ln in lines[max(index - 1, 0) : index + 2]} & used
        if match is None and beside and index + 1 < len(lines):
            following = CONTENTS.match(lines[index + 1].text.strip())
            match = UNLED.match(line.text.strip()) if following else None
        if match:
            used.add(line.line)
            start = engine.numbering.match_start(match.group("title"))
            if start is not None:
                titles[start.number] = start.rest.strip()
    # the contents' own heading, left alone once its entries are gone
    heading = [ln for ln in lines if ln.text.strip().lower() in CONTENTS_HEADINGS]
    used |= {ln.line for ln in heading[:1] if used and ln.line < min(used)}
    return titles, used


def forward(engine: Engine, number: str, last: str | None) -> bool:
    if last is None:
        return True
    numbering = engine.numbering
    return numbering.order_key(number) > numbering.order_key(last)


class PolicyReader:
    """Paragraphs of the body -> drafts of chapters and sections."""

    def __init__(self, engine: Engine, size: float, contents: dict[str, str]) -> None:
        self.engine, self.size, self.contents = engine, size, contents
        self.parsed = Parsed(drafts=[])
        self.chapter: str | None = None
        self.section: str | None = None
        self.examples = False

    def heading(self, paragraph: Paragraph) -> NumberStart | None:
        start = self.engine.numbering.match_start(paragraph.text)
        if start is None or not is_title(start.rest, HEADING_WORDS):
            return None
        if start.level == 0:
            ok = set_apart(paragraph, self.size) and forward(
                self.engine, start.number, self.chapter
            )
            return start if ok else None
        parent = self.engine.numbering.parent_of(start.number)
        if parent is None or parent != self.chapter:
            return None
        return start if forward(self.engine, start.number, self.section) else None

    def feed(self, paragraph: Paragraph) -> None:
        at = paragraph.location
        start = self.heading(paragraph)
        if start is not None:
            parent = self.engine.numbering.parent_of(start.number)
            title, penalty = self.split_penalty(start, at)
            draft = Draft(start.number, LEVELS[start.level].kind, parent, at, title=[title])
            if penalty:
                draft.text.append(penalty)
            self.parsed.drafts.append(draft)
            self.examples = False
            if start.level == 0:
                self.chapter, self.section = start.number, None
            else:
                self.section = start.number
            return
        if not self.parsed.drafts:
            self.parsed.warnings.append(unplaced(paragraph.text, at))
            return
        self.continue_draft(self.parsed.drafts[-1], paragraph)

    def split_penalty(self, start: NumberStart, at: Location) -> tuple[str, str]:
        """(title, penalty): what the heading prints after the contents' title is the penalty.
        A heading the contents does not list as printed is a warning: its title may hold
        more than the title."""
        rest, listed = start.rest.strip(), self.contents.get(start.number)
        if listed and len(rest) > len(listed) and rest.lower().startswith(listed.lower()):
            cut = len(listed)
            if not rest[cut].isalnum() or not rest[cut - 1].isalnum():
                return rest[:cut].strip(), rest[cut:].strip()
        if self.contents and (listed is None or listed.lower() != rest.lower()):
            message = f"{start.number} {rest!r} is not the contents' entry {listed!r}"
            self.parsed.warnings.append(warn(WarningCode.CONTENTS_MISMATCH, message, at))
        return rest, ""

    def continue_draft(self, draft: Draft, paragraph: Paragraph) -> None:
        text, at = paragraph.text, paragraph.location
        label = text.rstrip(":").strip()
        if len(paragraph.lines) == 1 and label in self.engine.scheme.example:
            self.examples = True
            return
        if self.examples and ITEM.match(text):
            draft.open("examples", text, at)
            return
        self.examples = False
        if draft.label(self.engine.labels, text, at):
            return
        if paragraph.bullet:
            draft.open("bullets", GLYPH.sub("", text), at)
        elif is_label(paragraph.first) or draft.part != "text":
            draft.open("text", text, at)
        else:
            draft.add(text, at)


def sections_of(
    blocks: list[Paragraph], size: float, first: str, titled: re.Pattern[str] | None = None
) -> list[Passage]:
    """Passages of front or back matter, one per heading set apart (and matching `titled`,
    when given); `first`: the id of what stands before any heading."""
    out: list[tuple[str, list[Paragraph]]] = []
    for paragraph in blocks:
        short = len(paragraph.lines) == 1 and is_title(paragraph.text, HEADING_WORDS)
        named = titled is None or titled.match(paragraph.text) is not None
        if short and named and set_apart(paragraph, size) and paragraph.text.strip():
            out.append((paragraph.text.strip(), [paragraph]))
        elif out:
            out[-1][1].append(paragraph)
        else:
            out.append(("", [paragraph]))
    passages = []
    slugs = unique_slugs(DASHES.sub(" ", title) if title else first for title, _ in out)
    for ident, (title, group) in zip(slugs, out, strict=True):
        body = group[1:] if title else group
        lines = [line for p in group for line in p.lines]
        text = paragraphs([p.text for p in body])
        passages.append(
            Passage(id=ident, title=title or "Preface", text=text, location=lines_span(lines))
        )
    return passages


def parse(lines: list[Line], notes: dict[str, int], options: ParseOptions) -> Document:
    """A Tournament Rules or Infraction Procedure Guide PDF -> Document (`<prefix>:<number>`)."""
    document = options.document
    if options.rendition != "pdf":
        raise ParseError(document, f"mtg-policy reads the PDF, not {options.rendition!r}")
    scheme = shape_of(options)
    engine = Engine(scheme)
    written = [line for line in lines if line.text.strip()]
    if not written:
        raise ParseError(document, "no text in it (a PDF of scanned pages needs OCR first)")
    # Only page numbers: a label at the top of two pages (`Examples`) is no running head.
    body = drop_page_numbers(written)
    contents, listed = read_contents(body, engine)
    size = body_size(body)
    blocks = read_paragraphs(
        [line for line in body if line.line not in listed], opens_heading(engine)
    )
    reader = PolicyReader(engine, size, contents)
    start = next((i for i, p in enumerate(blocks) if reader.heading(p)), None)
    if start is None:
        problem = "no chapter heading (`1. Tournament Fundamentals`, set apart) found"
        raise ParseError(document, problem)
    stop = next(
        (
            i
            for i in range(start, len(blocks))
            if set_apart(blocks[i], size) and BACK.match(blocks[i].text)
        ),
        len(blocks),
    )
    front = [line for p in blocks[:start] for line in p.lines]
    parsed = read_front(engine, front, size)
    for paragraph in blocks[start:stop]:
        reader.feed(paragraph)
    parsed.drafts, parsed.warnings = reader.parsed.drafts, parsed.warnings + reader.parsed.warnings
    parsed.back_matter = sections_of(blocks[stop:], size, "back-matter", BACK)
    parsed.counts[CountKey.CONTENTS] = len(listed)
    parsed.counts[CountKey.FURNITURE] = len(written) - len(body)
    finish = Finish(FAMILY, PARSER_VERSION, PolicyReferences(scheme), paragraphs, order_from=0)
    return finish_document(parsed, finish, options, notes)


def opens_heading(engine: Engine) -> Callable[[str], bool]:
    """A line that may be a heading of the outline opens a paragraph, wherever it stands."""

    def opens(text: str) -> bool:
        start = engine.numbering.match_start(text)
        return start is not None and is_title(start.rest, HEADING_WORDS)

    return opens


def read_front(engine: Engine, front: list[Line], size: float) -> Parsed:
    """Title (the largest line of the first page), the effective date, the introduction."""
    parsed = Parsed(drafts=[], missing="the title page states no date (`Effective May 13, 2024`)")
    if not front:
        return parsed
    first_page = [line for line in front if line.page == front[0].page]
    title = max(first_page, key=lambda line: line.size or 0.0)
    parsed.title = title.text.strip()
    found = find_statement(front, engine.statements)
    stated = {line.line for line in found.lines} if found is not None else set()
    if found is not None:
        parsed.stated = parsed.effective = found.date
        if found.date is None:
            message = f"cannot read the date in {found.date_text!r}"
            at = found.lines[0]
            parsed.warnings.append(warn(WarningCode.BAD_DATE, message, at.line, at.page))
    rest = [line for line in front if line.line not in stated and line.line != title.line]
    parsed.front_matter = sections_of(read_paragraphs(rest, opens_heading(engine)), size, "preface")
    return parsed
