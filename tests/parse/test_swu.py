"""Star Wars: Unlimited Comprehensive Rules 7.0 (Fantasy Flight Games' PDF) through `swu-cr`:
the outline numbered from position, checked against counts the test makes its own way
(label glyphs by font size with pdfplumber; the table of contents), and `show` on a
corpus the test imports."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from pipeline.models.records import Document
from pipeline.parse.swu.defects import KNOWN_SLIPS
from tests.conftest import ParseReal
from tests.support.helpers import SHARED, link_archive

PDF = "swu/comprehensive-rules/7.0/SWU-comprehensive-rules.pdf"
SHA = "c2ac944e06f405ddce81b04dc5cc9b1c357e54dcabb4c083587b1d4b0d27e4d3"
FIRST_RULES_PAGE = 4  # pages 1-3: title, introduction, contents


@pytest.fixture(scope="module")
def doc(parse_real: ParseReal) -> Document:
    return parse_real(PDF, "swu-cr", document="swu/cr")


@pytest.fixture(scope="module")
def label_words() -> Counter[tuple[float, str]]:
    """Outline labels counted from the PDF's words, not its lines: a label is a word that is
    only `12.` or `b.`; its level is its glyph size (the outline sets each level in its own
    size), with no use of positions, pairing or the parser's reading."""
    found: Counter[tuple[float, str]] = Counter()
    with pdfplumber.open(SHARED / PDF) as pdf:
        for page in pdf.pages[FIRST_RULES_PAGE - 1 :]:
            for word in page.extract_words(extra_attrs=["size"]):
                text = word["text"]
                if re.fullmatch(r"\d+\.", text):
                    found[(round(word["size"], 1), "digits")] += 1
                elif re.fullmatch(r"[a-z]\.", text):
                    found[(round(word["size"], 1), "letter")] += 1
                elif re.fullmatch(r"[ivx]{2,}\.", text):
                    found[(round(word["size"], 1), "roman")] += 1
    return found


def test_version_date_and_title_come_from_the_title_page(doc: Document) -> None:
    assert doc.warnings == []
    assert (doc.version, doc.published, doc.effective) == ("7.0", "2026-03-06", None)
    assert doc.title == "COMPREHENSIVE RULES"
    assert doc.parser.family == "swu-cr"
    assert [p.id for p in doc.front_matter] == ["introduction"]
    assert doc.front_matter[0].text.startswith("This document is the comprehensive rulebook")
    assert [p.id for p in doc.back_matter] == ["copyright"]


def test_counts_equal_the_label_glyphs_counted_by_size(
    doc: Document, label_words: Counter[tuple[float, str]]
) -> None:
    digits = sorted(
        ((size, n) for (size, kind), n in label_words.items() if kind == "digits"), reverse=True
    )
    # Chapters, sections and rules are digit labels in three sizes, largest first; body-size
    # digit words (`2.` ending a sentence) come after them.
    (_, chapters), (_, sections), (rule_size, rules) = digits[:3]
    # Subrule letters are set one size below rule numbers (a one-letter `i.` counts as a
    # letter here; roman labels of two letters and more would be a deeper level).
    letter_size = max(size for size, kind in label_words if kind == "letter")
    subrules = label_words[(letter_size, "letter")]
    romans = sum(n for (_, kind), n in label_words.items() if kind == "roman")
    assert letter_size < rule_size
    assert (chapters, sections, rules, subrules, romans) == (12, 122, 483, 296, 0)
    assert doc.counts["chapters"] == chapters
    assert doc.counts["sections"] == sections
    assert doc.counts["rules"] == rules
    assert doc.counts["subrules"] == subrules
    assert doc.counts.get("items", 0) == romans
    assert doc.counts["records"] == len(doc.records) == 913


def test_chapter_and_section_titles_equal_the_table_of_contents(doc: Document) -> None:
    """The contents (pages 2-3, two columns) lists every chapter and section title with its
    page: read here with pdfplumber's own text, split at the page numbers."""
    listed: Counter[str] = Counter()
    with pdfplumber.open(SHARED / PDF) as pdf:
        for page in pdf.pages[1:3]:
            for line in (page.extract_text() or "").splitlines():
                for title in re.findall(r"\d+\. (.+?) \d+(?= \d+\. |$)", line.strip()):
                    listed[title] += 1
    parsed = Counter(r.title or "" for r in doc.records if r.kind in ("chapter", "section"))
    assert sum(listed.values()) == 12 + 122
    # One heading differs, in the PDF's own text: section 8.30's heading on page 44 holds
    # the glyphs `UP TO` only (its X is not in the text layer); the contents says `UP TO X`.
    assert parsed - listed == Counter({"UP TO": 1})
    assert listed - parsed == Counter({"UP TO X": 1})


