"""Netrunner Comprehensive Rules (NISEI / Null Signal Games PDFs) -> records.

Layout of the PDFs, as pdfplumber lines: page 1 (and 2-3) holds the title, a
preface with `This is version 1.4 of this document, effective 20 December
2019.` and the "Summary of Changes" bullets; then a two-column table of
contents the parser skips (the body starts at the first chapter heading in the
chapter font after it); chapters `1. Game Concepts` and sections `1.2. The
Golden Rules` set in larger fonts, rules `1.2.3. text` in the body font,
lettered subrules `a. text` indented under a rule with their wrapped lines
indented further; a rule printed as a heading (`4.4.8. HQ`, `3.6.5. Regions`: a
short line that is no sentence) has it as its title, and the paragraph set under
it (`HQ stands for …`) as its text, as Null Signal Games' source gives the same
rules; `Example:` / `Example 2:` paragraphs; `1)`, `a)`, `i)` list
items (the timing appendix) as bullets; "Appendix: Previous Revision" and
"Acknowledgements" as back matter. Ids: `cr:1`, `cr:1.2`, `cr:1.2.3`,
`cr:1.2.3a`. Netrunner's own: the font-size headings, the indentation that
tells a subrule from a wrapped line, the Summary of Changes.
"""

from __future__ import annotations

import re

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.records import (
    Document,
    ParseOptions,
    Passage,
    PublisherChange,
    WarningCode,
)
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.common import slugify, unplaced, warn
from pipeline.parse.numbered.engine import Engine, Reader, is_title, read_statement
from pipeline.parse.numbered.finish import Parsed, finish_document
from pipeline.parse.numbered.layout import drop_page_numbers, mode, runs, wrap_joiner
from pipeline.parse.numbered.numbers import NumberStart
from pipeline.parse.numbered.records import line_at, lines_span

FAMILY = "netrunner-cr"
PARSER_VERSION = "2.0"
SCHEME = NumberedScheme(
    levels=[
        LevelScheme(kind="chapter", dot="required", title="always"),
        LevelScheme(kind="section", dot="required", title="always"),
        LevelScheme(kind="rule", dot="required"),
        LevelScheme(kind="subrule", segment="letter", join="", printed="own", dot="required"),
    ],
    note=[], keywords=["rule", "section", "step"], letters=True, date_is="effective",
    statements=["This is version {version} of this document, effective {date}."],
)  # fmt: skip
ENGINE = Engine(SCHEME)
join = wrap_joiner("glued")
LIST_ITEM_RE = re.compile(r"^(?:\d+|[a-z]|[ivx]+)\)\s+\S")
BULLET_RE = re.compile(r"^[●•○]\s*(?P<text>.*)$")
# In 1.1-1.4 rule numbers sit at 83-99 pt, lettered subrules and wrapped rule text at the
# item indent (144 pt), a subrule's wrapped lines at 168 pt, so a wrapped line that happens
# to begin "a. " opens no subrule. A next edition may set them elsewhere: the limits are
# measured per document (`indent_limits`), these are used only when nothing is measurable.
SUBRULE_MAX_X = 156.0
RULE_MAX_X = 120.0
# Heading fonts relative to the body font (10.99 pt): chapters 20 pt, sections 16 pt.
CHAPTER_SCALE, SECTION_SCALE = 1.7, 1.35
BACK_MATTER_CHAPTER = "appendix: previous revision"


def is_chapter(line: Line, chapter_size: float) -> bool:
    """A chapter heading: a chapter number set in the chapter font."""
    return ENGINE.kind_of(line.text) == "chapter" and (line.size or 0) >= chapter_size


