"""A two-column PDF made for the tests (reportlab, invariant output: same bytes every run)."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import letter
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
