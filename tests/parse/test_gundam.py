"""Gundam Card Game Comprehensive Rules 1.6.0 (Bandai's PDF) through its example registry
entry alone: hyphen numbering, chapters set `1)` in the body and `1.` in the contents,
page numbers alone at each page's foot, wrapped citations (`(see 9-1-` / `7) that …`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pipeline.extract.pdf import extract_pdf_lines
from tests.support.helpers import parse_example

CHAPTER = re.compile(r"^(\d+)\) [A-Z]")
RULE = re.compile(r"^(\d+(?:-\d+)+)\. ")


@pytest.fixture(scope="module")
def gundam() -> tuple[Any, list[Any]]:
    doc, data = parse_example("gundam")
    return doc, extract_pdf_lines(data).lines


def test_every_numbered_line_of_the_body_is_one_record(gundam: tuple[Any, list[Any]]) -> None:
    doc, lines = gundam
    body = [ln for ln in lines if not ln.text.startswith(("・", "●"))]
    start = next(i for i, ln in enumerate(body) if ln.text == "Comprehensive Rules")
    printed = [
        m.group(1) for ln in body[start:] if (m := CHAPTER.match(ln.text) or RULE.match(ln.text))
    ]
    assert [r.number for r in doc.records] == printed
    assert doc.counts["chapters"] == 13


def test_the_contents_are_skipped_and_counted(gundam: tuple[Any, list[Any]]) -> None:
    doc, lines = gundam
    contents = [ln for ln in lines if ln.page == 1 and re.match(r"^\d+\. [A-Z]", ln.text)]
    assert doc.counts["contents_entries"] == len(contents) == 13
    assert doc.records[0].title == "Game Overview"
    assert not any("Table of Contents" in (r.title or "") + r.text for r in doc.records)


def test_no_page_number_is_inside_a_record(gundam: tuple[Any, list[Any]]) -> None:
    doc, lines = gundam
    pages = max(ln.page for ln in lines)
    feet = {ln.line for ln in lines if ln.text.strip() == str(ln.page)}
    assert len(feet) == pages == doc.counts["furniture_lines"]
    for record in doc.records:
        end = record.location.end_page or record.location.page
        for page in range(record.location.page, end):
            # the foot of `page` fell between two lines of this record
            assert not re.search(rf"\s{page}\s", record.text), (record.id, record.text)


def test_a_citation_wrapped_to_a_line_start_stays_text(gundam: tuple[Any, list[Any]]) -> None:
    doc, _ = gundam
    by_id = {r.id: r for r in doc.records}
    assert "(see 9-1-7) that can only be activated" in by_id["cr:13-2-2-1"].text
    assert "(See 11. Rules Management)" in by_id["cr:1-2-3"].text


def test_version_date_and_change_log(gundam: tuple[Any, list[Any]]) -> None:
    doc, _ = gundam
    assert (doc.version, doc.published) == ("1.6.0", "2026-04-09")
    assert doc.title == "Gundam Card Game Comprehensive Rules"
    (log,) = doc.back_matter
    assert log.title.startswith("Ver. 1.6.0 (April 9, 2026) Update")


def test_nothing_is_misread(gundam: tuple[Any, list[Any]]) -> None:
    doc, _ = gundam
    assert doc.warnings == []
