"""PDFium's page objects for the PDFium engine: text object styles, the inkless objects
its text page leaves out, and the 32-bit floats it measures in.

Calls go through prototypes that take and return plain addresses: the engine
makes a few hundred thousand calls a document, and pypdfium2's typed bindings
build pointer objects on every one.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable
from typing import Any, NamedTuple

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from pipeline.extract.pdflines import Run, is_bold_font, is_highlight_colour

_ADDRESS = ctypes.c_void_p
_FLOAT_P = ctypes.POINTER(ctypes.c_float)
_DOUBLE_P = ctypes.POINTER(ctypes.c_double)
_UINT_P = ctypes.POINTER(ctypes.c_uint)


def _c(function: Any, restype: Any, *argtypes: Any) -> Callable[..., Any]:
    """A pypdfium2.raw binding re-declared with address arguments and result."""
    address = ctypes.cast(function, ctypes.c_void_p).value or 0
    prototype: Callable[..., Any] = ctypes.CFUNCTYPE(restype, *argtypes)(address)
    return prototype


_INT = ctypes.c_int
text_object = _c(pdfium_c.FPDFText_GetTextObject, _ADDRESS, _ADDRESS, _INT)
is_generated = _c(pdfium_c.FPDFText_IsGenerated, _INT, _ADDRESS, _INT)
is_hyphen = _c(pdfium_c.FPDFText_IsHyphen, _INT, _ADDRESS, _INT)
char_origin = _c(pdfium_c.FPDFText_GetCharOrigin, _INT, _ADDRESS, _INT, _DOUBLE_P, _DOUBLE_P)
_count_page_objects = _c(pdfium_c.FPDFPage_CountObjects, _INT, _ADDRESS)
_page_object = _c(pdfium_c.FPDFPage_GetObject, _ADDRESS, _ADDRESS, _INT)
_count_form_objects = _c(pdfium_c.FPDFFormObj_CountObjects, _INT, _ADDRESS)
_form_object = _c(pdfium_c.FPDFFormObj_GetObject, _ADDRESS, _ADDRESS, ctypes.c_ulong)
_object_type = _c(pdfium_c.FPDFPageObj_GetType, _INT, _ADDRESS)
_bounds = _c(pdfium_c.FPDFPageObj_GetBounds, _INT, _ADDRESS, _FLOAT_P, _FLOAT_P, _FLOAT_P, _FLOAT_P)
_matrix = _c(pdfium_c.FPDFPageObj_GetMatrix, _INT, _ADDRESS, ctypes.POINTER(pdfium_c.FS_MATRIX))
_font_size = _c(pdfium_c.FPDFTextObj_GetFontSize, _INT, _ADDRESS, _FLOAT_P)
_font = _c(pdfium_c.FPDFTextObj_GetFont, _ADDRESS, _ADDRESS)
_fill = _c(pdfium_c.FPDFPageObj_GetFillColor, _INT, _ADDRESS, _UINT_P, _UINT_P, _UINT_P, _UINT_P)
_glyph_width = _c(
    pdfium_c.FPDFFont_GetGlyphWidth, _INT, _ADDRESS, ctypes.c_uint, ctypes.c_float, _FLOAT_P
)
# FPDFFont_GetBaseFontName is PDFium's newer name for the same call (pypdfium2 5).
_font_name = _c(
    getattr(pdfium_c, "FPDFFont_GetBaseFontName", None) or pdfium_c.FPDFFont_GetFontName,
    ctypes.c_size_t,
    _ADDRESS,
    ctypes.c_char_p,
    ctypes.c_size_t,
)

_TEXT = pdfium_c.FPDF_PAGEOBJ_TEXT
_FORM = pdfium_c.FPDF_PAGEOBJ_FORM
# An object narrower than this is one PDFium's text page leaves out (its kSizeEpsilon).
INKLESS = 0.01

Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def f32(value: float, ulps: float = 4.0) -> float:
    """The short decimal a PDFium coordinate stands for, if it is within float noise of one.

    PDFium computes positions in 32-bit floats, pdfminer in doubles from the
    PDF's decimals: 87.30499 (PDFium) and 87.305 (pdfminer) round apart.
    """
    if value == 0.0 or not math.isfinite(value):
        return value
    tolerance = ulps * 2.0 ** (math.frexp(value)[1] - 24)  # units in the last place
    # Two places first: a shorter decimal within reach rounds to the same two places.
    for places in (2, 3, 4, 5):
        candidate = round(value, places)
        if abs(candidate - value) <= tolerance:
            return candidate
    return value


class Style(NamedTuple):
    """What a text object gives all its glyphs."""

    font: int  # the FPDF_FONT's address
    advance: float  # page units per thousandth of an em of advance width
    size: float
    bold: bool
    highlight: bool
    upright: bool


class Objects:
    """Reads text objects' styles, and advance widths, with buffers made once."""

    def __init__(self) -> None:
        self._float = ctypes.c_float()
        self._floats = [ctypes.c_float() for _ in range(4)]
        self._uints = [ctypes.c_uint() for _ in range(4)]
        self._m = pdfium_c.FS_MATRIX()
        self._styles: dict[int, Style] = {}
        self._kinds: dict[tuple[Any, ...], Style] = {}
        self._names: dict[int, str] = {}
        self._widths: dict[tuple[int, str], float] = {}
        # The page's text objects in content order, with their matrices to the page;
        # those inside form XObjects by themselves too.
        self._objects: list[tuple[int, Matrix]] = []
        self._outer: dict[int, Matrix] = {}

    def style(self, obj: int) -> Style:
        style = self._styles.get(obj)
        if style is None:
            style = self._styles[obj] = self._read_style(obj)
        return style

    def _read_style(self, obj: int) -> Style:
        m = self._m
        _font_size(obj, self._float)
        _matrix(obj, m)
        r, g, b, a = self._uints
        _fill(obj, r, g, b, a)
        font = _font(obj) or 0
        ma, mb, mc, md = m.a, m.b, m.c, m.d
        outer = self._outer.get(obj)
        if outer is not None:
            p, q, s, t = outer[:4]
            ma, mb, mc, md = ma * p + mb * s, ma * q + mb * t, mc * p + md * s, mc * q + md * t
        key = (font, self._float.value, ma, mb, mc, md, r.value, g.value, b.value)
        style = self._kinds.get(key)
        if style is None:
            font_size = float(self._float.value)
            colour = (r.value / 255, g.value / 255, b.value / 255)
            style = self._kinds[key] = Style(
                font=font,
                advance=font_size * ma / 1000,
                size=font_size * abs(md),
                bold=is_bold_font(self.font_name(font)),
                highlight=is_highlight_colour(colour),
                upright=mb == 0 and mc == 0 and ma > 0 and md > 0,
            )
        return style

    def font_name(self, font: int) -> str:
        name = self._names.get(font)
        if name is None:
            length = _font_name(font, None, 0) if font else 0
            buffer = ctypes.create_string_buffer(max(length, 1))
            if length:
                _font_name(font, buffer, length)
            name = self._names[font] = buffer.value.decode("utf-8", "replace")
        return name

    def advance(self, style: Style, char: str) -> float:
        """How far `char` moves the pen in `style`: the font's width for it."""
        key = (style.font, char)
        width = self._widths.get(key)  # in thousandths of an em
        if width is None:
            ok = style.font and _glyph_width(style.font, ord(char), 1000.0, self._float)
            width = self._widths[key] = float(self._float.value) if ok else 0.0
        return float(width * style.advance)

    def walk(self, page: int) -> None:
        """Learn the page's text objects, and the matrices of those inside form XObjects
        (which `style` needs): call it before the others."""
        self._objects = _text_objects(page, _IDENTITY, False)
        self._outer = {obj: matrix for obj, matrix in self._objects if matrix is not _IDENTITY}

    def inkless_runs(self, top: float) -> tuple[list[Run], int]:
        """Spaces the PDF draws as lone text objects, which PDFium's text page leaves
        out; and how many zero-width characters were among them. Call it after the
        text page is read: an object whose style was asked for is on it.

        PDFium gives no access to such an object's characters, so one that the
        next text object starts on (zero advance; raised or lowered by less than
        half the larger size, as around a superscript) is taken for a zero-width
        character, any other for a space.
        """
        runs: list[Run] = []
        zero_width = 0
        left, bottom, right, upper = self._floats
        on_text_page = self._styles
        pending: tuple[float, float, float] | None = None
        for obj, matrix in self._objects:
            if pending is not None:
                x, y = self._position(obj, matrix)
                px, py, size = pending
                if abs(x - px) < INKLESS and abs(y - py) < max(size, self._size(obj, matrix)) / 2:
                    zero_width += 1
                else:
                    runs.append(Run(" ", px, px, top - py, size, False, False))
                pending = None
            if obj in on_text_page:
                continue
            _bounds(obj, left, bottom, right, upper)
            if abs(right.value - left.value) < INKLESS:
                pending = (*self._position(obj, matrix), self._size(obj, matrix))
        if pending is not None:
            px, py, size = pending
            runs.append(Run(" ", px, px, top - py, size, False, False))
        return runs, zero_width

    def _position(self, obj: int, matrix: Matrix) -> tuple[float, float]:
        _matrix(obj, self._m)
        a, b, c, d, e, f = matrix
        x, y = self._m.e, self._m.f
        return x * a + y * c + e, x * b + y * d + f

    def _size(self, obj: int, matrix: Matrix) -> float:
        _font_size(obj, self._float)
        _matrix(obj, self._m)
        return float(self._float.value) * abs(float(self._m.d) * matrix[3])


def _text_objects(holder: int, matrix: Matrix, form: bool) -> list[tuple[int, Matrix]]:
    """Text objects in content order, form XObjects entered, with the matrix to the page."""
    count = (_count_form_objects if form else _count_page_objects)(holder)
    get = _form_object if form else _page_object
    found: list[tuple[int, Matrix]] = []
    for index in range(count):
        obj = get(holder, index)
        kind = _object_type(obj)
        if kind == _TEXT:
            found.append((obj, matrix))
        elif kind == _FORM:
            m = pdfium_c.FS_MATRIX()
            _matrix(obj, m)
            inner = _multiply((m.a, m.b, m.c, m.d, m.e, m.f), matrix)
            found.extend(_text_objects(obj, inner, True))
    return found


def _multiply(inner: Matrix, outer: Matrix) -> Matrix:
    a, b, c, d, e, f = inner
    p, q, r, s, t, u = outer
    return (
        a * p + b * r,
        a * q + b * s,
        c * p + d * r,
        c * q + d * s,
        e * p + f * r + t,
        e * q + f * s + u,
    )
