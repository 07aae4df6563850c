"""Two columns a reader sees on a page: two blocks of lines with a clear vertical gutter
between them, running down most of the page.

Measured on the page's rows (the visible glyph runs of one baseline, as spans
along the line): a gutter is a band in the middle half of the page, wider than
a word space can be, that no row crosses but those above the columns (a title,
a running header) and below them (a footer, a page number). The columns beside
it must run alongside each other for most of the page's height, and each must
be set as text, its lines reaching across most of its width: a list of
headings with their page numbers far to the right, or a table of short terms,
is one column, read row by row.

Pure geometry on plain numbers: no PDF library, no model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

# A row: its baseline (down from the top of the page), font size, and the spans of its
# visible runs along the line.
Span = tuple[float, float]
MIDDLE = (0.25, 0.75)  # the gutter stands in this band of the page's width
# a gutter is wider than this many font sizes (a word space is ~0.3; Chinese and Japanese
# pages, set without spaces, keep narrow gutters)
GUTTER_SIZES = 1.2
MIN_ROWS = 3  # lines each column has at the least
RUNS_DOWN = 0.5  # the columns run alongside each other for this share of the text's height
FILLED = 0.5  # a column's typical line reaches across this share of its width
WIDE = 0.25  # each column's lines take together this share of the page's width at least


@dataclass(frozen=True)
class Columns:
    """Rows `first` to `last` (inclusive) are set in two columns, split at `cut`; the rows
    before and after them cross the gutter (a title, a footer) and are read whole."""

    first: int
    last: int
    cut: float


def crossing_segments(
    rows: Sequence[Sequence[Span]], lo: float, step: float, bins: int
) -> list[tuple[int, int]]:
    """The band (`bins` bins `step` wide from `lo`) cut where the rows reaching into it
    change: each piece's first bin and those rows, as a bit mask (bit i: row i).

    A row's spans are merged into disjoint ranges of bins, and each range toggles the
    row's bit where it starts and after it ends: the running XOR of the toggles is the
    mask of each piece, in one pass over the places where a range starts or ends."""
    toggles: dict[int, int] = {0: 0}
    floor, last_bin = math.floor, bins - 1
    for index, spans in enumerate(rows):
        bit = 1 << index
        start, stop = 0, -1  # the merged range of bins so far (empty)
        for first, last in sorted(
            (max(0, floor((x0 - lo) / step)), min(last_bin, floor((x1 - lo) / step)))
            for x0, x1 in spans
        ):
            if first > last:  # a span beside the band
                continue
            if first > stop + 1:
                if stop >= start:
                    toggles[start] = toggles.get(start, 0) ^ bit
                    toggles[stop + 1] = toggles.get(stop + 1, 0) ^ bit
                start, stop = first, last
            elif last > stop:
                stop = last
        if stop >= start:
            toggles[start] = toggles.get(start, 0) ^ bit
            toggles[stop + 1] = toggles.get(stop + 1, 0) ^ bit
    segments = []
    mask = 0
    for at in sorted(toggles):
        if at < bins:
            mask ^= toggles[at]
            segments.append((at, mask))
    return segments


def body_of(mask: int, text: int) -> tuple[int, int] | None:
    """The first and last of the rows with text (`text`) that leave a band free (`mask`:
    the rows crossing it), when the crossing rows stand only before and after them: a
    crossing row among them interrupts the gutter."""
    free = text & ~mask
    if not free:
        return None
    first, last = (free & -free).bit_length() - 1, free.bit_length() - 1
    between = ((1 << (last + 1)) - 1) ^ ((1 << first) - 1)
    return None if mask & between else (first, last)


def find_gutter(
    rows: Sequence[Sequence[Span]], width: float, size: float
) -> tuple[float, float, int, int] | None:
    """The band of the middle of the page that the most rows leave free (the widest such
    band), with the first and last of those rows; None when it is too narrow or too few
    rows leave it free to be a gutter between columns.

    Bands start and end where the crossing rows change (`crossing_segments`): a band
    begun or ended inside a piece of the same rows is a narrower one with the same rows."""
    step = max(size / 8, 0.5)
    lo = MIDDLE[0] * width
    bins = max(1, int((MIDDLE[1] - MIDDLE[0]) * width / step))
    segments = crossing_segments(rows, lo, step, bins)
    ends = [at for at, _ in segments[1:]] + [bins]  # each piece's end (exclusive)
    text = sum(1 << i for i, spans in enumerate(rows) if spans)
    best: tuple[int, int, int, int] | None = None  # first bin, end bin, first row, last row
    wide = math.ceil(GUTTER_SIZES * size / step)  # bins a gutter takes at the least
    for index, (start, _) in enumerate(segments):
        mask = 0
        for (_, crossing), end in zip(segments[index:], ends[index:], strict=True):
            mask |= crossing
            body = body_of(mask, text)
            if body is None or body[1] - body[0] + 1 < 2 * MIN_ROWS:
                break  # a wider band only loses rows
            # among the bands wide enough to be a gutter, the one the most rows leave free:
            # a narrow slit beside a page number set in the gutter is no gutter
            if end - start >= wide and (
                best is None
                or (body[1] - body[0], end - start) > (best[3] - best[2], best[1] - best[0])
            ):
                best = (start, end, *body)
    if best is None:
        return None
    return lo + best[0] * step, lo + best[1] * step, best[2], best[3]


def set_as_text(lines: list[Span], width: float) -> bool:
    """The column's lines (each its left and right end) are set as text: together they take
    a good part of the page's width (a column of page numbers does not), and the typical
    line reaches across most of it (a column of short terms does not)."""
    left = min(x0 for x0, _ in lines)
    right = max(x1 for _, x1 in lines)
    across = median(x1 - x0 for x0, x1 in lines)
    return right - left >= WIDE * width and across >= FILLED * (right - left)


def find_columns(
    bases: Sequence[float], sizes: Sequence[float], rows: Sequence[Sequence[Span]], width: float
) -> Columns | None:
    """The page's two columns, or None for a page read row by row."""
    if len(rows) < 2 * MIN_ROWS or not sizes:
        return None
    gutter = find_gutter(rows, width, median(sizes))
    if gutter is None:
        return None
    lo, hi, first, last = gutter
    left: list[tuple[int, Span]] = []
    right: list[tuple[int, Span]] = []
    for index in range(first, last + 1):
        before = [s for s in rows[index] if s[1] <= lo]
        after = [s for s in rows[index] if s[0] >= hi]
        if before:
            left.append((index, (before[0][0], before[-1][1])))
        if after:
            right.append((index, (after[0][0], after[-1][1])))
    # side by side: the right column starts before the left one ends (the last page's
    # may be short), and the rows beside the gutter run down most of the text's height
    if len(left) < MIN_ROWS or len(right) < 2 or bases[right[0][0]] >= bases[left[-1][0]]:
        return None
    height = max(bases) - min(bases)
    if height <= 0 or bases[last] - bases[first] < RUNS_DOWN * height:
        return None
    if not set_as_text([s for _, s in left], width) or not set_as_text(
        [s for _, s in right], width
    ):
        return None
    return Columns(first, last, (lo + hi) / 2)
