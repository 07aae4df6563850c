"""`fab-cr` PDF title pages of releases it has not seen: a two-part version (`3.0`) and a
date written out, alone or in an `Effective:` statement, read as the 2.14.0 form is."""

from __future__ import annotations

import pytest

from pipeline.errors import ParseError
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.models.records import ParseOptions
from pipeline.parse.fab import cr as fab
from tests.support.pdfgen import build_pdf

RULE = (
    "A player may play a card from their hand during their action phase if they have the "
    "resources to pay for it and nothing prevents it. "
)
BODY = [
    ("1", "Game Concepts"),
    ("1.0", "General"),
    ("1.0.1", RULE),
    ("1.0.1a", RULE),
    ("1.1", "Players"),
    ("1.1.1", RULE),
]


def title_page(*lines: str) -> tuple[str | None, str | None, str | None]:
    pdf = build_pdf(BODY, title_lines=[(text, 14.0) for text in lines])
    doc = fab.parse(extract_pdf_lines(pdf.pdf).lines, {}, ParseOptions("fab/cr", "pdf"))
    assert [r.id for r in doc.records] == [
        "cr:1",
        "cr:1.0",
        "cr:1.0.1",
        "cr:1.0.1a",
        "cr:1.1",
        "cr:1.1.1",
    ]
    return doc.title, doc.version, doc.published


@pytest.mark.parametrize(
    ("lines", "version", "published"),
    [
        (("Comprehensive Rules", "Version 3.0", "2027-1-15"), "3.0", "2027-01-15"),
        (("Comprehensive Rules", "Version 3.0.0", "January 15, 2027"), "3.0.0", "2027-01-15"),
        (("Comprehensive Rules", "3.1", "Effective: 15 January 2027"), "3.1", "2027-01-15"),
        (("Comprehensive Rules", "Version 2.14.0", "2026-6-10"), "2.14.0", "2026-06-10"),
    ],
)
def test_the_title_page_of_a_next_release_is_read(
    lines: tuple[str, ...], version: str, published: str
) -> None:
    assert title_page(*lines) == ("Comprehensive Rules", version, published)


def test_a_title_page_date_that_is_no_date_is_still_refused() -> None:
    with pytest.raises(ParseError, match="lacks a date"):
        title_page("Comprehensive Rules", "Version 3.0", "Effective: Smarch 40, 2027")
