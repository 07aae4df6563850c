"""PDFium's page objects for the PDFium engine: text object styles, the inkless objects
its text page leaves out, and the 32-bit floats it measures in.

Calls go through prototypes that take and return plain addresses: the engine
makes a few hundred thousand calls a document, and pypdfium2's typed bindings
build pointer objects on every one.
"""

from __future__ import annotations

import ctypes
import math
import struct
from collections.abc import Callable
from itertools import repeat
from typing import Any, NamedTuple

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from pipeline.extract.pdflines import Run, is_bold_font, is_highlight_colour

_ADDRESS = ctypes.c_void_p
_FLOAT_P = ctypes.POINTER(ctypes.c_float)


def _c(function: Any, restype: Any, *argtypes: Any) -> Callable[..., Any]:
    """A pypdfium2.raw binding re-declared with address arguments and result."""
    address = ctypes.cast(function, ctypes.c_void_p).value or 0
    prototype: Callable[..., Any] = ctypes.CFUNCTYPE(restype, *argtypes)(address)
    return prototype


def _unconverted(function: Any, restype: Any) -> Callable[..., Any]:
    """A pypdfium2.raw binding that converts none of its arguments: each handle or address
    must be given as a `Handle` (ctypes would pass a plain int as a 32-bit int), each C
    int as an int. The text page's three calls below are made some 440,000 times a
    document, and each skips the conversions a declared binding makes."""
    address = ctypes.cast(function, ctypes.c_void_p).value or 0
    prototype: Callable[..., Any] = ctypes.CFUNCTYPE(restype)(address)
    return prototype


Handle = ctypes.c_void_p
_INT = ctypes.c_int
# (textpage: Handle, index: int) -> the FPDF_PAGEOBJECT's address (int), or None
text_object = _unconverted(pdfium_c.FPDFText_GetTextObject, _ADDRESS)
# (textpage: Handle, index: int) -> int
is_generated = _unconverted(pdfium_c.FPDFText_IsGenerated, _INT)
is_hyphen = _c(pdfium_c.FPDFText_IsHyphen, _INT, _ADDRESS, _INT)
# (textpage: Handle, index: int, x: Handle, y: Handle) -> int: the origin is written to
# two doubles given by address (a preallocated array's).
char_origin = _unconverted(pdfium_c.FPDFText_GetCharOrigin, _INT)
count_chars = _c(pdfium_c.FPDFText_CountChars, _INT, _ADDRESS)
get_text = _c(
    pdfium_c.FPDFText_GetText, _INT, _ADDRESS, _INT, _INT, ctypes.POINTER(ctypes.c_ushort)
)
get_unicode = _c(pdfium_c.FPDFText_GetUnicode, ctypes.c_uint, _ADDRESS, _INT)
load_page = _c(pdfium_c.FPDF_LoadPage, _ADDRESS, _ADDRESS, _INT)
close_page = _c(pdfium_c.FPDF_ClosePage, None, _ADDRESS)
load_textpage = _c(pdfium_c.FPDFText_LoadPage, _ADDRESS, _ADDRESS)
close_textpage = _c(pdfium_c.FPDFText_ClosePage, None, _ADDRESS)
_media_box = _c(
    pdfium_c.FPDFPage_GetMediaBox, _INT, _ADDRESS, _FLOAT_P, _FLOAT_P, _FLOAT_P, _FLOAT_P
)
_count_page_objects = _c(pdfium_c.FPDFPage_CountObjects, _INT, _ADDRESS)
_page_object = _c(pdfium_c.FPDFPage_GetObject, _ADDRESS, _ADDRESS, _INT)
_count_form_objects = _c(pdfium_c.FPDFFormObj_CountObjects, _INT, _ADDRESS)
_form_object = _c(pdfium_c.FPDFFormObj_GetObject, _ADDRESS, _ADDRESS, ctypes.c_ulong)
_object_type = _c(pdfium_c.FPDFPageObj_GetType, _INT, _ADDRESS)
# Results are written to preallocated ctypes arrays given by address (`Buffers`), which
# are then read with one slice instead of an attribute access per number.
_bounds = _c(pdfium_c.FPDFPageObj_GetBounds, _INT, _ADDRESS, *[_ADDRESS] * 4)
_matrix = _c(pdfium_c.FPDFPageObj_GetMatrix, _INT, _ADDRESS, _ADDRESS)  # FS_MATRIX: 6 floats
_font_size = _c(pdfium_c.FPDFTextObj_GetFontSize, _INT, _ADDRESS, _ADDRESS)
_font = _c(pdfium_c.FPDFTextObj_GetFont, _ADDRESS, _ADDRESS)
_fill = _c(pdfium_c.FPDFPageObj_GetFillColor, _INT, _ADDRESS, *[_ADDRESS] * 4)
_glyph_width = _c(
    pdfium_c.FPDFFont_GetGlyphWidth, _INT, _ADDRESS, ctypes.c_uint, ctypes.c_float, _ADDRESS
)
# FPDFFont_GetBaseFontName is PDFium's newer name for the same call (pypdfium2 5).
_font_name = _c(
    getattr(pdfium_c, "FPDFFont_GetBaseFontName", None) or pdfium_c.FPDFFont_GetFontName,
    ctypes.c_size_t,
    _ADDRESS,
    ctypes.c_char_p,
    ctypes.c_size_t,
)


