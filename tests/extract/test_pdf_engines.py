"""The two PDF engines (PDFium, the default, and pdfplumber) read the same lines.

Every PDF in ../shared/sources is read by both: text, page, order, weight,
highlight and the zero-width count must be identical, and so must the
Document its family parses from them. Positions and sizes must agree to one
unit of their two-place rounding: PDFium computes in 32-bit floats and
pdfminer (under pdfplumber) in doubles, so a value within a float's noise of
a rounding edge lands on either side. Whatever differs beyond that is listed,
with its reason, in fixtures/pdf-engine-differences.toml. A PDF the tests
write themselves pins down the cases the real ones rely on, for both engines.

pdfplumber reads a page in about a second, so an older release of a document whose
newest release is compared whole (same publisher, same layout) is compared on a sample
of its pages (the first, every seventh, the last), copied into a PDF of their own.
"""

from __future__ import annotations

import functools
import io
import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest

from pipeline.errors import ExtractError, UsageError
from pipeline.extract.pdf import ENGINES, extract_pdf_lines
from pipeline.extract.pdflines import PdfText
from pipeline.models.content import Line
from pipeline.models.sources import Source
from pipeline.registry.loader import load_registry
from pipeline.runner.families import engine_neutral, parse_bytes
from pipeline.runner.family_names import NAMES
from pipeline.runner.request import request_for
from tests.support.helpers import SHARED
from tests.support.twocolumn import make_two_column_pdf

MANIFEST = SHARED / "manifest.json"
DIFFERENCES = Path(__file__).parent / "fixtures" / "pdf-engine-differences.toml"
# One unit of the two-place rounding, and a hair for the float arithmetic of the check.
ROUNDING = 0.01 + 1e-9


def real_pdfs() -> list[str]:
    if not MANIFEST.exists():
        return []
    entries = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return [e["path"] for e in entries if e["format"] == "pdf"]


@functools.cache
def manifest_entry(path: str) -> dict[str, Any]:
    entries = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return next(e for e in entries if e["path"] == path)


def sampled_pages(path: str) -> list[int] | None:
    """The 0-based pages an older release is compared on; None for the newest of its
    document, which is compared whole (with the Document its family parses)."""
    entries = json.loads(MANIFEST.read_text(encoding="utf-8"))
    entry = manifest_entry(path)
    releases = [
        e
        for e in entries
        if (e["game"], e["document"], e["format"]) == (entry["game"], entry["document"], "pdf")
    ]
    newest = max(releases, key=lambda e: (e.get("date") or "", e["path"]))
    if newest["path"] == path:
        return None
    count = len(pdfium.PdfDocument(SHARED / path))
    return sorted({0, 1, 2, count - 1, *range(0, count, 7)})


def sample_pdf(data: bytes, pages: list[int]) -> bytes:
    """A PDF of these pages of `data`, in order."""
    source, sample = pdfium.PdfDocument(data), pdfium.PdfDocument.new()
    sample.import_pages(source, pages)
    out = io.BytesIO()
    sample.save(out)
    return out.getvalue()


@functools.cache
def extracted(path: str, engine: str) -> PdfText:
    data = (SHARED / path).read_bytes()
    pages = sampled_pages(path)
    if pages is None:
        return extract_pdf_lines(data, what=path, engine=engine)
    text = extract_pdf_lines(sample_pdf(data, pages), what=path, engine=engine)
    # the sample's page k is the document's page pages[k - 1] + 1
    text.lines = [
        line.model_copy(update={"page": pages[(line.page or 1) - 1] + 1}) for line in text.lines
    ]
    return text


def listed_differences() -> dict[tuple[str, int, str, str], str]:
    """(file, page, pdfplumber's text, pdfium's text) -> reason."""
    data = tomllib.loads(DIFFERENCES.read_text(encoding="utf-8"))
    listed: dict[tuple[str, int, str, str], str] = {}
    for entry in data.get("difference", []):
        assert set(entry) == {"file", "page", "pdfplumber", "pdfium", "reason"}, entry
        assert entry["reason"].strip(), f"{entry['file']}: a listed difference needs a reason"
        key = (entry["file"], entry["page"], entry["pdfplumber"], entry["pdfium"])
        listed[key] = entry["reason"]
    return listed


