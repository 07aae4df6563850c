"""Riftbound Core Rules: the three clean text extractions, the layout dump, and a two-column PDF."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.text import decode_text, extract_text_lines
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.riftbound import cr as riftbound
from tests.support.helpers import SHARED
from tests.support.twocolumn import make_two_column_pdf

find_references = riftbound.ENGINE.references.find


def match_number(text: str) -> tuple[str, str] | None:
    start = riftbound.ENGINE.numbering.match_start(text)
    return (start.number, start.rest) if start else None


SOURCES = SHARED / "riftbound" / "core-rules"
CLEAN = {
    "2025-10-01": SOURCES / "2025-10-01" / "CR-v1.1.txt",
    "2025-12-01": SOURCES / "2025-12-01" / "CR-v1.2.txt",
    "2026-06-18": SOURCES / "2026-06-18" / "CR-v1.4.txt",
}
DUMP = SOURCES / "2025-06-02" / "riftbound-core-rules-2025-06-02.txt"
KIND_BY_DEPTH = {1: "rules", 2: "subrules", 3: "clauses", 4: "subclauses", 5: "items"}


@cache
def parsed(path: Path) -> Document:
    lines = extract_text_lines(path.read_bytes())
    return riftbound.parse(lines, {}, ParseOptions("riftbound/cr", "txt"))


def independent_counts(path: Path) -> Counter[str]:
    """Distinct numbers at the start of a line, by depth: a plain regex, no parser state."""
    text = decode_text(path.read_bytes())
    numbers = set(re.findall(r"(?m)^(\d{3})\.\s", text))
    numbers |= set(re.findall(r"(?m)^(\d{3}(?:\.[0-9a-z]+)+)\.?\s", text))
    return Counter(KIND_BY_DEPTH[n.count(".") + 1] for n in numbers)


@pytest.mark.parametrize("version", sorted(CLEAN))
def test_clean_versions_parse_without_warnings(version: str) -> None:
    doc = parsed(CLEAN[version])
    assert doc.warnings == []
    assert doc.version == version
    assert doc.published == version
    assert doc.title == "Riftbound Core Rules"


@pytest.mark.parametrize("version", sorted(CLEAN))
def test_clean_counts_match_an_independent_count(version: str) -> None:
    doc = parsed(CLEAN[version])
    expected = independent_counts(CLEAN[version])
    for kind, count in expected.items():
        assert doc.counts[kind] == count, kind
    assert doc.counts["records"] == sum(expected.values())


def test_five_levels_and_golden_rules() -> None:
    doc = parsed(CLEAN["2026-06-18"])
    by_id = {r.id: r for r in doc.records}
    deep = by_id["cr:383.4.c.2.a"]
    assert deep.depth == 5 and deep.parent == "cr:383.4.c.2" and deep.kind == "item"
    assert by_id["cr:383.4.a.1"].parent == "cr:383.4.a"
    assert by_id["cr:000"].title == "Golden and Silver Rules"
    assert by_id["cr:002"].text.startswith("Card text supersedes rules text.")
    # A soft wrap in the export is rejoined into one sentence.
    assert "the card's indication is what is true." in by_id["cr:002"].text
    # The list glyph some exports keep is not part of the rule's text.
    assert by_id["cr:053.1"].text == 'Units and legends say "I," "me," etc.'


def test_examples_and_references_are_split_out() -> None:
    doc = parsed(CLEAN["2025-10-01"])
    by_id = {r.id: r for r in doc.records}
    rule = by_id["cr:103.2.a.2"]
    assert "Example" not in rule.text
    assert len(rule.examples) == 2 and rule.examples[1].startswith("Tibbers has the tag Annie")
    assert by_id["cr:106.4.d"].references == ["cr:318", "cr:408"]
    citing = [r for r in parsed(CLEAN["2026-06-18"]).records if "cr:355.6" in r.references]
    assert citing, "no record resolves 'See rule 355.6.'"


def test_reference_forms() -> None:
    assert find_references("See rule 355.6. Targeting for more information.") == ["cr:355.6"]
    assert find_references(
        "in rule 356.2, applies the rule 421.2.a. and See 108.6. Banishment"
    ) == ["cr:356.2", "cr:421.2.a", "cr:108.6"]
    assert find_references("102 cards and 3 rules") == []


def test_number_forms() -> None:
    assert match_number("383.4.c.2.a. The Conquer") == ("383.4.c.2.a", "The Conquer")
    assert match_number("419.2 Doubling is a Limited Action.") == (
        "419.2",
        "Doubling is a Limited Action.",
    )
    assert match_number("100 cards in a deck") is None
    assert match_number("383.a.1. letters and digits must alternate") is None


def test_publisher_numbering_gap_keeps_the_publishers_number() -> None:
    # 2025-10-01 prints 450.3.d.1. with no 450.3.d.: the record keeps its number,
    # under its nearest ancestor.
    by_id = {r.id: r for r in parsed(CLEAN["2025-10-01"]).records}
    assert "cr:450.3.d" not in by_id
    assert by_id["cr:450.3.d.1"].parent == "cr:450.3"
    assert by_id["cr:450.3.d.1"].text.startswith("Positive values, or increases, to Might")


def test_missing_date_is_a_warning() -> None:
    lines = [
        Line(text=t, line=i)
        for i, t in enumerate(
            ["Riftbound Core Rules", "000. Golden and Silver Rules", "001. Golden Rule"], start=1
        )
    ]
    doc = riftbound.parse(lines, {}, ParseOptions("riftbound/cr", "txt"))
    assert doc.version is None
    assert [w.code for w in doc.warnings] == ["no-version"]
    assert [r.id for r in doc.records] == ["cr:000", "cr:001"]


def test_parse_is_deterministic() -> None:
    lines = extract_text_lines(CLEAN["2025-12-01"].read_bytes())
    first = riftbound.parse(lines, {}, ParseOptions("riftbound/cr", "txt")).model_dump_json()
    assert first == parsed(CLEAN["2025-12-01"]).model_dump_json()


# --------------------------------------------------------------------------- the layout dump

# Rules whose text is the same in the 2025-06-02 dump (read by eye there) and in
# 2025-10-01, at the same number. The parse must give this text or warn about the id.
SAMPLE = [
    "cr:001",
    "cr:002",
    "cr:051",
    "cr:053",
    "cr:053.2",
    "cr:101",
    "cr:103.1.a",
    "cr:106.4.b",
    "cr:106.5.d",
    "cr:181.3.b",
    "cr:181.2",
]


def warned_numbers(doc: Document) -> set[str]:
    warned: set[str] = set()
    for w in doc.warnings:
        if w.code == "unaligned-numbers":
            warned.update(w.message.split("not parsed: ", 1)[1].split(", "))
    return warned


def test_dump_version_and_warnings_are_only_unaligned_pages() -> None:
    doc = parsed(DUMP)
    assert doc.version == "2025-06-02"
    assert doc.warnings, "the dump cannot be aligned everywhere; the parser must say so"
    assert {w.code for w in doc.warnings} == {"unaligned-numbers", "dangling-reference"}
    # A reference dangles only because its target sits on a page that could not be paired.
    warned = warned_numbers(doc)
    for w in doc.warnings:
        if w.code == "dangling-reference":
            target = w.message.split(" cites cr:", 1)[1].split(",", 1)[0]
            assert target in warned, w.message
    assert doc.counts["records"] > 500


@pytest.mark.parametrize("ident", SAMPLE)
def test_dump_sample_gives_the_later_text_or_a_warning(ident: str) -> None:
    later = {r.id: r for r in parsed(CLEAN["2025-10-01"]).records}[ident]
    doc = parsed(DUMP)
    record = next((r for r in doc.records if r.id == ident), None)
    number = ident[3:]
    warned = any(
        re.search(rf"(?:: |, ){re.escape(number)}(?:,|$)", w.message) for w in doc.warnings
    )
    assert (record is not None) != warned, "a number is either parsed or warned about, never both"
    if record is not None:
        assert (record.title, record.text, record.examples) == (
            later.title,
            later.text,
            later.examples,
        )


def test_dump_never_gives_a_number_the_text_beside_it_when_that_is_wrong() -> None:
    # On its line the dump prints "053. Card, when written in card effects, ..."
    # but that is the text of 052.
    doc = parsed(DUMP)
    by_id = {r.id: r for r in doc.records}
    for ident, record in by_id.items():
        if ident == "cr:053":
            assert not record.text.startswith("Card, when written")
    if "cr:052" in by_id:
        assert by_id["cr:052"].text.startswith("Card, when written in card effects")


def test_every_dump_number_is_parsed_or_warned() -> None:
    doc = parsed(DUMP)
    numbers = re.findall(
        r"(?m)^\f?(\d{3}(?:\.[0-9a-z]+)*)\.(?=\s|$)", decode_text(DUMP.read_bytes())
    )
    warned = warned_numbers(doc)
    parsed_ids = {r.number for r in doc.records}
    assert set(numbers) == parsed_ids | warned
    assert not parsed_ids & warned


# --------------------------------------------------------------------------- two-column PDF

LEFT = [
    "000. Golden and Silver Rules",
    "001. Golden Rule",
    "002. Card text supersedes rules text. Whenever a card",
    "fundamentally contradicts the rules, the card's indication",
    "is what is true.",
    "103. To play, a player must have two Decks.",
    "103.1. 1 Champion Legend",
    "103.1.a. This is placed in the Legend Zone.",
]
RIGHT = [
    "103.1.b. This will dictate the Domain Identity.",
    "103.1.b.1. Cards included in your Deck must abide",
    "by your Domain Identity. See rule 103.1.a. for more.",
    "103.2. A Main Deck of at least 40 cards",
    "103.2.a. Chosen Champion",
    "103.2.a.2. Must be a champion unit.",
    "Example: Loose Cannon has the tag Jinx.",
    "103.2.c.2.a. Five levels deep.",
]


def test_two_column_pdf_reads_in_column_order_and_equals_the_text() -> None:
    header = ["Riftbound Core Rules", "Last Updated: 2025-10-01"]
    data = make_two_column_pdf([(header + LEFT, RIGHT)])
    assert data == make_two_column_pdf([(header + LEFT, RIGHT)]), (
        "the generator must be deterministic"
    )
    extracted = extract_pdf_lines(data, columns=2).lines
    assert [ln.text for ln in extracted] == header + LEFT + RIGHT
    # the columns are seen without `columns` declared, too
    assert [ln.text for ln in extract_pdf_lines(data).lines] == header + LEFT + RIGHT

    from_pdf = riftbound.parse(extracted, {}, ParseOptions("riftbound/cr", "pdf"))
    text = "\n".join(header + LEFT + RIGHT).encode()
    from_text = riftbound.parse(extract_text_lines(text), {}, ParseOptions("riftbound/cr", "txt"))
    assert from_pdf.warnings == [] and from_text.warnings == []
    strip = [r.model_dump(exclude={"location"}) for r in from_pdf.records]
    assert strip == [r.model_dump(exclude={"location"}) for r in from_text.records]
    by_id = {r.id: r for r in from_pdf.records}
    assert by_id["cr:002"].text.endswith("the card's indication is what is true.")
    assert by_id["cr:103.1.b.1"].references == ["cr:103.1.a"]
    assert by_id["cr:103.2.a.2"].examples == ["Loose Cannon has the tag Jinx."]
    assert by_id["cr:103.2.c.2.a"].parent == "cr:103.2"  # no 103.2.c / 103.2.c.2: nearest ancestor
    assert all(r.location.page == 1 for r in from_pdf.records)
