"""NISEI Netrunner Comprehensive Rules PDFs 1.1, 1.2, 1.4 (each PDF extracted once per session)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.pdflines import PdfText
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.netrunner import cr as netrunner
from pipeline.parse.numbered.statements import read_date as parse_date

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

find_references = netrunner.ENGINE.references.find

SOURCES = (
    Path(__file__).resolve().parents[2].parent
    / "shared"
    / "sources"
    / "netrunner"
    / "comprehensive-rules"
)
PDFS = {
    "1.1": SOURCES / "1.1" / "Comprehensive_Rules_1.1.pdf",
    "1.2": SOURCES / "1.2" / "Comprehensive_Rules_1.2.pdf",
    "1.4": SOURCES / "1.4" / "Comprehensive_Rules.pdf",
}


@cache
def extracted(version: str) -> PdfText:
    return extract_pdf_lines(PDFS[version].read_bytes())


@cache
def parsed(version: str) -> Document:
    pdf = extracted(version)
    return netrunner.parse(pdf.lines, pdf.notes, ParseOptions("netrunner/cr", "pdf"))


def body_lines(lines: list[Line]) -> list[Line]:
    """The lines between the end of the table of contents and the revision appendix.

    Found independently of the parser: the table of contents ends at the
    first `1. ` line in the largest heading font after its own heading.
    """
    toc = next(i for i, ln in enumerate(lines) if ln.text == "Table of Contents")
    chapter_font = (lines[toc].size or 0) * 0.95
    start = next(
        i
        for i, ln in enumerate(lines)
        if i > toc and ln.text.startswith("1. ") and (ln.size or 0) >= chapter_font
    )
    end = next(
        (
            i
            for i, ln in enumerate(lines)
            if i > start
            and ln.text.endswith("Appendix: Previous Revision")
            and (ln.size or 0) >= chapter_font
        ),
        len(lines),
    )
    return lines[start:end]


def independent_counts(version: str) -> dict[str, int]:
    body = body_lines(extracted(version).lines)
    rules = {ln.text.split(" ", 1)[0] for ln in body if re.match(r"\d+\.\d+\.\d+\. ", ln.text)}
    # Lettered subrules: `a. ` at the item indent, left of the wrapped-line indent.
    subrules = [ln for ln in body if re.match(r"[a-z]\. ", ln.text) and (ln.x0 or 0) < 150]
    sections = {ln.text.split(" ", 1)[0] for ln in body if re.match(r"\d+\.\d+\. ", ln.text)}
    return {"rules": len(rules), "subrules": len(subrules), "sections": len(sections)}


@pytest.mark.parametrize("version", ["1.1", "1.2"])
def test_parses_without_warnings(version: str) -> None:
    doc = parsed(version)
    assert doc.warnings == []
    assert doc.version == version


def test_1_4_records_its_own_stale_references_as_errata() -> None:
    """1.4 cites rules it does not contain (e.g. 9.1.12, stale): reviewed publisher defects
    (parse/errata.py), recorded on the document; nothing is a warning."""
    doc = parsed("1.4")
    assert doc.warnings == []
    body = "\n".join(ln.text for ln in body_lines(extracted("1.4").lines))
    for erratum in doc.publisher_errata:
        target = erratum.cites.removeprefix("cr:")
        rule, letter = re.match(r"([\d.]+?)([a-z]?)$", target).groups()  # type: ignore[union-attr]
        assert not re.search(rf"(?m)^{re.escape(rule)}\. ", body) or letter, target
    assert len(doc.publisher_errata) == 4


@pytest.mark.parametrize("version", ["1.1", "1.2", "1.4"])
def test_counts_match_an_independent_count(version: str) -> None:
    doc = parsed(version)
    for kind, count in independent_counts(version).items():
        assert doc.counts[kind] == count, kind


def test_1_4_version_and_dates_from_page_one() -> None:
    doc = parsed("1.4")
    assert (doc.version, doc.effective) == ("1.4", "2019-12-20")
    assert doc.title == "NISEI Comprehensive Rules Document"
    assert parsed("1.1").effective == "2018-11-16"  # written "November 16, 2018"
    assert parsed("1.2").effective == "2019-03-18"


def test_zero_width_spaces_removed_and_counted() -> None:
    doc = parsed("1.4")
    assert doc.extraction["zero_width_removed"] == 1650
    assert all("\u200b" not in r.text and "\u200b" not in "".join(r.examples) for r in doc.records)


def test_table_of_contents_is_not_parsed_as_rules() -> None:
    doc = parsed("1.4")
    assert doc.records[0].id == "cr:1"
    toc_pages = {ln.page for ln in extracted("1.4").lines if ln.text == "Table of Contents"}
    first_body_page = doc.records[0].location.page or 0
    assert all((r.location.page or 0) >= first_body_page for r in doc.records)
    assert max(toc_pages) < first_body_page
    assert len({r.id for r in doc.records}) == len(doc.records)


def test_ids_tree_examples_and_wraps() -> None:
    by_id = {r.id: r for r in parsed("1.4").records}
    assert by_id["cr:1"].title == "Game Concepts" and by_id["cr:1"].kind == "chapter"
    assert by_id["cr:1.2"].title == "The Golden Rules" and by_id["cr:1.2"].parent == "cr:1"
    sub = by_id["cr:1.5.4d"]
    assert (sub.kind, sub.parent, sub.depth) == ("subrule", "cr:1.5.4", 4)
    golden = by_id["cr:1.2.2"]
    assert golden.text == (
        "If a rule or ability directs something to happen, but another effect states "
        "that it cannot happen, the “cannot” ability takes precedence."
    )
    assert by_id["cr:1.2.2b"].examples[0].startswith("During a run, Lockdown’s subroutine resolves")
    assert all("Example" not in r.text[:8] for r in by_id.values())
    assert len(by_id["cr:1.2.5"].examples) == 3
    assert not any(re.search(r"- \d+ -", r.text) for r in by_id.values()), "page numbers leaked"
    assert by_id["cr:1.3.3"].references == ["cr:1.10"]


def test_highlighted_records_follow_the_orange_text() -> None:
    by_id = {r.id: r for r in parsed("1.4").records}
    assert (
        by_id["cr:1.3.10"].highlighted is True
    )  # new in 1.4: "the interrupt symbol (rule 1.3.10)"
    assert by_id["cr:1.3.9"].highlighted is False
    highlighted_lines = sum(1 for ln in body_lines(extracted("1.4").lines) if ln.highlight)
    assert highlighted_lines > 0 and parsed("1.4").counts["highlighted"] > 0
    assert parsed("1.1").counts["highlighted"] < parsed("1.4").counts["highlighted"]


def test_summary_of_changes() -> None:
    changes = parsed("1.4").publisher_changes
    texts = [c.text for c in changes]
    interrupts = changes[
        texts.index(
            "Added rules for interrupts (section 9.8) and the interrupt symbol (rule 1.3.10)."
        )
    ]
    assert interrupts.cites == ["cr:9.8", "cr:1.3.10"]
    wrapped = next(
        c for c in changes if c.text.startswith('Expanded the definition of the "source"')
    )
    assert wrapped.text.endswith("moved these rules from section 1.13.5 to section 9.1.3.")
    assert wrapped.cites == ["cr:1.13.5", "cr:9.1.3"]
    # 1.1's page 1 also repeats the summary from 1.0: not part of the changes from 1.0 to 1.1.
    old = parsed("1.1").publisher_changes
    assert len(old) == 5
    assert old[3].cites == ["cr:9.2.7b", "cr:9.2.7c", "cr:9.2.7d"]
    assert any(p.title == "Summary from 1.0" for p in parsed("1.1").front_matter)


def test_back_matter_is_not_rules() -> None:
    doc = parsed("1.4")
    titles = [p.title for p in doc.back_matter]
    assert titles == ["Summary from 1.3", "Acknowledgements"]
    assert not any(r.id.startswith("cr:13.") for r in doc.records)


def test_reference_forms() -> None:
    assert find_references("see rule 9.11.2c, section 6.8.2 and step 6.9.3b") == [
        "cr:9.11.2c",
        "cr:6.8.2",
        "cr:6.9.3b",
    ]
    assert find_references("(Rule 1.10.3c) and rules 1.15.4a and 1.15.4b") == [
        "cr:1.10.3c",
        "cr:1.15.4a",
        "cr:1.15.4b",
    ]
    assert find_references("Added definitions in rules 9.2.7b, c, and d for") == [
        "cr:9.2.7b",
        "cr:9.2.7c",
        "cr:9.2.7d",
    ]
    assert find_references("section 9 (Abilities). Section 7 details accessing") == ["cr:9", "cr:7"]
    assert find_references("Limit 1 per deck, 3 rules apply") == []


def test_dates() -> None:
    assert parse_date("20 December 2019") == "2019-12-20"
    assert parse_date("November 16, 2018") == "2018-11-16"
    assert parse_date("sometime soon") is None


def test_parse_is_deterministic() -> None:
    pdf = extracted("1.1")
    again = netrunner.parse(pdf.lines, pdf.notes, ParseOptions("netrunner/cr", "pdf"))
    assert again.model_dump_json() == parsed("1.1").model_dump_json()


@pytest.mark.parametrize("version", sorted(PDFS))
def test_a_rule_printed_as_a_heading_has_it_as_its_title(version: str) -> None:
    """`4.4.8. HQ` on a line of its own, `HQ stands for …` under it: a title and its text (the
    parser once joined them into `HQ HQ stands for …`); a heading over subrules alone
    (`3.6.5. Regions`) is a title with no text; a heading's citation is a reference."""
    by_id = {r.id: r for r in parsed(version).records}
    hq, archives, regions = by_id["cr:4.4.8"], by_id["cr:4.5.6"], by_id["cr:3.6.5"]
    assert (hq.title, hq.text.split(".")[0]) == ("HQ", "HQ stands for Headquarters")
    assert (archives.title, archives.text.split(" ")[:2]) == (
        "Archives",
        ["Archives", "represents"],
    )
    assert (regions.title, regions.text) == ("Regions", "")
    assert by_id["cr:3.6.5a"].text.startswith("Some upgrades have the subtype region.")
    turn = by_id["cr:12.2.1"]
    assert (turn.title, turn.references) == ("Corp’s Turn (Section 5.6)", ["cr:5.6"])
    # a rule whose first line is a sentence stays text, however short its first line
    assert (
        by_id["cr:4.4.5"].title is None
        and by_id["cr:4.4.5"].text == "Cards in a hand are inactive."
    )
