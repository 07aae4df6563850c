"""PDF -> lines with PDFium (pypdfium2): the default engine, much faster than
pdfplumber.

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
import re
from collections.abc import Callable
from functools import lru_cache, partial
from importlib import metadata
from itertools import compress, repeat
from typing import Any

import pypdfium2 as pdfium  # type: ignore[import-untyped]

from pipeline.errors import ExtractError
from pipeline.extract.pdfium_objects import (
    Handle,
    Objects,
    Style,
    char_origin,
    close_page,
    close_textpage,
    count_chars,
    f32,
    get_text,
    get_unicode,
    is_generated,
    is_hyphen,
    load_page,
    load_textpage,
    media_box,
    text_object,
)
from pipeline.extract.pdflines import (
    ZERO_WIDTH,
    PdfText,
    Row,
    Run,
    collector_paused,
    page_rows,
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
    doc = _open(data, what)
    try:
        pages = len(doc)
        with collector_paused():
            rows, removed = _read_pages(doc, columns)
    except pdfium.PdfiumError as exc:  # a page PDFium cannot load
        raise ExtractError(what, f"cannot read PDF: {exc}") from exc
    finally:
        doc.close()
    return PdfText(
        lines=to_lines(rows),
        pages=pages,
        notes={"zero_width_removed": removed},
        engine=ENGINE,
        engine_version=ENGINE_VERSION,
    )


def load_pdf_pages_pdfium(data: bytes, *, what: str) -> int:
    """PDFium's own part of an extraction, for `make bench`: every page and its text page
    loaded and closed, and nothing read. No engine that reads PDFium's text pages from
    Python can be faster. The page count."""
    doc = _open(data, what)
    try:
        handle = _address(doc.raw)
        for index in range(len(doc)):
            page = _load_page(handle, index)
            close_textpage(load_textpage(page))
            close_page(page)
        return len(doc)
    except pdfium.PdfiumError as exc:  # a page PDFium cannot load
        raise ExtractError(what, f"cannot read PDF: {exc}") from exc
    finally:
        doc.close()


def _open(data: bytes, what: str) -> Any:
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ExtractError(what, f"cannot open PDF: {exc}") from exc


def _read_pages(doc: Any, columns: int) -> tuple[list[Row], int]:
    """Rows of every page; and the zero-width characters removed."""
    handle = _address(doc.raw)
    # Lines start at a few x positions and baselines repeat from page to page, so the
    # float snapping is remembered for the document.
    snap_x = lru_cache(maxsize=None)(f32)
    snap = lru_cache(maxsize=None)(f32)
    rows: list[Row] = []
    removed = 0
    for index in range(len(doc)):
        page = _load_page(handle, index)
        try:
            reader = _PageReader(page)
            runs, zero_width = reader.runs()
        finally:
            close_page(page)
        removed += zero_width
        snap_base = partial(_snap_base, snap, reader.top)
        rows.extend(page_rows(runs, reader.width, index + 1, columns, snap_x, snap_base))
    return rows, removed


def _load_page(handle: int, index: int) -> int:
    page: int = load_page(handle, index)
    if not page:
        raise pdfium.PdfiumError(f"Failed to load page {index + 1}.")
    return page


def _snap_base(snap: Callable[[float, float], float], top: float, base: float) -> float:
    """A baseline (measured down from the top) snapped as the PDF's own number (measured up)."""
    return top - snap(top - base, _BASE_ULPS)


def _address(handle: Any) -> int:
    return ctypes.cast(handle, ctypes.c_void_p).value or 0


def _char(code: int) -> str:
    """A code point PDFium reports; nothing, a surrogate or out of range: U+FFFD."""
    return chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"


