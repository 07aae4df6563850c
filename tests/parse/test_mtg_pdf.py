"""The mtg-cr parser over the PDF rendition, checked record for record against the TXT.

pdfplumber needs minutes for a 300-page PDF, so each real PDF is extracted
once per test session (`extracted` is cached on the path).
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

import pytest

from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.pdflines import PdfText
from pipeline.extract.text import extract_text_lines
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.mtg import cr as mtg
from pipeline.parse.mtg.paragraphs import pdf_paragraphs
from pipeline.verify.checks import compare_renditions
from tests.support.helpers import SHARED

MTG = SHARED / "mtg" / "comprehensive-rules"
PDF_VERSIONS = ["20230414", "20250725", "20251114"]
DIFFERENCES = Path(__file__).parent / "fixtures" / "mtg-rendition-differences.toml"


@functools.cache
def extracted(path: Path) -> PdfText:
    return extract_pdf_lines(path.read_bytes(), what=path.name)


def pdf_doc(version: str) -> Document:
    (path,) = (MTG / version).glob("*.pdf")
    return mtg.parse(extracted(path).lines, {}, ParseOptions("mtg/cr", "pdf"))


@functools.cache
def txt_doc(version: str) -> Document:
    (path,) = (MTG / version).glob("*.txt")
    return mtg.parse(
        extract_text_lines(path.read_bytes(), sentinel=mtg.SENTINEL),
        {},
        ParseOptions("mtg/cr", "txt"),
    )


def listed_differences() -> dict[tuple[str, str], str]:
    """(version, id) -> reason, from the publisher-differences file."""
    data = tomllib.loads(DIFFERENCES.read_text(encoding="utf-8"))
    entries = data.get("difference", [])
    listed: dict[tuple[str, str], str] = {}
    for entry in entries:
        assert set(entry) == {"version", "id", "reason"}, entry
        assert entry["reason"].strip(), f"{entry['id']}: a listed difference needs a reason"
        listed[(entry["version"], entry["id"])] = entry["reason"]
    return listed


def problem_id(problem: str) -> str:
    """compare_renditions starts each line with the record id (`cr:100.1: ...`) or `version:`."""
    return problem.split(": ", 1)[0]


def unlisted_and_stale(
    version: str, problems: list[str], listed: dict[tuple[str, str], str]
) -> tuple[list[str], list[str]]:
    """Disagreements nobody listed, and listed entries for `version` that no longer occur."""
    unlisted = [p for p in problems if (version, problem_id(p)) not in listed]
    occurring = {problem_id(p) for p in problems}
    stale = [i for (v, i) in listed if v == version and i not in occurring]
    return unlisted, stale


@pytest.mark.slow
@pytest.mark.parametrize("version", PDF_VERSIONS)
def test_pdf_agrees_with_txt_record_for_record(version: str) -> None:
    pdf, txt = pdf_doc(version), txt_doc(version)
    assert pdf.warnings == []
    assert pdf.version == txt.version == f"{version[:4]}-{version[4:6]}-{version[6:]}"
    assert pdf.counts == txt.counts
    assert [r.id for r in pdf.records] == [r.id for r in txt.records]
    problems = compare_renditions(txt, pdf)
    unlisted, stale = unlisted_and_stale(pdf.version or "", problems, listed_differences())
    assert unlisted == [], "\n".join(unlisted[:30])
    assert stale == [], f"listed in {DIFFERENCES.name} but no longer different: {stale}"
    # Beyond typography: the structure and references agree exactly too.
    for a, b in zip(txt.records, pdf.records, strict=True):
        assert (a.parent, a.depth, a.kind, a.references) == (
            b.parent,
            b.depth,
            b.kind,
            b.references,
        ), a.id
    assert [g.references for g in txt.glossary] == [g.references for g in pdf.glossary]


@pytest.mark.slow
def test_pdf_records_carry_pages_and_rejoined_text() -> None:
    pdf, txt = pdf_doc("20251114"), txt_doc("20251114")
    (path,) = (MTG / "20251114").glob("*.pdf")
    assert extracted(path).pages == 307
    by_id = {r.id: r for r in pdf.records}
    txt_by_id = {r.id: r for r in txt.records}
    first_rule_line = next(ln for ln in extracted(path).lines if ln.text.startswith("100.1. "))
    at = by_id["cr:100.1"].location
    assert (at.line, at.page) == (first_rule_line.line, first_rule_line.page)
    assert at.end_line is not None and at.end_line >= at.line and at.end_page == at.page
    assert by_id["cr:1"].location.page == first_rule_line.page > 2  # after the contents pages
    assert all(r.location.page is not None for r in pdf.records)
    pages = [r.location.page or 0 for r in pdf.records]
    assert pages == sorted(pages)
    # A multi-line subrule with an example and a second paragraph comes out exactly as in the TXT.
    for rid in ("cr:100.2a", "cr:509.1b", "cr:601.2", "cr:205.4c"):
        assert by_id[rid].text == txt_by_id[rid].text
        assert by_id[rid].examples == txt_by_id[rid].examples
    assert pdf.front_matter[0].text == txt.front_matter[0].text


@pytest.mark.slow
def test_pdf_parse_is_deterministic() -> None:
    (path,) = (MTG / "20230414").glob("*.pdf")
    lines = extracted(path).lines
    first = mtg.parse(lines, {}, ParseOptions("mtg/cr", "pdf")).model_dump_json()
    assert first == mtg.parse(lines, {}, ParseOptions("mtg/cr", "pdf")).model_dump_json()


# --------------------------------------------------------------------------- the differences file


def test_differences_file_is_well_formed() -> None:
    listed = listed_differences()
    assert all(v[:4].isdigit() and k.startswith(("cr:", "glossary:", "version")) for v, k in listed)


def test_listed_differences_are_matched_and_stale_ones_reported() -> None:
    listed = {("2025-11-14", "cr:100.1"): "a reason", ("2025-11-14", "cr:100.2"): "gone"}
    problems = ["cr:100.1: txt 'a' != pdf 'b'", "cr:100.3: only in pdf", "glossary:x: only in txt"]
    unlisted, stale = unlisted_and_stale("2025-11-14", problems, listed)
    assert unlisted == ["cr:100.3: only in pdf", "glossary:x: only in txt"]
    assert stale == ["cr:100.2"]
    # An entry for another version neither excuses nor goes stale here.
    assert unlisted_and_stale("2023-04-14", problems[:1], listed) == (problems[:1], [])


# --------------------------------------------------------------------------- layout, synthetic


def pdf_line(n: int, text: str, page: int, x0: float, top: float, bold: bool = False) -> Line:
    return Line(text=text, line=n, page=page, x0=x0, top=top, size=10.08, bold=bold)


def test_pdf_paragraphs_rejoin_wraps_and_split_paragraphs() -> None:
    lines = [
        pdf_line(
            1, "100.2. To play, each player needs a deck, small items to represent", 1, 105, 100
        ),
        pdf_line(2, "tokens, and a way to track life. See rules 601.2a\u2013", 1, 120, 111.5),
        pdf_line(3, "h and the non-", 1, 120, 123),
        pdf_line(4, "Commander rules; a long dash: \u201cArtifact \u2014", 1, 120, 134.5),
        pdf_line(5, "Equipment.\u201d", 1, 120, 146),
        pdf_line(6, "Example: A player plays.", 1, 149.7, 157.5, bold=True),
        pdf_line(
            7,
            "100.2a A subrule whose text wraps and whose next page line begins with",
            1,
            120,
            180.5,
        ),
        pdf_line(8, "12", 1, 300, 760),  # page number
        pdf_line(9, "601.2b and so on, a cited number, not a rule.", 2, 135, 73),
        pdf_line(
            10, "A second paragraph of 100.2a, indented past the wrapped lines.", 2, 147.8, 84.5
        ),
        pdf_line(11, "100.2b The next subrule, at the top of a page.", 3, 120, 73),
    ]
    paras = pdf_paragraphs(lines, mtg.ENGINE.numbering.alphabet)
    assert [p.text for p in paras] == [
        "100.2. To play, each player needs a deck, small items to represent tokens, and a way "
        "to track life. See rules 601.2a\u2013h and the non-Commander rules; a long dash: "
        "\u201cArtifact \u2014 Equipment.\u201d",
        "Example: A player plays.",
        "100.2a A subrule whose text wraps and whose next page line begins with "
        "601.2b and so on, a cited number, not a rule.",
        "A second paragraph of 100.2a, indented past the wrapped lines.",
        "100.2b The next subrule, at the top of a page.",
    ]
    assert [p.indented for p in paras] == [False, False, False, True, False]
    assert [(p.line, p.page) for p in paras] == [(1, 1), (6, 1), (7, 1), (10, 2), (11, 3)]


def test_pdf_paragraphs_glossary_terms_and_headings() -> None:
    lines = [
        pdf_line(1, "Glossary", 1, 90, 73, bold=True),
        pdf_line(2, "Ability", 1, 90, 98, bold=True),
        pdf_line(3, "1. Text on an object.", 1, 90, 109.5),
        pdf_line(4, "2. An ability on the stack, which wraps onto", 1, 90, 121),
        pdf_line(5, "a second line.", 1, 90, 132.5),
        pdf_line(6, "Active Player", 2, 90, 73, bold=True),
        pdf_line(7, "The player whose turn it is. See rule", 2, 90, 84.5),
        pdf_line(8, "102.1.", 2, 90, 96),
    ]
    paras = pdf_paragraphs(lines, mtg.ENGINE.numbering.alphabet)
    assert [(p.text, p.after_gap) for p in paras] == [
        ("Glossary", True),
        ("Ability", True),
        ("1. Text on an object.", False),
        ("2. An ability on the stack, which wraps onto a second line.", False),
        ("Active Player", True),
        ("The player whose turn it is. See rule 102.1.", False),
    ]


def test_pdf_paragraphs_decide_rule_numbers_at_a_page_top_by_the_numbering() -> None:
    lines = [
        pdf_line(1, "601. Casting Spells", 1, 90, 600),
        pdf_line(2, "601.2. To cast a spell, a player follows the steps (see rules", 1, 105, 623),
        pdf_line(3, "601.2b and 601.2f\u2013h) listed below.", 2, 120, 73),
        pdf_line(4, "601.2a The player announces the spell.", 2, 120, 96),
        pdf_line(5, "702.2. Deathtouch", 2, 105, 700),
        pdf_line(6, "702.2a Deathtouch is a static ability.", 3, 120, 73),
        pdf_line(
            7, "702.2d A later letter after a finished sentence: the publisher's gap.", 4, 120, 73
        ),
        pdf_line(
            8, "702.2f cited at the start of a wrapped line stays in its paragraph", 4, 135, 84.5
        ),
    ]
    texts = [p.text for p in pdf_paragraphs(lines, mtg.ENGINE.numbering.alphabet)]
    assert texts == [
        "601. Casting Spells",
        "601.2. To cast a spell, a player follows the steps (see rules 601.2b and 601.2f\u2013h) "
        "listed below.",
        "601.2a The player announces the spell.",
        "702.2. Deathtouch",
        "702.2a Deathtouch is a static ability.",
        "702.2d A later letter after a finished sentence: the publisher's gap. "
        "702.2f cited at the start of a wrapped line stays in its paragraph",
    ]
