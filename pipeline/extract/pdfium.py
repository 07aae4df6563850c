"""PDF -> lines with PDFium (pypdfium2): the default engine, some twenty times faster
than pdfplumber.

PDFium builds a page's "text page" (characters with their origins) in C++. The
Python here asks it about text objects and whitespace, not about every
character, and hands `Run`s to `pdflines`, which decides lines and spacing for
both engines. Where the text page departs from what the PDF draws, this module
puts the PDF back:

- PDFium leaves out text objects without ink (a lone space, a zero-width
  space) and adds characters of its own ("generated": line breaks, and spaces
  where it judges a gap wide enough). Generated characters are dropped and
  `pdflines` measures the gaps; the inkless objects are read from the page's
  object list (`pdfium_objects`).
- A glyph ends at its origin plus its advance width (FPDFFont_GetGlyphWidth),
  not at PDFium's "loose" box, which also covers ink past the advance: an
  italic f would end a point late and glue `of` to the next word.
- Font size is the text object's size times its matrix scale
  (FPDFText_GetFontSize is off by 9 pt on the MTG PDFs, which scale by matrix).
- A hyphen PDFium takes for a line-end break comes back as U+FFFE; it is a hyphen.
"""

from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from itertools import compress, repeat

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from pipeline.errors import ExtractError
from pipeline.extract.pdfium_objects import (
    Objects,
    Style,
    char_origin,
    f32,
    is_generated,
    is_hyphen,
    text_object,
)
from pipeline.extract.pdflines import (
    ZERO_WIDTH,
    PdfText,
    ReadRange,
    Row,
    Run,
    page_rows,
    read_pages,
    to_lines,
)

ENGINE = "pdfium"


def _engine_version() -> str:
    """pypdfium2's version and the PDFium build it ships (pypdfium2 4 and 5 name them apart)."""
    info = getattr(getattr(pdfium, "version", None), "PDFIUM_INFO", None)
    build = getattr(info, "tag", None) or getattr(pdfium, "V_PDFIUM", "unknown")
    return f"pypdfium2 {metadata.version('pypdfium2')} (PDFium {build})"


ENGINE_VERSION = _engine_version()
# Characters the text page may have made up (whitespace), and zero-width ones: a run
# of one object's glyphs never spans them.
_SPACES = re.compile(r"\s")
_ZERO_WIDTH = re.compile("[" + "".join(sorted(ZERO_WIDTH)) + "]")
# Baselines add up many offsets (Td after Td), so the PDF's own value often has five
# places where an x position has three: a baseline is snapped only from closer by, or
# a true 311.30496 would be taken for 311.305.
_BASE_ULPS = 2.0


def extract_pdf_lines_pdfium(data: bytes, *, what: str, columns: int = 1) -> PdfText:
    """Every text line of the PDF, page by page, columns read left to right."""
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ExtractError(what, f"cannot open PDF: {exc}") from exc
    pages = len(doc)
    doc.close()
    # Spawned workers (in a process with threads) get half the pages each, this
    # process reading the first half: their cost is mostly their start. Forked ones
    # take a few pages at a time through `_open_pages`.
    per_task = max(1, math.ceil(pages / 2))
    try:
        rows, removed = read_pages(
            _read_pages, data, columns, pages, per_task, in_parent=True, session=_open_pages
        )
    except pdfium.PdfiumError as exc:  # a page PDFium cannot load
        raise ExtractError(what, f"cannot read PDF: {exc}") from exc
    return PdfText(
        lines=to_lines(rows),
        pages=pages,
        notes={"zero_width_removed": removed},
        engine=ENGINE,
        engine_version=ENGINE_VERSION,
    )


def _read_pages(data: bytes, columns: int, first: int, last: int) -> tuple[list[Row], int]:
    """Rows of pages [first, last) (0-based); and the zero-width characters removed."""
    with _open_pages(data, columns) as read:
        return read(first, last)


@contextmanager
def _open_pages(data: bytes, columns: int) -> Iterator[ReadRange]:
    """The document opened once, for reading page ranges of it."""
    doc = pdfium.PdfDocument(data)

    def read(first: int, last: int) -> tuple[list[Row], int]:
        rows: list[Row] = []
        removed = 0
        for index in range(first, last):
            page = doc[index]
            try:
                reader = _PageReader(page)
                runs, zero_width = reader.runs()
            finally:
                page.close()
            removed += zero_width
            rows.extend(page_rows(runs, reader.width, index + 1, columns, f32, reader.snap_base))
        return rows, removed

    try:
        yield read
    finally:
        doc.close()


def _char(code: int) -> str:
    """A code point PDFium reports; nothing, a surrogate or out of range: U+FFFD."""
    return chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"