def differences(a: list[Line], b: list[Line]) -> list[tuple[int, str, str, str]]:
    """(page, text in a, text in b, what differs) for lines that differ beyond rounding."""
    assert len(a) == len(b), f"{len(a)} lines against {len(b)}"
    found = []
    for x, y in zip(a, b, strict=True):
        what = [
            name
            for name in ("page", "text", "bold", "highlight", "line")
            if getattr(x, name) != getattr(y, name)
        ]
        what += [
            f"{name} {getattr(x, name)} / {getattr(y, name)}"
            for name in ("x0", "top", "size")
            if abs((getattr(x, name) or 0.0) - (getattr(y, name) or 0.0)) > ROUNDING
        ]
        if what:
            found.append((x.page or 0, x.text, y.text, ", ".join(what)))
    return found


def pdf_source(path: str) -> Source | None:
    """The registry's PDF source for a manifest entry, if the registry has one."""
    entry = manifest_entry(path)
    for source in load_registry(families=NAMES):
        key = source.manifest
        if (
            source.rendition == "pdf"
            and key is not None
            and (key.game, key.document, key.format) == (entry["game"], entry["document"], "pdf")
            and (key.path_pattern is None or re.search(key.path_pattern, path))
        ):
            return source
    return None


# --------------------------------------------------------------------------- the real PDFs


@pytest.mark.slow
@pytest.mark.second_engine
@pytest.mark.parametrize("path", real_pdfs())
def test_both_engines_read_the_same_lines_and_documents(path: str) -> None:
    pdfium, plumber = extracted(path, "pdfium"), extracted(path, "pdfplumber")
    assert (pdfium.engine, plumber.engine) == ("pdfium", "pdfplumber")
    assert pdfium.pages == plumber.pages
    assert pdfium.notes == plumber.notes
    listed = listed_differences()
    found = differences(plumber.lines, pdfium.lines)
    unlisted = [f for f in found if (path, *f[:3]) not in listed]
    assert unlisted == [], "\n".join(f"page {p}: {a!r} / {b!r}: {w}" for p, a, b, w in unlisted)
    pages = sampled_pages(path)
    compared = {page + 1 for page in pages} if pages is not None else None
    stale = [
        key
        for key in listed
        if key[0] == path
        and (compared is None or key[1] in compared)
        and key[1:] not in {f[:3] for f in found}
    ]
    assert stale == [], f"listed in {DIFFERENCES.name} but no longer different: {stale}"

    source = pdf_source(path)
    if source is None or pages is not None:
        return  # no family parses this document
    data = (SHARED / path).read_bytes()
    request = request_for(source, what=path)
    by_plumber = replace(request, options={**request.options, "engine": "pdfplumber"})
    by_plumber_doc, by_pdfium_doc = parse_bytes(data, by_plumber), parse_bytes(data, request)
    # each names its engine; everything else, spans and character offsets included, agrees
    assert by_plumber_doc.parser.engine == "pdfplumber"
    assert by_pdfium_doc.parser.engine == "pdfium"
    a = engine_neutral(by_plumber_doc).model_dump()
    b = engine_neutral(by_pdfium_doc).model_dump()
    assert a == b


def test_the_differences_file_is_well_formed() -> None:
    files = set(real_pdfs())
    for file, page, _, _ in listed_differences():
        assert not files or file in files, f"{file} is not in the manifest"
        assert page >= 1


# --------------------------------------------------------------------------- a PDF made here


