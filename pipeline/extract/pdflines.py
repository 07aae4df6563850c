"""The engine-neutral half of PDF extraction: glyph runs -> Lines.

Both PDF engines (pdfplumber in `pdf.py`, PDFium in `pdfium.py`) reduce a page
to `Run`s and hand them here, so grouping into lines, spacing, columns and the
line attributes are decided once, the same way, whatever read the page.

Geometry is measured where the engines agree: the baseline and the glyph
origins come from the content stream, while a glyph's box depends on font
metrics that each engine reads its own way (pdfminer keeps a font's descent
as written, PDFium rounds it to whole units), so a line's `top` is its
baseline minus its font size, and lines are grouped by baseline.

Rows are plain tuples while pages are read, and become `Line`s once, at the end.
"""

from __future__ import annotations

import gc
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from pipeline.extract.pdfcolumns import find_columns

if TYPE_CHECKING:
    from pipeline.models.content import Line

ZERO_WIDTH = frozenset({"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"})
# Runs whose baselines differ by less than this many points share a line.
LINE_TOLERANCE = 2.5
# A gap wider than this fraction of the font size between two glyphs is a space.
GAP_FACTOR = 0.2
# Glyphs starting closer than this fraction of the size are drawn over each other
# (the layers of an icon): they have no reading order, so they are put in code order.
OVERPRINT = 0.07
_WHITESPACE = re.compile(r"\s+")
_X0 = attrgetter("x0")
_TEXT = attrgetter("text")


@dataclass
class PdfText:
    lines: list[Line]
    pages: int
    notes: dict[str, int] = field(default_factory=dict)
    engine: str = ""
    engine_version: str = ""


class Run(NamedTuple):
    """Glyphs of one font, size, colour and baseline, set one after another without a gap.

    A run that holds visible glyphs starts with one (engines split leading
    whitespace off), so its `x0` is where its first visible glyph starts.
    """

    text: str
    x0: float  # origin of the first glyph
    x1: float  # origin of the last glyph plus its advance
    base: float  # baseline, measured down from the top of the page
    size: float
    bold: bool
    highlight: bool


# One line as the page readers give it: text, page, x0, top, size, bold, highlight.
Row = tuple[str, int, float, float, float, bool, bool]


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while pages are read: the readers build hundreds
    of thousands of short-lived tuples and no cycles, which each collection would walk."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def round2(value: float) -> float:
    """Two places, halves up, and a value a hair below a half counts as the half.

    Halves are common (Google Docs sets 14.66 px type: 10.995 pt), and the
    engines land on either side of them: pdfminer computes in doubles from the
    PDF's decimals (10.99499985 from "14.6599998"), PDFium in 32-bit floats.
    """
    return math.floor(value * 100 + 0.5 + 1e-4) / 100


def is_highlight_colour(colour: Any) -> bool:
    """The orange NISEI and others use to mark changed text (r high, g middling, b low)."""
    if not isinstance(colour, (tuple, list)) or len(colour) != 3:
        return False
    try:
        r, g, b = (float(c) for c in colour)
    except (TypeError, ValueError):
        return False
    return r >= 0.6 and 0.2 <= g <= 0.75 and b <= 0.3 and r - g >= 0.2


def is_bold_font(fontname: str) -> bool:
    return "bold" in fontname.lower()


def _split_columns(runs: list[Run], width: float, columns: int) -> Iterable[list[Run]]:
    if columns == 1:
        yield runs
        return
    step = width / columns
    for index in range(columns):
        lo, hi = index * step, (index + 1) * step
        yield [r for r in runs if lo <= r.x0 < hi or (index == columns - 1 and r.x0 >= hi)]


def _reading_order(runs: list[Run], width: float) -> list[list[Run]]:
    """The page's rows as a reader reads them: top to bottom, and where the page is set in
    two columns (`find_columns`), the rows above them, the left column, the right column,
    then the rows below."""
    rows = _group_rows(runs)
    visible = [[r for r in row if not r.text.isspace()] for row in rows]
    found = find_columns(
        [row[0].base if row else 0.0 for row in visible],
        [r.size for row in visible for r in row],
        [[(r.x0, r.x1) for r in row] for row in visible],
        width,
    )
    if found is None:
        return rows
    body = [run for row in rows[found.first : found.last + 1] for run in row]
    left = _group_rows([r for r in body if r.x0 < found.cut])
    right = _group_rows([r for r in body if r.x0 >= found.cut])
    return rows[: found.first] + left + right + rows[found.last + 1 :]


