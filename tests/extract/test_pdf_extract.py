"""The PDF extractor: lines with positions, zero-width spaces counted, every page read in
order, with either engine."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from pipeline.errors import ExtractError
from pipeline.extract import pdf as extract
from pipeline.extract import pdfium
from tests.support.helpers import ROOT

# Enough pages that an order kept within a page only would show.
PAGES = 29


def make_pdf(pages: int) -> bytes:
    # Vera ships with reportlab. (Zero-width spaces are tested on the real NISEI PDFs:
    # no font reportlab ships has a glyph for U+200B.)
    pdfmetrics.registerFont(TTFont("Vera", "Vera.ttf"))
    pdfmetrics.registerFont(TTFont("VeraBd", "VeraBd.ttf"))
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=letter, invariant=1)
    for page in range(1, pages + 1):
        c.setFont("Vera", 11)
        c.drawString(72, 700, f"{page}.1. Rule on page {page} with a (coloured) word.")
        c.drawString(90, 686, "a. A lettered subrule, indented.")
        c.setFont("VeraBd", 11)
        c.drawString(72, 660, f"Heading {page}")
        c.setFillColorRGB(0.71, 0.37, 0.02)
        c.drawString(72, 640, "Changed text in orange.")
        c.setFillColorRGB(0, 0, 0)
        c.drawString(300, 40, f"- {page} -")
        c.showPage()
    c.save()
    return buffer.getvalue()


@pytest.mark.parametrize("engine", extract.ENGINES)
def test_every_page_is_read_in_page_order(engine: str) -> None:
    result = extract.extract_pdf_lines(make_pdf(PAGES), engine=engine)
    assert result.pages == PAGES
    assert [line.text for line in result.lines if line.text.startswith("Heading")] == [
        f"Heading {page}" for page in range(1, PAGES + 1)
    ]
    assert [line.page for line in result.lines] == sorted(line.page for line in result.lines)
    assert [line.line for line in result.lines] == list(range(1, len(result.lines) + 1))
    assert result.notes == {"zero_width_removed": 0}
    assert result.engine == engine and result.engine_version


@pytest.mark.parametrize("engine", extract.ENGINES)
def test_lines_carry_page_position_weight_and_highlight(engine: str) -> None:
    result = extract.extract_pdf_lines(make_pdf(2), engine=engine)
    first = result.lines[0]
    assert first.text == "1.1. Rule on page 1 with a (coloured) word."
    assert (first.page, first.x0, first.bold, first.highlight) == (1, 72.0, False, False)
    sub = result.lines[1]
    assert sub.text.startswith("a. ") and sub.x0 == 90.0
    assert [line.bold for line in result.lines[:3]] == [False, False, True]
    assert [line.highlight for line in result.lines[:4]] == [False, False, False, True]
    assert result.lines[4].text == "- 1 -" and result.lines[5].page == 2


def test_the_default_engine_never_imports_pdfplumber(tmp_path: Path) -> None:
    """pdfplumber and pdfminer cost 0.15 s to import: only the pdfplumber engine may."""
    pdf = tmp_path / "one.pdf"
    page = canvas.Canvas(str(pdf))
    page.drawString(72, 720, "1.1. A rule.")
    page.save()
    code = (
        "import sys; from pipeline.runner.families import parse_bytes\n"
        "from pipeline.extract.pdf import extract_pdf_lines\n"
        f"text = extract_pdf_lines(open({str(pdf)!r}, 'rb').read())\n"
        "print(len(text.lines), sorted(m for m in ('pdfplumber', 'pdfminer') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.stdout.strip() == "1 []", done.stdout + done.stderr


def test_the_bench_floor_loads_every_page_the_engine_reads() -> None:
    # `make bench`'s row for PDFium's own part: every page loaded, nothing read.
    data = make_pdf(PAGES)
    assert pdfium.load_pdf_pages_pdfium(data, what="floor.pdf") == PAGES
    assert pdfium.extract_pdf_lines_pdfium(data, what="floor.pdf").pages == PAGES


def test_the_bench_floor_names_the_file_it_cannot_open() -> None:
    with pytest.raises(ExtractError, match=r"broken\.pdf.*cannot open PDF"):
        pdfium.load_pdf_pages_pdfium(b"%PDF-1.7 not really", what="broken.pdf")


def simulated_bold_pdf() -> bytes:
    """A rule drawn twice 0.3 pt apart (simulated bold), and a line whose one word is
    drawn again over itself."""
    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, pagesize=letter, invariant=1)
    page.setFont("Helvetica", 10)
    rule = "1-1-1. Undamaged – a Unit with no damage on it is undamaged."
    page.drawString(72, 700, rule)
    page.drawString(72.3, 700, rule)
    head = "1-1-2. A rule with "
    page.drawString(72, 680, head + "one word drawn twice.")
    page.drawString(72.3 + pdfmetrics.stringWidth(head, "Helvetica", 10), 680, "one")
    page.showPage()
    page.save()
    return buffer.getvalue()


@pytest.mark.parametrize("engine", extract.ENGINES)
def test_glyphs_drawn_twice_in_place_are_read_once(engine: str) -> None:
    """Simulated bold came out doubled ("UUnnddaammaaggeedd", "one wordone"): a glyph drawn
    again at nearly the place of the same glyph is one glyph, as pdftotext reads it."""
    lines = extract.extract_pdf_lines(simulated_bold_pdf(), engine=engine).lines
    assert [line.text for line in lines] == [
        "1-1-1. Undamaged – a Unit with no damage on it is undamaged.",
        "1-1-2. A rule with one word drawn twice.",
    ]
