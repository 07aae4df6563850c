"""A two-column PDF made for the tests (reportlab, invariant output: same bytes every run)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

LEFT_X = 40.0
RIGHT_X = 320.0
TOP_Y = 740.0
LEADING = 14.0
FONT_SIZE = 9.0


def make_two_column_pdf(
    pages: list[tuple[list[str], list[str]]], font: str = "Helvetica", header: str = ""
) -> bytes:
    """One page per (left column lines, right column lines), each column top to bottom,
    under a `header` line set across the page when there is one. A font other than
    Helvetica is one of reportlab's CID fonts (`HeiseiKakuGo-W5` for Japanese).

    The rows of the two columns share baselines, so a reader that ignores
    the columns interleaves them: that is the failure the tests look for.
    """
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=letter, invariant=1)
    if font != "Helvetica":
        pdfmetrics.registerFont(UnicodeCIDFont(font))
    for left, right in pages:
        pdf.setFont(font, FONT_SIZE)
        if header:
            pdf.drawString(LEFT_X, TOP_Y + 2 * LEADING, header)
        for x, column in ((LEFT_X, left), (RIGHT_X, right)):
            y = TOP_Y
            for text in column:
                pdf.drawString(x, y, text)
                y -= LEADING
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


NO_LINE_START = "。、，）」』"


@dataclass(frozen=True)
class Entry:
    """One paragraph of a flowed document: its number (printed before its text), its text,
    its depth (0: a chapter heading, set larger) and its indentation steps."""

    number: str
    text: str
    depth: int


def flow_lines(entry: Entry, width: float, font: str, size: float) -> list[str]:
    """The entry's lines as a typesetter breaks them to `width`: Japanese and Chinese text
    breaks between any two characters, so every line but the last fills the column."""
    words = f"{entry.number} {entry.text}"
    lines: list[str] = []
    line = ""
    for char in words:
        if line and pdfmetrics.stringWidth(line + char, font, size) > width:
            # no line opens with a closing mark: the character before goes down with it
            carried = line[-1] if char in NO_LINE_START else ""
            lines.append(line[: len(line) - len(carried)])
            line = carried + ("" if char == " " else char)
        else:
            line += char
    return [*lines, line] if line else lines


def make_flowed_two_column_pdf(
    title: list[str], entries: list[Entry], font: str = "HeiseiKakuGo-W5"
) -> bytes:
    """An A4 rules document as a typesetter sets one in two columns: a title page, then the
    entries flowed down the left column and on down the right one, page after page, each
    column filled to its bottom. The columns are narrow and justified (every wrapped line
    reaches the gutter), chapter headings are set larger with space above, subrules are
    indented, and paragraphs are spaced, so the two columns share no baselines."""
    buffer = io.BytesIO()
    width, height = A4
    margin, gutter, size, heading = 42.0, 14.0, 8.0, 10.0
    column = (width - 2 * margin - gutter) / 2
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    pdfmetrics.registerFont(UnicodeCIDFont(font))
    for index, text in enumerate(title):
        pdf.setFont(font, 16 if index == 0 else size)
        pdf.drawString(margin, height / 2 - index * 24, text)
    pdf.showPage()
    top, bottom = height - margin, margin + 20
    x_column, y, page = 0, top, 1

    def footer() -> None:
        pdf.setFont(font, size)
        pdf.drawString(width / 2 - 4, margin, str(page))

    for entry in entries:
        font_size = heading if entry.depth == 0 else size
        indent = 10.0 * max(0, entry.depth - 1)
        lines = flow_lines(entry, column - indent, font, font_size)
        needed = (font_size * 1.6) * len(lines) + (12 if entry.depth == 0 else 3)
        if y - needed < bottom:
            x_column, y = x_column + 1, top
            if x_column == 2:
                footer()
                pdf.showPage()
                x_column, page = 0, page + 1
        y -= 12 if entry.depth == 0 and y < top else 3
        x = margin + x_column * (column + gutter) + indent
        pdf.setFont(font, font_size)
        for text in lines:
            y -= font_size * 1.6
            pdf.drawString(x, y, text)
    footer()
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