class _PageReader:
    """One page's runs. Pages and text pages are loaded through the address-level
    calls of `pdfium_objects`, not pypdfium2's wrappers: those register a finalizer
    per page, a few percent of a read."""

    def __init__(self, page: int) -> None:
        self.page = page
        left, _bottom, right, top = media_box(page)
        self.width = float(right - left)
        self.top = float(top)
        self.objects = Objects()
        self._styles = self.objects.styles  # looked up directly: once a run
        self._widths = self.objects.widths
        self.textpage = Handle(0)  # the FPDF_TEXTPAGE while `runs` reads it
        self._xy = (ctypes.c_double * 2)()
        self._xp = Handle(ctypes.addressof(self._xy))
        self._yp = Handle(ctypes.addressof(self._xy) + ctypes.sizeof(ctypes.c_double))

    def runs(self) -> tuple[list[Run], int]:
        self.objects.walk(self.page)
        textpage = load_textpage(self.page)
        if not textpage:
            raise pdfium.PdfiumError("Failed to load text page.")
        try:
            self.textpage = Handle(textpage)
            runs, removed = self._textpage_runs(self._text(textpage))
        finally:
            close_textpage(textpage)
            self.textpage = Handle(0)
        inkless, zero_width = self.objects.inkless_runs(self.top)
        return runs + inkless, removed + zero_width

    def _text(self, handle: int) -> str:
        count = count_chars(handle)
        if count <= 0:
            return ""
        buffer = (ctypes.c_ushort * (count + 1))()
        written = get_text(handle, 0, count, buffer)
        text = ctypes.string_at(buffer, 2 * max(written - 1, 0)).decode("utf-16-le", "replace")
        if len(text) != count:
            # Characters outside the BMP, or PDFium keeping a character out of the page
            # text: one by one then, so text positions stay character indices.
            text = "".join(_char(get_unicode(handle, i)) for i in range(count))
        if "\ufffe" in text:
            chars = list(text)
            for i, char in enumerate(chars):
                if char == "\ufffe" and is_hyphen(handle, i):
                    chars[i] = "-"
            text = "".join(chars)
        return text

    def _textpage_runs(self, text: str) -> tuple[list[Run], int]:
        """Runs between the characters PDFium made up (and zero-width ones), split
        where the text object changes.

        A text object's characters are consecutive on the text page, so where one
        ends is searched for, not asked about character by character: a first
        guess as long as the last object (Word writes a TJ per font change, Google
        Docs a Tj per glyph), doubled until past the end, then bisected. This loop
        runs some 60,000 times a document, hence its plain shape.
        """
        handle = self.textpage
        spaces = [match.start() for match in _SPACES.finditer(text)]
        cuts = list(compress(spaces, map(is_generated, repeat(handle), spaces)))
        removed = sum(text.count(char) for char in ZERO_WIDTH)
        if removed:
            cuts = sorted(cuts + [m.start() for m in _ZERO_WIDTH.finditer(text)])
        cuts.append(len(text))
        runs: list[Run] = []
        object_runs = self._object_runs
        length = 8  # characters in the last text object, a guess at the next
        start = 0
        for end in cuts:  # [start, end) holds no made-up character
            if end <= start:
                start = end + 1
                continue
            first = text_object(handle, start)
            last = end - 1
            last_object = text_object(handle, last) if last > start else first
            while first != last_object:
                lo, step = start, length
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
                object_runs(text, start, hi, first, runs)
                length = hi - start
                start, first = hi, found
            object_runs(text, start, end, first, runs)
            start = end + 1
        return runs, removed

    def _object_runs(
        self, text: str, start: int, end: int, obj: int | None, out: list[Run]
    ) -> None:
        """The run of one text object's characters [start, end); leading whitespace
        apart, so that a run with visible glyphs starts with one (see `Run`)."""
        if obj is None:  # not expected outside made-up characters; nothing to place
            return
        style = self._styles.get(obj) or self.objects.style(obj)
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
        handle, xp, yp, xy = self.textpage, self._xp, self._yp, self._xy
        char_origin(handle, start, xp, yp)
        x0, base = xy[0], self.top - xy[1]
        last = end - 1
        if last > start:
            char_origin(handle, last, xp, yp)
        char = text[last]
        width = self._widths.get((style.font, char))
        if width is None:
            width = self.objects.width(style.font, char)
        x1 = xy[0] + width * style.advance
        # tuple.__new__ skips the generated __new__'s argument handling, 45,000 times a document
        fields = (text[start:end], x0, x1, base, style.size, style.bold, style.highlight)
        out.append(tuple.__new__(Run, fields))
