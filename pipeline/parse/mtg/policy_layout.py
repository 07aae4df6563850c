"""The page of Wizards' policy PDFs (Tournament Rules, Infraction Procedure Guide) as paragraphs.

Word sets these documents with one left margin for a whole paragraph, so indentation
does not tell a paragraph from its wraps; the vertical gap does (a paragraph is
followed by about twice the leading). Beside the gap, a paragraph opens at a list
glyph (`•`) at the item's indentation, at a numbered or lettered item (`1.`, `A.`)
that follows a finished sentence there (`… then use` / `0.33 instead.` is a wrap),
at a line that may be a heading of the outline, at a change of size as large as a
heading's, and after a label that stands alone on its line (`Definition`,
`Examples`). A paragraph goes on over a page break unless the page ended it (a
finished sentence on a short line) or the next page opens a list item. Everything is
learnt from the page: the body's size, its leading and the length of a full line.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.models.content import Line
from pipeline.models.records import Location
from pipeline.parse.numbered.layout import build_vocabulary, join_vocabulary, mode, runs

# A list item: a glyph (U+2022, or a private-use glyph of a symbol font), or a number or
# capital letter with a dot (`1. If sideboarding …`, `A. Knight of Infamy …`).
ITEM = re.compile(r"^(?:[•\ue000-\uf8ff]\s*|(?:\d{1,2}|[A-Z])\.\s+\S)")
GLYPH = re.compile(r"^[•\ue000-\uf8ff]\s*")
STOPS = (".", ":", ";", "?", "!", "”", '"', ")", "’")
GAP = 1.4  # a step this many times the leading opens a paragraph
FULL = 0.8  # a line this share of the longest one is full: its sentence may go on
LABEL_WORDS = 4
TOLERANCE = 1.5
SIZE_STEP = 2.0  # a heading's size; a list glyph's smaller run does not count


@dataclass
class Paragraph:
    """Lines read as one paragraph: their text with wraps rejoined, and how it was set."""

    lines: list[Line]
    text: str
    size: float
    bold: bool

    @property
    def first(self) -> Line:
        return self.lines[0]

    @property
    def location(self) -> Location:
        first, last = self.lines[0], self.lines[-1]
        if last.line == first.line:
            return Location(line=first.line, page=first.page)
        return Location(line=first.line, page=first.page, end_line=last.line, end_page=last.page)

    @property
    def bullet(self) -> bool:
        return GLYPH.match(self.text) is not None


def is_label(line: Line) -> bool:
    """A bold word or two alone on a line, no sentence (`Definition`, `Additional Remedy`)."""
    text = line.text.strip()
    return line.bold and len(text.split()) <= LABEL_WORDS and not text.endswith(STOPS)


def body_size(lines: list[Line]) -> float:
    return mode([ln.size for ln in lines if ln.size]) or 0.0


def leading(lines: list[Line]) -> float:
    """The most common step from one line to the next on a page."""
    steps = [
        round((b.top - a.top) * 2) / 2
        for a, b in itertools.pairwise(lines)
        if a.page == b.page and a.top is not None and b.top is not None and b.top > a.top
    ]
    return mode(steps) or 0.0


def read_paragraphs(lines: list[Line], heading: Callable[[str], bool]) -> list[Paragraph]:
    """The body lines (furniture already dropped) as paragraphs, in reading order; a line
    `heading` claims always opens one."""
    if not lines:
        return []
    step = leading(lines)
    full = FULL * max(len(ln.text.strip()) for ln in lines)
    vocabulary = build_vocabulary(lines)

    def opens(line: Line, paragraph: list[Line]) -> bool:
        prev = paragraph[-1]
        text, before = line.text.strip(), prev.text.strip()
        if heading(text) or (len(paragraph) == 1 and is_label(prev)):
            return True
        if abs((line.size or 0) - (prev.size or 0)) >= SIZE_STEP:
            return True
        item = ITEM.match(text) is not None and (line.x0 or 0) <= (prev.x0 or 0) + TOLERANCE
        # a glyph always opens an item; a number or letter only after a finished sentence
        # (`… then use\n0.33 instead.` is a wrap)
        glyph = item and GLYPH.match(text) is not None
        if line.page != prev.page:
            finished = before.endswith(STOPS) and len(before) < full
            return item or finished or is_label(line)
        gap = (line.top or 0) - (prev.top or 0)
        return gap > GAP * step or glyph or (item and before.endswith(STOPS))

    out = []
    for run in runs(lines, opens):
        text = run[0].text.strip()
        for line in run[1:]:
            text = join_vocabulary(text, line.text.strip(), vocabulary)
        sizes = Counter(ln.size or 0.0 for ln in run)
        out.append(Paragraph(run, text, sizes.most_common(1)[0][0], run[0].bold))
    return out