def _row_order(run: Run) -> tuple[float, float]:
    return (round(run.base, 1), run.x0)


def _group_rows(runs: list[Run]) -> list[list[Run]]:
    rows: list[list[Run]] = []
    row: list[Run] = []
    base = math.inf  # the baseline of the row's first run
    for run in sorted(runs, key=_row_order):
        if abs(base - run.base) <= LINE_TOLERANCE:
            row.append(run)
        else:
            row = [run]
            rows.append(row)
            base = run.base
    return [_overprints_in_code_order(sorted(row, key=_X0)) for row in rows]


def _overprints_in_code_order(row: list[Run]) -> list[Run]:
    """Glyphs without an advance and the glyph drawn over them (an icon's layers) have no
    reading order, and the engines draw them in different orders: code order it is.

    A cluster is the glyphs from `first` on while each has no advance and the next
    starts within the limit of `first`; nearly every cluster is one run.
    """
    if len(row) < 2:
        return row
    out: list[Run] = []
    start, first = 0, row[0]
    limit = OVERPRINT * first.size
    previous = first
    for index in range(1, len(row)):
        run = row[index]
        if previous.x1 - previous.x0 >= limit or run.x0 - first.x0 >= limit:
            if index - start > 1:
                out.extend(sorted(row[start:index], key=_TEXT))
            else:
                out.append(first)
            start, first = index, run
            limit = OVERPRINT * first.size
        previous = run
    if len(row) - start > 1:
        out.extend(sorted(row[start:], key=_TEXT))
    else:
        out.append(first)
    return out


def join_runs(row: Sequence[Run]) -> str:
    """Runs to text: whitespace becomes one space, and so does a gap wider than a fraction
    of the size.

    Working on glyphs (not words) keeps a coloured or bold word glued to its
    punctuation: word extraction with attributes would split `(rule 1.3.10)`
    into `( rule 1.3.10 )`.
    """
    out: list[str] = []
    spaced = True  # the text so far is empty or ends in a space
    previous_x1: float | None = None
    for run in row:
        if run.text.isspace():
            if not spaced:
                out.append(" ")
                spaced = True
            previous_x1 = run.x1
            continue
        if previous_x1 is not None and not spaced and run.x0 - previous_x1 > GAP_FACTOR * run.size:
            out.append(" ")
            spaced = True
        piece = run.text
        if "  " in piece or not piece.isprintable():  # tabs, no-break spaces, runs of spaces
            piece = _WHITESPACE.sub(" ", piece)
        if spaced and piece.startswith(" "):
            piece = piece[1:]
        out.append(piece)
        spaced = piece.endswith(" ")
        previous_x1 = run.x1
    return "".join(out).strip()


# A glyph drawn again at (nearly) the place of the same glyph is one glyph a reader sees
# once (simulated bold draws each word twice, a fraction of a point apart). The limits are
# pdftotext's for a duplicate (TextOutputDev's dupMaxPriDelta and dupMaxSecDelta): a tenth
# of the size along the line, a fifth across it.
REDRAWN_ALONG = 0.1
REDRAWN_ACROSS = 0.2
# A piece of a longer run is matched by its text only from a word's length on.
REDRAWN_WORD = 3


def _redraws(kept: Run, run: Run) -> bool:
    """`run` draws again glyphs `kept` drew: the same text at nearly the same place, or
    (a word drawn again over part of a longer run) a piece of `kept`'s text where that
    piece stands, its place estimated from `kept`'s mean advance."""
    if abs(kept.base - run.base) > REDRAWN_ACROSS * run.size or abs(kept.size - run.size) > 0.5:
        return False
    along = REDRAWN_ALONG * run.size
    if kept.text == run.text:
        return abs(kept.x0 - run.x0) <= along
    if len(run.text) < REDRAWN_WORD or len(kept.text) <= len(run.text) or run.text not in kept.text:
        return False  # a mark or a letter stands in any longer run near any place
    advance = (kept.x1 - kept.x0) / len(kept.text)
    at = kept.text.find(run.text)
    while at >= 0:
        # glyphs differ in width: the place of the piece is known to a few mean advances
        if abs(kept.x0 + at * advance - run.x0) <= max(along, 2 * advance):
            return True
        at = kept.text.find(run.text, at + 1)
    return False