def media_box(page: int) -> tuple[float, float, float, float]:
    """The page's MediaBox; US Letter when it has none, as pypdfium2's get_mediabox."""
    box = [ctypes.c_float() for _ in range(4)]
    if not _media_box(page, *box):
        return (0.0, 0.0, 612.0, 792.0)
    left, bottom, right, top = (float(side.value) for side in box)
    return (left, bottom, right, top)


_TEXT = pdfium_c.FPDF_PAGEOBJ_TEXT
_FORM = pdfium_c.FPDF_PAGEOBJ_FORM
# An object narrower than this is one PDFium's text page leaves out (its kSizeEpsilon).
INKLESS = 0.01

Matrix = tuple[float, float, float, float, float, float]
# The buffers PDFium writes an FS_MATRIX and an RGBA colour to, read in one call each.
_MATRIX = struct.Struct("6f")
_RGBA = struct.Struct("4I")
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
        self._float = (ctypes.c_float * 1)()
        self._floatp = ctypes.addressof(self._float)
        self._box = (ctypes.c_float * 4)()
        self._boxp = _addresses(self._box)
        self._rgba = (ctypes.c_uint * 4)()
        self._rgbap = _addresses(self._rgba)
        self._m = (ctypes.c_float * 6)()  # an FS_MATRIX: a, b, c, d, e, f
        self._mp = ctypes.addressof(self._m)
        self.styles: dict[int, Style] = {}
        self._kinds: dict[tuple[Any, ...], Style] = {}
        self._names: dict[int, str] = {}
        self.widths: dict[tuple[int, str], float] = {}
        # The page's text objects in content order, with their matrices to the page;
        # those inside form XObjects by themselves too.
        self._objects: list[tuple[int, Matrix]] = []
        self._outer: dict[int, Matrix] = {}

    def style(self, obj: int) -> Style:
        """The style of a text object not yet asked about (remembered in `styles`)."""
        _font_size(obj, self._floatp)
        _matrix(obj, self._mp)
        _fill(obj, *self._rgbap)
        font = _font(obj) or 0
        ma, mb, mc, md, _, _ = _MATRIX.unpack_from(self._m)
        outer = self._outer.get(obj)
        if outer is not None:
            p, q, s, t = outer[:4]
            ma, mb, mc, md = ma * p + mb * s, ma * q + mb * t, mc * p + md * s, mc * q + md * t
        font_size = self._float[0]
        r, g, b, _ = _RGBA.unpack_from(self._rgba)
        key = (font, font_size, ma, mb, mc, md, r, g, b)
        style = self._kinds.get(key)
        if style is None:
            colour = (r / 255, g / 255, b / 255)
            style = self._kinds[key] = Style(
                font=font,
                advance=font_size * ma / 1000,
                size=font_size * abs(md),
                bold=is_bold_font(self.font_name(font)),
                highlight=is_highlight_colour(colour),
                upright=mb == 0 and mc == 0 and ma > 0 and md > 0,
            )
        self.styles[obj] = style
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

    def width(self, font: int, char: str) -> float:
        """The font's advance width for `char`, in thousandths of an em (remembered in
        `widths`); 0 without a font."""
        ok = font and _glyph_width(font, ord(char), 1000.0, self._floatp)
        width = self.widths[(font, char)] = self._float[0] if ok else 0.0
        return width

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
        box, boxp = self._box, self._boxp
        objects, on_text_page = self._objects, self.styles
        inkless = []
        for index in [i for i, (obj, _) in enumerate(objects) if obj not in on_text_page]:
            _bounds(objects[index][0], *boxp)
            if abs(box[2] - box[0]) < INKLESS:  # left, bottom, right, top
                inkless.append(index)
        for index in inkless:
            px, py, size = self._place(*objects[index])
            if index + 1 < len(objects):  # the next text object, on the text page or not
                x, y, next_size = self._place(*objects[index + 1])
                if abs(x - px) < INKLESS and abs(y - py) < max(size, next_size) / 2:
                    zero_width += 1
                    continue
            runs.append(Run(" ", px, px, top - py, size, False, False))
        return runs, zero_width

    def _place(self, obj: int, matrix: Matrix) -> tuple[float, float, float]:
        """A text object's origin on the page, and its font size there."""
        _font_size(obj, self._floatp)
        _matrix(obj, self._mp)
        a, b, c, d, e, f = matrix
        _, _, _, md, x, y = _MATRIX.unpack_from(self._m)
        return x * a + y * c + e, x * b + y * d + f, self._float[0] * abs(md * d)


def _addresses(array: Any) -> tuple[int, ...]:
    """The address of each element of a ctypes array."""
    base, size = ctypes.addressof(array), ctypes.sizeof(array._type_)
    return tuple(base + i * size for i in range(len(array)))


def _text_objects(holder: int, matrix: Matrix, form: bool) -> list[tuple[int, Matrix]]:
    """Text objects in content order, form XObjects entered, with the matrix to the page."""
    count = (_count_form_objects if form else _count_page_objects)(holder)
    get = _form_object if form else _page_object
    found: list[tuple[int, Matrix]] = []
    objects = list(map(get, repeat(holder, count), range(count)))
    for obj, kind in zip(objects, map(_object_type, objects), strict=True):
        if kind == _TEXT:
            found.append((obj, matrix))
        elif kind == _FORM:
            m = (ctypes.c_float * 6)()
            _matrix(obj, ctypes.addressof(m))
            a, b, c, d, e, f = m
            inner = _multiply((a, b, c, d, e, f), matrix)
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