def indent_limits(lines: list[Line]) -> tuple[float, float]:
    """(rightmost x of a rule number, of a subrule label), measured from the document: half
    way from the rules' usual x to the subrules', and from the subrules' to their wraps'."""
    rules: list[float] = []
    subrules: list[float] = []
    wraps: list[float] = []
    after_subrule = False
    for line in lines:
        start = ENGINE.numbering.match_start(line.text)
        x = float(round(line.x0 or 0.0))
        if start is not None and start.level == 2:
            rules.append(x)
        elif start is not None and start.level == 3:
            subrules.append(x)
        elif after_subrule:
            wraps.append(x)
        after_subrule = start is not None and start.level == 3
    rule_x, subrule_x, wrap_x = mode(rules), mode(subrules), mode(wraps)
    if rule_x is None or subrule_x is None or wrap_x is None or not rule_x < subrule_x < wrap_x:
        return RULE_MAX_X, SUBRULE_MAX_X
    return (rule_x + subrule_x) / 2, (subrule_x + wrap_x) / 2


class _Reader(Reader):
    def __init__(
        self, chapter_size: float, section_size: float, limits: tuple[float, float]
    ) -> None:
        super().__init__(ENGINE)
        self.chapter_size, self.section_size = chapter_size, section_size
        self.rule_max_x, self.subrule_max_x = limits
        self.back: list[tuple[Line, list[Line]]] = []

    def open_at(self, start: NumberStart, line: Line, parent: str | None) -> None:
        level = start.level
        if level in (1, 2) and (parent is None or not start.number.startswith(parent + ".")):
            kind, above = SCHEME.levels[level].kind, SCHEME.levels[level - 1].kind
            message = f"{kind} {start.number} outside its {above}"
            self.warnings.append(warn(WarningCode.MISPLACED, message, line.line, line.page))
        number = (parent or "") + start.number if start.own else start.number
        draft = self.open(number, parent, level, "", line_at(line))
        draft.highlighted = line.highlight
        # A rule whose line holds only a heading (`4.4.8. HQ`) is headed by it: its title.
        headed = level < 2 or (level == 2 and is_title(start.rest.strip()))
        draft.open("title" if headed else "text", start.rest)

    def feed_line(self, line: Line) -> None:
        start = ENGINE.numbering.match_start(line.text)
        level = start.level if start is not None else None
        size, x, draft = line.size or 0.0, line.x0 or 0.0, self.current
        if start is not None and level == 0 and size >= self.chapter_size:
            self.open_at(start, line, None)
            if start.rest.strip().lower().startswith(BACK_MATTER_CHAPTER):
                self.back.append((line, []))
        elif start is not None and level == 1 and size >= self.section_size:
            self.open_at(start, line, self.open_path[0])
        elif size >= self.chapter_size and self.back:
            self.back.append((line, []))  # an unnumbered heading after the appendix
        elif draft and draft.part == "title" and size >= self.section_size and not self.back:
            draft.add(line.text, line_at(line))  # a two-line heading
        elif self.back:
            self.back[-1][1].append(line)
        elif start is not None and level == 2 and x < self.rule_max_x:
            self.open_at(start, line, self.open_path[1])
        elif (
            start is not None
            and level == 3
            and x < self.subrule_max_x
            and (at := self.place(start))
        ):
            self.open_at(start, line, at[1])
        elif draft is None:
            self.warnings.append(unplaced(line.text, line_at(line)))
        else:
            here = line_at(line)
            if not draft.label(ENGINE.labels, line.text, here):
                if LIST_ITEM_RE.match(line.text):
                    draft.open("bullets", line.text, here)
                else:
                    if draft.part == "title" and draft.kind == "rule" and x >= self.rule_max_x:
                        # a short first line that wraps at the rule's hanging indent was
                        # the start of a sentence, not a heading
                        draft.text, draft.title = draft.title, []
                    if draft.part == "title":
                        draft.open("text")  # the first body line after a heading: its prose
                    draft.add(line.text, here)
            draft.mark(line.highlight)