def raw_pdf(pages: list[str]) -> bytes:
    """A PDF of the given content streams, with fonts F1 (Helvetica) and F2
    (Helvetica-Bold) whose code 1 is a zero-width space (glyph uni200B, no advance).

    Written by hand because no font reportlab ships has a zero-width space,
    and because it states every glyph's position exactly.
    """
    widths = " ".join("0" if c == 1 else "250" if c == 32 else "500" for c in range(1, 127))
    encoding = "<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /uni200B] >>"
    fonts = [
        f"<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding {encoding} "
        f"/FirstChar 1 /LastChar 126 /Widths [{widths}] >>"
        for name in ("Helvetica", "Helvetica-Bold")
    ]
    kids = " ".join(f"{5 + 2 * i} 0 R" for i in range(len(pages)))
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>",
        *fonts,
    ]
    for i, content in enumerate(pages):
        objects.append(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {6 + 2 * i} 0 R >>"
        )
        objects.append(f"<< /Length {len(content)} >>\nstream\n{content}\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


# Glyphs are 5 pt wide at 10 pt, spaces 2.5 pt; a gap over 2 pt (0.2 of the size) is a space.
PAGE = "\n".join(
    [
        # A zero-width space inside a word, and one drawn on its own where the next word starts.
        "BT /F1 10 Tf 72 700 Td (zero\\001width inside) Tj ET",
        "BT /F1 10 Tf 72 680 Td (lone) Tj ET BT /F1 10 Tf 92 680 Td (\\001) Tj ET",
        "BT /F1 10 Tf 92 680 Td (zero) Tj ET",
        # A space drawn on its own, the next word 1 pt after it: the space is the PDF's.
        "BT /F1 10 Tf 72 660 Td (lone) Tj ET BT /F1 10 Tf 92 660 Td ( ) Tj ET",
        "BT /F1 10 Tf 93 660 Td (space) Tj ET",
        # Kerned gaps of 1.5, 3, 2.5, 1.9 and 2.1 pt: PDFium guesses a space at each.
        "BT /F1 10 Tf 72 640 Td [(v) -150 (ersion) -300 (of) -250 (60) -190 (x) -210 (y)] TJ ET",
        "BT /F2 10 Tf 72 620 Td (Bold heading) Tj ET",
        "BT /F1 10 Tf 72 600 Td 0.71 0.37 0.02 rg (changed) Tj 0 g ( text) Tj ET",
        "BT /F1 12 Tf 90 580 Td (indented, larger) Tj ET",
    ]
)
EXPECTED = [
    # text, x0, top (baseline minus size), size, bold, highlight
    ("zerowidth inside", 72.0, 82.0, 10.0, False, False),
    ("lonezero", 72.0, 102.0, 10.0, False, False),
    ("lone space", 72.0, 122.0, 10.0, False, False),
    ("version of 60x y", 72.0, 142.0, 10.0, False, False),
    ("Bold heading", 72.0, 162.0, 10.0, True, False),
    ("changed text", 72.0, 182.0, 10.0, False, True),
    ("indented, larger", 90.0, 200.0, 12.0, False, False),
]


@pytest.mark.parametrize("engine", ENGINES)
def test_spacing_weight_highlight_and_zero_width_spaces(engine: str) -> None:
    result = extract_pdf_lines(raw_pdf([PAGE]), engine=engine)
    got = [(ln.text, ln.x0, ln.top, ln.size, ln.bold, ln.highlight) for ln in result.lines]
    assert got == EXPECTED
    assert [ln.line for ln in result.lines] == list(range(1, len(EXPECTED) + 1))
    assert result.notes == {"zero_width_removed": 2}
    assert result.engine == engine and result.engine_version


@pytest.mark.parametrize("engine", ENGINES)
def test_two_columns_read_left_then_right(engine: str) -> None:
    data = make_two_column_pdf([(["a1 left", "a2 left"], ["b1 right", "b2 right"])] * 2)
    columns = [(ln.page, ln.text) for ln in extract_pdf_lines(data, columns=2, engine=engine).lines]
    assert columns == [
        (page, text) for page in (1, 2) for text in ("a1 left", "a2 left", "b1 right", "b2 right")
    ]
    rows = [ln.text for ln in extract_pdf_lines(data, engine=engine).lines]
    assert rows[:2] == ["a1 left b1 right", "a2 left b2 right"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_damaged_pdf_is_an_extract_error_naming_it(engine: str) -> None:
    with pytest.raises(ExtractError, match=r"broken\.pdf"):
        extract_pdf_lines(b"%PDF-1.4\nnot really a PDF", what="broken.pdf", engine=engine)


def test_an_unknown_engine_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="pdfium, pdfplumber"):
        extract_pdf_lines(raw_pdf([PAGE]), engine="poppler")
