"""PDF -> lines with page, x position, font size, weight and colour; and the pdfplumber engine.

`extract_pdf_lines` is the entry point: it picks an engine (PDFium by default,
see `pdfium.py`; pdfplumber here, much slower), both of which hand
glyph runs to `pdflines`, so the two give the same lines (tests/extract/test_pdf_engines.py
holds them to it). Layout decisions that depend on the document (running heads,
page numbers, indentation levels) belong to the parsers; this module only
reports where each line sat. Zero-width spaces are removed and counted: they
carry no text, and pdfminer gives them boxes of their own font's depth.
"""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from functools import cache
from importlib.metadata import version
from typing import Any

from pipeline.errors import ExtractError, UsageError
from pipeline.extract.pdfium import extract_pdf_lines_pdfium
from pipeline.extract.pdflines import (
    ZERO_WIDTH,
    PdfText,
    Row,
    Run,
    collector_paused,
    is_bold_font,
    is_highlight_colour,
    page_rows,
    to_lines,
)

__all__ = [
    "ENGINES",
    "extract_pdf_lines",
]

ENGINES = ("pdfium", "pdfplumber")
# pdfplumber (and pdfminer under it) is imported only when asked for: a parse with the
# default engine, and every command that never reads a PDF, never loads it.


def extract_pdf_lines(
    data: bytes, *, what: str = "document", columns: int = 1, engine: str = "pdfium"
) -> PdfText:
    """Every text line of the PDF, page by page, columns read left to right.

    `columns=2` reads a two-column layout in order: the left column of a page,
    then its right column. `engine` is one of ENGINES; they give the same lines.
    """
    if engine not in ENGINES:
        raise UsageError(f"unknown PDF engine {engine!r}; known: {', '.join(ENGINES)}")
    if not data.startswith(b"%PDF-"):
        raise ExtractError(what, "not a PDF (the bytes do not start with %PDF-)")
    # An import reads the same PDF for the parse, the rendition check and the
    # reproduction check, so the last few results are kept.
    key = (hashlib.sha256(data).hexdigest(), columns, engine)
    cached = _RECENT.pop(key, None)
    if cached is None:
        if engine == "pdfium":
            cached = extract_pdf_lines_pdfium(data, what=what, columns=columns)
        else:
            cached = _extract(data, what, columns)
    _RECENT[key] = cached
    while len(_RECENT) > 4:
        _RECENT.popitem(last=False)
    return PdfText(
        lines=list(cached.lines),
        pages=cached.pages,
        notes=dict(cached.notes),
        engine=cached.engine,
        engine_version=cached.engine_version,
    )


_RECENT: OrderedDict[tuple[str, int, str], PdfText] = OrderedDict()


@cache
def pdfplumber_version() -> str:
    return f"pdfplumber {version('pdfplumber')} (pdfminer.six {version('pdfminer.six')})"


def _extract(data: bytes, what: str, columns: int) -> PdfText:
    import pdfplumber

    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            pages = len(pdf.pages)
    except Exception as exc:  # pdfminer raises many unrelated types on damaged files
        raise ExtractError(what, f"cannot open PDF: {exc}") from exc
    try:
        with collector_paused():
            rows, removed = _read_pages(data, columns, pages)
    except MemoryError:
        raise  # the parse sandbox names the memory limit
    except Exception as exc:  # pdfminer reads each content stream lazily, with any type
        raise ExtractError(what, f"cannot read PDF: {exc}") from exc
    return PdfText(
        lines=to_lines(rows),
        pages=pages,
        notes={"zero_width_removed": removed},
        engine="pdfplumber",
        engine_version=pdfplumber_version(),
    )


def _read_pages(data: bytes, columns: int, pages: int) -> tuple[list[Row], int]:
    """Rows of every page; and the zero-width characters removed."""
    import pdfplumber

    rows: list[Row] = []
    zero_width = 0
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for index in range(pages):
            page = pdf.pages[index]
            chars = [c for c in _page_chars(page) if c["text"] not in ZERO_WIDTH]
            zero_width += len(page.chars) - len(chars)
            left, height = float(page.mediabox[0]), float(page.height)
            runs = [_run(c, left, height) for c in _drop_overprints(chars)]
            rows.extend(page_rows(runs, float(page.width), index + 1, columns))
            page.flush_cache()
    return rows, zero_width


def _page_chars(page: Any) -> list[dict[str, Any]]:
    """The page's characters. pdfminer reports a content stream too large to inflate as
    PdfminerException("Unable to allocate output buffer") with the MemoryError as its
    cause; it is raised again as the MemoryError it is, which the parse sandbox names."""
    try:
        chars: list[dict[str, Any]] = page.chars
    except Exception as exc:
        cause: BaseException | None = exc
        while cause is not None and not isinstance(cause, MemoryError):
            cause = cause.__cause__ or cause.__context__
        if cause is not None:
            raise MemoryError(str(exc)) from exc
        raise
    return chars


# A glyph drawn again within this fraction of the size of an identical one drawn just
# before is the same glyph (layered icons, fake bold): PDFium's text page keeps the
# first (its kTextCharRatioGapDelta, looking back 7 characters), and so does this engine.
OVERPRINT = 0.07
OVERPRINT_LOOKBACK = 7


def _drop_overprints(chars: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Characters in drawing order without glyphs drawn again in place."""
    kept: list[dict[str, Any]] = []
    for char in chars:
        limit = OVERPRINT * float(char["size"])
        x, y = char["matrix"][4], char["matrix"][5]
        if not any(
            other["text"] == char["text"]
            and other["fontname"] == char["fontname"]
            and abs(other["matrix"][4] - x) < limit
            and abs(other["matrix"][5] - y) < limit
            for other in kept[-OVERPRINT_LOOKBACK:]
        ):
            kept.append(char)
    return kept


def _run(char: dict[str, Any], left: float, height: float) -> Run:
    """One character as a run, placed at its origin (the matrix's translation; for
    upright text also the box's left edge). pdfminer's coordinates start at the
    MediaBox's corner: x is shifted back as pdfplumber does, the baseline is
    measured down from the box's top."""
    matrix = char["matrix"]
    return Run(
        text=str(char["text"]),
        x0=float(matrix[4]) + left,
        x1=float(char["x1"]),
        base=height - float(matrix[5]),
        size=float(char["size"]),
        bold=is_bold_font(str(char["fontname"])),
        highlight=is_highlight_colour(char.get("non_stroking_color")),
    )
