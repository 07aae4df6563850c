"""Documents of titled sections (family `headed-sections`): policy PDFs with no numbers.

NISEI's Organized Play Policies and LSS's Casual Procedure Guide address their
parts by headings, not numbers. Each heading is a record whose id is `sec:` plus
the slug of the heading's own text (`sec:player-expectations`,
`sec:a-player-forgets-a-triggered-effect`); nothing is numbered that the
publisher did not number. Everything is learnt from the page, not fixed to one
typesetting:

- the body is the most common font size; its left margin the most common x;
- headings set larger than the body rank by size (18 pt above 14 pt);
- a heading set in the body size is a line at the margin that opens a paragraph,
  ends without punctuation, is markedly shorter than a full line (a bold one may
  say more) and is followed by text; where the document sets such lines in bold
  (NISEI), only bold ones are headings (so `Resolution`, a regular-weight label,
  stays text), and where it sets none in bold (LSS's Medium weight is not
  reported as bold) the shape alone decides. These rank below every larger heading;
- a section's parent is the nearest heading before it of a higher rank, and
  `depth` follows from it;
- a section's text is its paragraphs, one per line, wrapped lines rejoined: a
  paragraph opens after a vertical gap, at a list glyph, or at a line that does
  not continue the previous one's indentation (table rows);
- the page number at the foot of each page (`-3-`, `ii`) is dropped;
- the title is the first page's largest line; version and date are the
  sentences of the first page that state them (`Version 1.3`, `Revised October
  2020.`, `Last updated 13 October 2023`); a month without a day is kept as
  `YYYY-MM`; a document that states no version is versioned by its full date;
- the text before the first heading is the preface (front matter).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions, Passage, WarningCode
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.common import baseline, leading, slugify, warn
from pipeline.parse.numbered.engine import SENTENCE_END, Engine
from pipeline.parse.numbered.finish import Finish, Parsed, finish_document
from pipeline.parse.numbered.layout import mode, runs, wrap_joiner
from pipeline.parse.numbered.records import Draft, line_at, lines_span, paragraphs
from pipeline.parse.numbered.statements import compile_statement, read_date

FAMILY = "headed-sections"
PARSER_VERSION = "1.0"
PREFIX = "sec"
STATEMENTS = ["Version {version}", "Revised {date}", "Last updated {date}", "Updated {date}"]
GLYPHS = ("●", "○", "■", "•", "▪", "◦", "-")
# A symbol font's bullet (Wingdings' U+F0F1) extracts as a private-use character.
PRIVATE_USE = re.compile("^[\ue000-\uf8ff]")
HEADING_STEP = 0.5  # points above the body size that make a heading
GAP_FACTOR = 1.3  # a vertical step this many times the leading is a paragraph gap
SHORT_FACTOR = 0.7  # a body-size heading is shorter than this share of a full line
FULL_FACTOR = 0.6  # a line shorter than this share of a full line ends its paragraph
MAX_HEADING_WORDS = 12
# A bold line may say more: Judging at Regular REL heads each issue with a sentence's worth
# (`A player sees a card in a library that he or she shouldn’t have seen`, 14 words).
MAX_BOLD_HEADING_WORDS = 16
BOLD_SHORT_FACTOR = 0.85
INDENT_TOLERANCE = 1.5
LIST_LABEL_RE = re.compile(r"^(?:\d+|[a-z]|[ivxlc]+)[.)]\s")  # `1. Warning.`, `ii. Competitive`
PAGE_NUMBER_RE = re.compile(r"^-?\s*(?:\d{1,4}|[ivxlc]{1,7})\s*-?$", re.IGNORECASE)
MONTH_YEAR_RE = re.compile(r"^([A-Za-z]+)\.?\s+(\d{4})$")
KINDS = ("section", "subsection", "subsubsection")
# Sections cite nothing by number: the engine's finishing step with a scheme that finds none.
SCHEME = NumberedScheme(
    prefix=PREFIX, levels=[LevelScheme(kind="section")], keywords=[], wraps="paragraphs"
)


def read_month_or_date(text: str) -> str | None:
    """`13 October 2023` -> `2023-10-13`; `October 2020` -> `2020-10`; else None."""
    full = read_date(text)
    if full is not None:
        return full
    match = MONTH_YEAR_RE.match(" ".join(text.strip().rstrip(".").split()))
    # the engine's one month table, through a day that cannot be wrong
    month = read_date(f"1 {match.group(1)} {match.group(2)}") if match else None
    return month[:7] if month else None


def drop_page_numbers(lines: list[Line]) -> tuple[list[Line], int]:
    """The last line of a page when it is only a page number (`-3-`, `12`, `ii`)."""
    last: dict[int | None, Line] = {}
    for line in lines:
        last[line.page] = line
    dropped = {id(ln) for ln in last.values() if PAGE_NUMBER_RE.match(ln.text.strip())}
    return [ln for ln in lines if id(ln) not in dropped], len(dropped)


@dataclass
class Page:
    """What the document's own lines say about its typesetting."""

    body: float  # the body font size
    margin: float  # the left margin of body text
    leading: float  # the usual step between baselines
    full: float  # the length, in characters, of a full line

    def is_body(self, line: Line) -> bool:
        return abs((line.size or 0.0) - self.body) <= HEADING_STEP

    def is_large(self, line: Line) -> bool:
        return (line.size or 0.0) > self.body + HEADING_STEP

    def gap(self, previous: Line | None, line: Line) -> bool:
        if previous is None or previous.page != line.page:
            return True
        return baseline(line) - baseline(previous) > GAP_FACTOR * self.leading