def drop_redrawn(runs: list[Run]) -> list[Run]:
    """The page's runs without glyphs drawn again over the same glyphs (see REDRAWN_ALONG),
    the first drawn kept."""
    kept: list[Run] = []
    same: dict[tuple[str, int], list[Run]] = {}
    longer: dict[int, list[Run]] = {}
    for run in runs:
        text = run.text
        if text.strip():
            band = round(run.base)
            if _drawn_before(run, band, same, longer):
                continue
            same.setdefault((text, band), []).append(run)
            if len(text) > 1:
                longer.setdefault(band, []).append(run)
        kept.append(run)
    return kept


def _drawn_before(
    run: Run, band: int, same: dict[tuple[str, int], list[Run]], longer: dict[int, list[Run]]
) -> bool:
    """A kept run of a band near `run`'s redraws it: one of the same text, or (from a word's
    length on) a longer one holding its text."""
    text = run.text
    near = (band - 1, band, band + 1)
    for b in near:
        for kept in same.get((text, b), ()):
            if _redraws(kept, run):
                return True
    if len(text) < REDRAWN_WORD:
        return False
    for b in near:
        for kept in longer.get(b, ()):
            if len(kept.text) > len(text) and text in kept.text and _redraws(kept, run):
                return True
    return False


# Far beyond any page (the PDF format caps a page at 14,400 units a side).
_OFF_ANY_PAGE = 1e9


def _placeable(runs: list[Run]) -> list[Run]:
    """The runs but the glyphs a damaged or hostile content stream puts at a non-finite or
    absurd position (a NaN matrix): no reader of the page sees them, and no line can hold
    them. (A chained comparison is false for NaN and the infinities: one test, inline, for
    60,000 runs a document.)"""
    far = _OFF_ANY_PAGE
    return [
        run
        for run in runs
        if -far < run[1] < far
        and -far < run[2] < far
        and -far < run[3] < far
        and -far < run[4] < far
    ]


def page_rows(
    runs: list[Run],
    width: float,
    page: int,
    columns: int,
    snap_x: Callable[[float], float] = float,
    snap_base: Callable[[float], float] = float,
) -> list[Row]:
    """The lines of one page in reading order: two columns a reader sees are read left
    then right (`_reading_order`); a declared count of `columns` splits the page evenly.

    `snap_x` and `snap_base` recover the content stream's own numbers from an
    engine's values before they are rounded (PDFium keeps coordinates as
    32-bit floats); only a line's first glyph needs it, so it is done here.
    """
    rows: list[Row] = []
    runs = drop_redrawn(_placeable(runs))
    ordered = (
        _reading_order(runs, width)
        if columns == 1
        else (row for column in _split_columns(runs, width, columns) for row in _group_rows(column))
    )
    for row in ordered:
        visible = [r for r in row if not r.text.isspace()]
        if not visible:
            continue
        first = visible[0]
        rows.append(
            (
                join_runs(row),
                page,
                round2(snap_x(first.x0)),
                round2(snap_base(first.base) - first.size),
                round2(first.size),
                first.bold,
                any(r.highlight for r in visible),
            )
        )
    return rows


def to_lines(rows: list[Row]) -> list[Line]:
    """Rows to `Line`s numbered from 1 in reading order.

    Validated: pydantic-core checks a line of plain values in less time than
    `model_construct` takes to skip the checks, so skipping them would gain nothing.
    """
    from pipeline.models.content import Line

    return [
        Line(text=text, line=number, page=page, x0=x0, top=top, size=size, bold=bold, highlight=hi)
        for number, (text, page, x0, top, size, bold, hi) in enumerate(rows, start=1)
    ]