def test_ids_are_outline_paths(doc: Document) -> None:
    ids = {r.id for r in doc.records}
    for record in doc.records:
        path = record.number.split(".")
        assert record.id == f"cr:{record.number}"
        assert record.depth == len(path)
        assert record.parent == (f"cr:{'.'.join(path[:-1])}" if len(path) > 1 else None)
        assert record.parent is None or record.parent in ids
    by_id = {r.id: r for r in doc.records}
    assert by_id["cr:8"].title == "ADDITIONAL RULES"
    assert by_id["cr:8.1"].title == "ASPECT PENALTIES"
    assert by_id["cr:8.1.1"].text.startswith("Aspect penalties are special modifiers")
    assert by_id["cr:1.5.2"].title == "Ownership and Control"
    assert by_id["cr:1.5.2.a"].text.startswith("A player is the “owner” of a card")
    # `i.` after `h.` is a letter at the subrule indentation, not a deeper roman level
    assert by_id["cr:7.5.14.i"].parent == "cr:7.5.14"
    # chapter 6 numbers the first rule of its action sections 0 ("subheadings begin with 0")
    assert [r.id for r in doc.records if r.number.endswith(".0")] == [
        "cr:6.2.0",
        "cr:6.3.0",
        "cr:6.4.0",
    ]


def test_examples_bullets_and_wraps(doc: Document) -> None:
    by_id = {r.id: r for r in doc.records}
    rule = by_id["cr:1.6.3"]
    assert rule.text.endswith("the option of whether or not to resolve that ability.")
    assert rule.examples == [
        "For example, a unit with an ability that reads, “On Attack: You may deal 1 damage to "
        "another friendly unit and ready it,” allows the player to choose whether or not to "
        "deal 1 damage when the unit attacks."
    ]
    assert [e[:20] for e in by_id["cr:3.6.3.b"].examples] == [
        "For example, a card ",
        "For another example,",
    ]
    assert by_id["cr:9.2.2.a"].bullets == [
        "Exactly 1 leader",
        "Exactly 1 base",
        "A minimum of 50 other cards (consisting of units, events, and upgrades)",
    ]
    # a wrap that begins like a citation is a wrap (`See` at a line end, `8.1. ...` below)
    assert by_id["cr:1.5.6.b"].text.endswith("See 8.1. Aspect Penalties")
    # examples as the document sets them: every paragraph that opens with its lead-in words
    with pdfplumber.open(SHARED / PDF) as pdf:
        text = "\n".join(p.extract_text() or "" for p in pdf.pages[FIRST_RULES_PAGE - 1 :])
    lead_ins = re.findall(r"^(?:For (?:another )?example|Examples? of|An example of)", text, re.M)
    assert doc.counts["examples"] == len(lead_ins) == 79


def test_references_resolve_to_outline_ids(doc: Document) -> None:
    by_id = {r.id: r for r in doc.records}
    assert by_id["cr:1.5.6.b"].references == ["cr:8.1"]
    assert by_id["cr:1.5.1.a"].references == ["cr:3"]
    assert by_id["cr:1.1.1"].references == ["cr:11", "cr:12"]  # "Sections 11 and 12"
    assert by_id["cr:12.6.2"].references == ["cr:11.3"]  # "as specified in 11.3."
    known = set(by_id)
    cited = [ref for r in doc.records for ref in r.references]
    assert cited and all(ref in known for ref in cited)


def test_listed_slips_still_occur_and_their_readings_exist(doc: Document) -> None:
    by_id = {r.id: r for r in doc.records}
    for slip in KNOWN_SLIPS:
        found = [e for e in doc.publisher_errata if e.cites == slip.printed]
        assert found, f"{slip.printed} no longer occurs: remove it from parse/errata.toml"
        assert f"cr:{slip.reading}" in by_id
        for erratum in found:
            assert f"cr:{slip.reading}" in by_id[erratum.record].references
    slips = [e.record for e in doc.publisher_errata if e.code is None]  # lint findings aside
    assert sorted(slips) == ["cr:1.13.3", "cr:7.5.19.b"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    """A corpus imported from an archive holding only the SWU PDF."""
    root = tmp_path_factory.mktemp("swu")
    entries = json.loads((SHARED / "manifest.json").read_text())
    mine = [e for e in entries if e["game"] == "swu"]
    ctx = Context(
        corpus_dir=root / "corpus",
        cache_dir=root / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )
    summary = import_archive(ctx, link_archive(root / "archive", mine))
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes]
    assert [(o.document, o.version, o.warnings) for o in summary.outcomes] == [("swu/cr", "7.0", 0)]
    return root / "corpus"


def test_show_prints_a_swu_rule_with_its_provenance(corpus: Path) -> None:
    result = CliRunner().invoke(
        app, ["--corpus", str(corpus), "show", "cr:8.1.1", "--doc", "swu/cr", "--provenance"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("cr:8.1.1")
    assert "Aspect penalties are special modifiers to a card’s cost." in " ".join(out.split())
    assert "For example, a player that has a leader with" in " ".join(out.split())
    block = out.split("\nProvenance\n", 1)[1]
    fields = dict(re.findall(r"^  ([A-Z][\w -]*?):\s+(.*)$", block, re.M))
    assert fields["Document"] == "Star Wars: Unlimited Comprehensive Rules (swu/cr), version 7.0"
    assert fields["SHA-256"] == f"{SHA} (1693070 bytes)"
    assert fields["Rendition"] == "pdf" and fields["Parser"] == "swu-cr 1.0"
    # the rule and its example; the icon layer on line 1538 is dropped, not the rule's
    assert fields["Location"] == "lines 1530\u20131537, page 37"
    assert fields["Extraction"].startswith("pdfium pypdfium2 ")
    assert fields["Retrieved"].endswith("SWU-comprehensive-rules.pdf")
