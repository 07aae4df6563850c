"""PDF -> lines with page, x position, font size, weight and colour (pdfplumber).

Layout decisions that depend on the document (running heads, page numbers,
indentation levels) belong to the parsers; this module only reports where
each line sat. Zero-width spaces are removed here and counted, because they
sit on their own baseline and would otherwise split lines.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import repeat
from multiprocessing import get_context
from typing import Any

import pdfplumber

from pipeline.errors import ExtractError
from pipeline.models import Line

ZERO_WIDTH = frozenset({"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"})
# Words whose baselines differ by less than this many points share a line.
LINE_TOLERANCE = 2.5


@dataclass
class PdfText:
    lines: list[Line]
    pages: int
    notes: dict[str, int] = field(default_factory=dict)


def is_highlight_colour(colour: Any) -> bool:
    """The orange NISEI and others use to mark changed text (r high, g middling, b low)."""
    if not isinstance(colour, (tuple, list)) or len(colour) != 3:
        return False
    try:
        r, g, b = (float(c) for c in colour)
    except (TypeError, ValueError):
        return False
    return r >= 0.6 and 0.2 <= g <= 0.75 and b <= 0.3 and r - g >= 0.2


def _group_lines(chars: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    rows: list[list[dict[str, Any]]] = []
    for char in sorted(chars, key=lambda c: (round(c["bottom"], 1), c["x0"])):
        if rows and abs(rows[-1][0]["bottom"] - char["bottom"]) <= LINE_TOLERANCE:
            rows[-1].append(char)
        else:
            rows.append([char])
    return [sorted(row, key=lambda c: c["x0"]) for row in rows]


def _join_chars(row: list[dict[str, Any]]) -> str:
    """Characters to text, with a space wherever the gap is wider than a fraction of the size.

    Working on characters (not pdfplumber words) keeps a coloured or bold word
    glued to its punctuation: word extraction with attributes would split
    `(rule 1.3.10)` into `( rule 1.3.10 )`.
    """
    out: list[str] = []
    previous_x1: float | None = None
    for char in row:
        text = str(char["text"])
        if text.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            previous_x1 = float(char["x1"])
            continue
        x0 = float(char["x0"])
        gap_limit = 0.2 * float(char["size"])
        if previous_x1 is not None and x0 - previous_x1 > gap_limit and out and out[-1] != " ":
            out.append(" ")
        out.append(text)
        previous_x1 = float(char["x1"])
    return "".join(out).strip()


def _line_from_chars(row: list[dict[str, Any]], page: int, number: int) -> Line:
    visible = [c for c in row if not str(c["text"]).isspace()] or row
    first = visible[0]
    return Line(
        text=_join_chars(row),
        line=number,
        page=page,
        x0=round(float(first["x0"]), 2),
        top=round(float(first["top"]), 2),
        size=round(float(first["size"]), 2),
        bold="bold" in str(first["fontname"]).lower(),
        highlight=any(is_highlight_colour(c.get("non_stroking_color")) for c in visible),
    )


def _split_columns(
    chars: list[dict[str, Any]], width: float, columns: int
) -> Iterable[list[dict[str, Any]]]:
    if columns == 1:
        yield chars
        return
    step = width / columns
    for index in range(columns):
        lo, hi = index * step, (index + 1) * step
        yield [
            c
            for c in chars
            if lo <= float(c["x0"]) < hi or (index == columns - 1 and float(c["x0"]) >= hi)
        ]


def extract_pdf_lines(data: bytes, *, what: str = "document", columns: int = 1) -> PdfText:
    """Every text line of the PDF, page by page, columns read left to right.

    `columns=2` reads a two-column layout in order: the left column of a page,
    then its right column.
    """
    if not data.startswith(b"%PDF-"):
        raise ExtractError(what, "not a PDF (the bytes do not start with %PDF-)")
    # pdfplumber needs ~0.3 s a page; an import reads the same PDF for the parse, the
    # rendition check and the reproduction check, so the last few results are kept.
    key = (hashlib.sha256(data).hexdigest(), columns)
    cached = _RECENT.pop(key, None) or _extract(data, what, columns)
    _RECENT[key] = cached
    while len(_RECENT) > 4:
        _RECENT.popitem(last=False)
    return PdfText(lines=list(cached.lines), pages=cached.pages, notes=dict(cached.notes))


_RECENT: OrderedDict[tuple[str, int], PdfText] = OrderedDict()


# Pages are independent, so large PDFs are read by a pool of processes (pdfplumber is
# pure Python and CPU-bound); the line numbers are assigned afterwards, in page order,
# so the result is identical to a sequential read. Workers are spawned, not forked: the
# caller may have threads (a server in a test, a progress display) that a fork would copy
# mid-lock.
PARALLEL_MIN_PAGES = 24
PAGES_PER_TASK = 12


def _extract(data: bytes, what: str, columns: int) -> PdfText:
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            pages = len(pdf.pages)
    except Exception as exc:  # pdfminer raises many unrelated types on damaged files
        raise ExtractError(what, f"cannot open PDF: {exc}") from exc
    ranges = [
        (start, min(start + PAGES_PER_TASK, pages)) for start in range(0, pages, PAGES_PER_TASK)
    ]
    workers = min(os.cpu_count() or 1, len(ranges))
    if pages < PARALLEL_MIN_PAGES or workers < 2:
        parts = [_read_pages(data, columns, 0, pages)]
    else:
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            parts = list(
                pool.map(
                    _read_pages,
                    repeat(data),
                    repeat(columns),
                    [a for a, _ in ranges],
                    [b for _, b in ranges],
                )
            )
    lines: list[Line] = []
    zero_width = 0
    for rows, removed in parts:
        zero_width += removed
        for row in rows:
            lines.append(row.model_copy(update={"line": len(lines) + 1}))
    return PdfText(lines=lines, pages=pages, notes={"zero_width_removed": zero_width})


def _read_pages(data: bytes, columns: int, first: int, last: int) -> tuple[list[Line], int]:
    """Lines of pages [first, last) (0-based), numbered 0; and the zero-width chars removed."""
    rows: list[Line] = []
    zero_width = 0
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for index in range(first, last):
            page = pdf.pages[index]
            chars = [c for c in page.chars if c["text"] not in ZERO_WIDTH]
            zero_width += len(page.chars) - len(chars)
            for column in _split_columns(chars, float(page.width), columns):
                for row in _group_lines(column):
                    if any(not str(c["text"]).isspace() for c in row):
                        rows.append(_line_from_chars(row, index + 1, 0))
            page.flush_cache()
    return rows, zero_width