def paragraphs_of(lines: list[Line]) -> list[tuple[str, str]]:
    """The lines before the first bullet, then each bullet, each joined with its wrapped
    lines: (the bullet's glyph, or "" before the first, its text)."""
    out = []
    for first, *wraps in runs(lines, lambda line, _: BULLET_RE.match(line.text) is not None):
        bullet = BULLET_RE.match(first.text)
        texts = [bullet.group("text") if bullet else first.text, *(ln.text for ln in wraps)]
        out.append((first.text[0] if bullet else "", join(texts)))
    return out


def passage(ident: str, title: str, body: list[Line], heading: Line | None = None) -> Passage:
    texts = [f"{glyph} {text}" if glyph else text for glyph, text in paragraphs_of(body)]
    location = lines_span([heading, *body] if heading is not None else body)
    return Passage(id=ident, title=title, text="\n".join(t for t in texts if t), location=location)


def read_front(lines: list[Line], heading_size: float, parsed: Parsed) -> list[Line]:
    """Title, passages and the Summary of Changes into `parsed`; the preface lines.

    Headings split the pages before the contents into blocks: the first is the title and
    preface, "Summary of Changes" holds the publisher's change list, any other heading
    ("Summary from 1.0") is kept as a passage."""
    parsed.title = lines[0].text if lines else None
    heading = lambda line, _: line.size is not None and line.size >= heading_size  # noqa: E731
    first, *headed = runs(lines, heading) or [[]]
    preface = first[1:]
    for title, *body in headed:
        if title.text.strip().lower() == "summary of changes":
            for text in (text for glyph, text in paragraphs_of(body) if glyph):
                cites = ENGINE.references.find(text)
                parsed.publisher_changes.append(PublisherChange(text=text, cites=cites))
    parsed.front_matter = [passage("preface", "Preface", preface)] if preface else []
    parsed.front_matter += [passage(slugify(h.text), h.text, body, h) for h, *body in headed]
    return preface


def _back_matter(back: list[tuple[Line, list[Line]]]) -> list[Passage]:
    passages = []
    for heading, body in back:
        if ENGINE.kind_of(heading.text) == "chapter" and body and (
            body[0].bold or (body[0].size or 0) > (heading.size or 0) * 0.7
        ):  # fmt: skip
            # the numbered heading is the chapter record's; the passage is headed by its own
            heading, body = body[0], body[1:]
        passages.append(passage(slugify(heading.text), heading.text, body, heading))
    return passages


def parse(lines: list[Line], notes: dict[str, int], options: ParseOptions) -> Document:
    """Parse the extracted lines of a Netrunner CR PDF into a Document."""
    body = mode([line.size for line in lines if line.size is not None]) or 10.0
    chapter_size, section_size = body * CHAPTER_SCALE, body * SECTION_SCALE
    heads = [i for i, ln in enumerate(lines) if ln.text.strip().lower() == "table of contents"]
    toc = next((i for i in heads if (lines[i].size or 0) >= chapter_size), None)
    after = range(0 if toc is None else toc + 1, len(lines))
    start = next((i for i in after if is_chapter(lines[i], chapter_size)), None)
    if start is None:
        raise ParseError(options.document, "no chapter heading found after the table of contents")
    parsed = Parsed(drafts=[], missing="page 1 states no 'This is version ... effective ...' line")
    front_end = next((i for i in heads if i < start), start)
    preface = read_front(drop_page_numbers(lines[:front_end]), section_size, parsed)
    read_statement(ENGINE, preface, parsed)
    body_lines = drop_page_numbers(lines[start:])
    reader = _Reader(chapter_size, section_size, indent_limits(body_lines))
    for line in body_lines:
        reader.feed_line(line)
    parsed.drafts, parsed.back_matter = reader.drafts, _back_matter(reader.back)
    parsed.warnings += reader.warnings
    parsed.counts["highlighted"] = sum(1 for d in reader.drafts if d.highlighted)
    parsed.counts["publisher_changes"] = len(parsed.publisher_changes)
    return finish_document(parsed, ENGINE.finish(FAMILY, PARSER_VERSION), options, notes)