def learn_page(lines: list[Line]) -> Page:
    body = mode([round(ln.size or 0.0, 1) for ln in lines]) or 0.0
    texts = [ln for ln in lines if abs((ln.size or 0.0) - body) <= HEADING_STEP]
    margin = mode([round(ln.x0 or 0.0, 1) for ln in texts]) or 0.0
    lengths = sorted(
        len(a.text)
        for a, b in itertools.pairwise(texts)
        if a.page == b.page and abs((a.x0 or 0.0) - (b.x0 or 0.0)) <= INDENT_TOLERANCE
    )
    full = lengths[len(lengths) * 3 // 4] if lengths else 80.0
    return Page(body, margin, leading(texts) or body * 1.2, float(full))


def opens_paragraph(previous: Line | None, line: Line, page: Page) -> bool:
    """The line starts a paragraph: the first, after a vertical gap or a finished sentence,
    or at the top of a page where the line before sat at another indentation (a table)."""
    if previous is None or previous.text.strip().endswith(SENTENCE_END):
        return True
    if previous.page != line.page:
        return abs((previous.x0 or 0.0) - (line.x0 or 0.0)) > INDENT_TOLERANCE
    return page.gap(previous, line)


def body_heading_candidates(lines: list[Line], page: Page) -> list[int]:
    """Indexes of body-size lines shaped like headings (see the module docstring)."""
    found: list[int] = []
    for index, line in enumerate(lines):
        text = line.text.strip()
        previous = lines[index - 1] if index else None
        if (
            page.is_body(line)
            and abs((line.x0 or 0.0) - page.margin) <= INDENT_TOLERANCE
            and opens_paragraph(previous, line, page)
            and index + 1 < len(lines)
            and not is_item(text)
            and not text.endswith(SENTENCE_END)
            and len(text.split()) <= (MAX_BOLD_HEADING_WORDS if line.bold else MAX_HEADING_WORDS)
            and len(text) < (BOLD_SHORT_FACTOR if line.bold else SHORT_FACTOR) * page.full
        ):
            found.append(index)
    bold = [i for i in found if lines[i].bold]
    return bold if bold else found


def read_statements(lines: list[Line], parsed: Parsed) -> set[int]:
    """Version and date from the sentences of the first page; the line numbers used."""
    patterns = [compile_statement(s) for s in STATEMENTS]
    first = lines[0].page if lines else None
    used: set[int] = set()
    dates: list[tuple[str, Line]] = []
    for line in (ln for ln in lines if ln.page == first):
        for sentence in re.split(r"(?<=\.)\s+", line.text.strip()):
            for pattern in patterns:
                match = pattern.fullmatch(sentence.strip())
                if match is None:
                    continue
                groups = match.groupdict()
                if groups.get("version") and parsed.stated is None:
                    parsed.stated = groups["version"]
                    used.add(line.line)
                if groups.get("date") and not dates:
                    dates.append((groups["date"], line))
                    used.add(line.line)
    if dates:
        text, line = dates[0]
        parsed.published = read_month_or_date(text)
        if parsed.published is None:
            message = f"cannot read the date in {text!r}"
            parsed.warnings.append(warn(WarningCode.BAD_DATE, message, line.line, line.page))
        elif parsed.stated is None and len(parsed.published) == len("2023-10-13"):
            parsed.stated = parsed.published  # no version stated: the document is its date
    parsed.missing = "the first page states no version (`Version 1.3`) and no full date"
    return used


def is_item(text: str) -> bool:
    """A list item: a glyph (`●`, `○`) or a label (`1.`, `ii.`) opens it."""
    glyph = text.startswith(GLYPHS) or PRIVATE_USE.match(text) is not None
    return glyph or LIST_LABEL_RE.match(text) is not None


def paragraphs_of(lines: list[Line], page: Page) -> list[str]:
    """Lines -> paragraphs: a gap, a list item, a break in the indentation or a short line
    before (table rows) opens one; a list item's wrapped lines hang right of its first."""
    join = wrap_joiner("glued")

    def opens(line: Line, paragraph: list[Line]) -> bool:
        first, previous = paragraph[0], paragraph[-1]
        x = line.x0 or 0.0
        continues = (
            not is_item(line.text.strip())
            and not (page.gap(previous, line) and previous.page == line.page)
            and not (previous.page != line.page and previous.text.endswith(SENTENCE_END))
            and len(previous.text) >= FULL_FACTOR * page.full  # a short line ends its paragraph
            and (
                abs(x - (previous.x0 or 0.0)) <= INDENT_TOLERANCE
                or (previous is first and is_item(first.text.strip()) and x > (first.x0 or 0.0))
            )
        )
        return not continues

    return [join([line.text.strip() for line in p]) for p in runs(lines, opens)]


def parse(lines: list[Line], notes: dict[str, int], options: ParseOptions) -> Document:
    """A PDF of titled sections -> one record per heading, `sec:` + the heading's slug."""
    if options.rendition != "pdf":
        raise ParseError(options.document, f"{FAMILY} reads PDFs, not {options.rendition!r}")
    lines, page_numbers = drop_page_numbers([ln for ln in lines if ln.text.strip()])
    if not lines:
        raise ParseError(options.document, "the PDF holds no text")
    parsed = Parsed(drafts=[])
    first_page = [ln for ln in lines if ln.page == lines[0].page]
    title = max(first_page, key=lambda ln: ln.size or 0.0)
    parsed.title = title.text.strip()
    used = read_statements(lines, parsed) | {title.line}
    lines = [ln for ln in lines if ln.line not in used]
    page = learn_page(lines)
    ranks = sorted({round(ln.size or 0.0, 1) for ln in lines if page.is_large(ln)}, reverse=True)
    headings = {
        i: ranks.index(round(ln.size or 0.0, 1)) for i, ln in enumerate(lines) if page.is_large(ln)
    }
    headings |= {i: len(ranks) for i in body_heading_candidates(lines, page)}
    if not headings:
        raise ParseError(options.document, "no headings found (larger or bold lines at the margin)")
    read_sections(lines, sorted(headings.items()), page, parsed)
    finish = Finish(FAMILY, PARSER_VERSION, Engine(SCHEME).references, paragraphs)
    extraction = dict(notes or {}) | {"page_numbers_dropped": page_numbers}
    return finish_document(parsed, finish, options, extraction)


def read_sections(
    lines: list[Line], headings: list[tuple[int, int]], page: Page, parsed: Parsed
) -> None:
    """One draft per heading: its parent the nearest higher-ranked heading before it."""
    first = headings[0][0]
    if first:
        front = lines[:first]
        at = lines_span(front)
        text = "\n".join(paragraphs_of(front, page))
        parsed.front_matter.append(Passage(id="preface", title="Preface", text=text, location=at))
    open_path: list[tuple[int, str]] = []  # (rank, slug) of the open headings
    for position, (index, rank) in enumerate(headings):
        end = headings[position + 1][0] if position + 1 < len(headings) else len(lines)
        heading = lines[index]
        while open_path and open_path[-1][0] >= rank:
            open_path.pop()
        slug = slugify(heading.text.strip())
        parent = open_path[-1][1] if open_path else None
        kind = KINDS[min(len(open_path), len(KINDS) - 1)]
        draft = Draft(slug, kind, parent, line_at(heading))
        draft.title = [heading.text.strip()]
        draft.text = paragraphs_of(lines[index + 1 : end], page)
        draft.feed(line_at(lines[end - 1]))  # the section's text runs to the next heading
        parsed.drafts.append(draft)
        open_path.append((rank, slug))