class _PageReader:
    def __init__(self, page: pdfium.PdfPage) -> None:
        self.page = page
        left, _bottom, right, top = page.get_mediabox()
        self.width = float(right - left)
        self.top = float(top)
        self.objects = Objects()
        self.textpage = 0  # the FPDF_TEXTPAGE's address while `runs` reads it
        self._length = 8  # characters in the last text object, a guess at the next
        self._x = ctypes.c_double()
        self._y = ctypes.c_double()
        self._xp = ctypes.byref(self._x)
        self._yp = ctypes.byref(self._y)

    def snap_base(self, base: float) -> float:
        return self.top - f32(self.top - base, _BASE_ULPS)

    def runs(self) -> tuple[list[Run], int]:
        self.objects.walk(ctypes.cast(self.page.raw, ctypes.c_void_p).value or 0)
        textpage = self.page.get_textpage()
        try:
            self.textpage = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
            runs, removed = self._textpage_runs(self._text(textpage.raw))
        finally:
            textpage.close()
        inkless, zero_width = self.objects.inkless_runs(self.top)
        return runs + inkless, removed + zero_width

    def _text(self, handle: pdfium_c.FPDF_TEXTPAGE) -> str:
        count = pdfium_c.FPDFText_CountChars(handle)
        if count <= 0:
            return ""
        buffer = (ctypes.c_ushort * (count + 1))()
        written = pdfium_c.FPDFText_GetText(handle, 0, count, buffer)
        text = ctypes.string_at(buffer, 2 * max(written - 1, 0)).decode("utf-16-le", "replace")
        if len(text) != count:
            # Characters outside the BMP, or PDFium keeping a character out of the page
            # text: one by one then, so text positions stay character indices.
            text = "".join(_char(pdfium_c.FPDFText_GetUnicode(handle, i)) for i in range(count))
        if "\ufffe" in text:
            chars = list(text)
            for i, char in enumerate(chars):
                if char == "\ufffe" and is_hyphen(self.textpage, i):
                    chars[i] = "-"
            text = "".join(chars)
        return text

    def _textpage_runs(self, text: str) -> tuple[list[Run], int]:
        """Runs between the characters PDFium made up (and zero-width ones), split
        where the text object changes."""
        handle = self.textpage
        spaces = [match.start() for match in _SPACES.finditer(text)]
        cuts = list(compress(spaces, map(is_generated, repeat(handle), spaces)))
        removed = sum(text.count(char) for char in ZERO_WIDTH)
        if removed:
            cuts = sorted(cuts + [m.start() for m in _ZERO_WIDTH.finditer(text)])
        runs: list[Run] = []
        start = 0
        for cut in [*cuts, len(text)]:
            if cut > start:
                self._segment(text, start, cut, runs)
            start = cut + 1
        return runs, removed

    def _segment(self, text: str, start: int, end: int, out: list[Run]) -> None:
        """Characters [start, end), no made-up ones among them: one run per text object.

        A text object's characters are consecutive on the text page, so its end
        is searched for, not asked about character by character: a first guess
        as long as the last object (Word writes a TJ per font change, Google
        Docs a Tj per glyph), doubled until past the end, then bisected.
        """
        handle = self.textpage
        first = text_object(handle, start)
        last = end - 1
        last_object = text_object(handle, last)
        while first != last_object:
            lo, step = start, self._length
            hi = min(lo + step, last)
            found = text_object(handle, hi)
            while found == first:
                lo, step = hi, 2 * step
                hi = min(lo + step, last)
                found = text_object(handle, hi)
            while hi - lo > 1:  # text_object(lo) == first != text_object(hi) == found
                mid = (lo + hi) // 2
                probe = text_object(handle, mid)
                if probe == first:
                    lo = mid
                else:
                    hi, found = mid, probe
            self._object_runs(text, start, hi, first, out)
            self._length = hi - start
            start, first = hi, found
        self._object_runs(text, start, end, first, out)

    def _object_runs(
        self, text: str, start: int, end: int, obj: int | None, out: list[Run]
    ) -> None:
        """The run of one text object's characters [start, end); leading whitespace
        apart, so that a run with visible glyphs starts with one (see `Run`)."""
        if obj is None:  # not expected outside made-up characters; nothing to place
            return
        style = self.objects.style(obj)
        if not style.upright:
            # Rotated or skewed glyphs do not share a baseline: each is its own run.
            for i in range(start, end):
                self._emit(text, i, i + 1, style, out)
            return
        if text[start].isspace():
            piece = text[start:end]
            visible = end - len(piece.lstrip())
            if visible < end:
                self._emit(text, start, visible, style, out)
                start = visible
        self._emit(text, start, end, style, out)

    def _emit(self, text: str, start: int, end: int, style: Style, out: list[Run]) -> None:
        handle, xp, yp, x = self.textpage, self._xp, self._yp, self._x
        char_origin(handle, start, xp, yp)
        x0, base = x.value, self.top - self._y.value
        last = end - 1
        if last > start:
            char_origin(handle, last, xp, yp)
        x1 = x.value + self.objects.advance(style, text[last])
        out.append(Run(text[start:end], x0, x1, base, style.size, style.bold, style.highlight))
