"""fab-cr, PDF rendition: a FaB-style PDF typeset here (tests/support/pdfgen.py) from a slice of
the real 2.14.0 text must parse to the same records as the text of that slice."""

from __future__ import annotations

import functools

import pytest

from pipeline.errors import ParseError
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.fab import cr as fab
from pipeline.parse.numbered.document import pdf_blocks
from pipeline.parse.numbered.layout import Vocabulary
from pipeline.parse.numbered.layout import join_vocabulary as join_wrapped
from tests.support.fab_typeset import content, typeset
from tests.support.pdfgen import build_pdf


@functools.cache
def pdf_lines() -> tuple[Line, ...]:
    return tuple(extract_pdf_lines(typeset().pdf).lines)


@functools.cache
def pdf_doc() -> Document:
    return fab.parse(list(pdf_lines()), {}, ParseOptions("fab/cr", "pdf"))


@functools.cache
def text_doc() -> Document:
    lines = [Line(text=t, line=n) for n, t in enumerate(content()[1], start=1)]
    return fab.parse(lines, {}, ParseOptions("fab/cr", "txt", "2.14.0"))


def test_generated_pdf_is_reproducible() -> None:
    again = build_pdf(list(content()[0]))
    assert again.pdf == typeset().pdf
    assert typeset().pdf.startswith(b"%PDF-") and typeset().pages >= 8


def test_generated_pdf_has_the_layout_features() -> None:
    kinds = {kind for kind, _, _ in typeset().breaks}
    assert kinds == {"word", "compound"}  # both kinds of hyphenated line end occur
    lines = pdf_lines()
    assert any(line.text == "CHAPTER 1. GAME CONCEPTS" for line in lines)
    assert any(line.text == "CHAPTER 8. KEYWORDS" for line in lines)
    assert sum(1 for line in lines if line.text.isdigit() and line.top and line.top > 700) >= 8
    wrap = next(line for line in lines if line.text.startswith("4 categories"))
    rule = next(line for line in lines if line.text.startswith("1.3.2 There are"))
    assert wrap.x0 is not None and rule.x0 is not None and wrap.x0 > rule.x0
    assert any(line.text.startswith("•") for line in lines)


def test_title_page_is_read() -> None:
    doc = pdf_doc()
    assert (doc.title, doc.version, doc.published) == (
        "Comprehensive Rules",
        "2.14.0",
        "2026-06-10",
    )


def record_key(doc: Document) -> list[tuple[object, ...]]:
    return [
        (
            r.id,
            r.number,
            r.kind,
            r.parent,
            r.depth,
            r.title,
            r.text,
            r.examples,
            r.notes,
            r.bullets,
            r.references,
        )
        for r in doc.records
    ]


def test_pdf_parse_equals_text_parse() -> None:
    pdf, text = pdf_doc(), text_doc()
    assert pdf.counts == text.counts
    assert text.counts["records"] == 113 and text.counts["glossary"] == 11
    for pdf_record, text_record in zip(record_key(pdf), record_key(text), strict=True):
        assert pdf_record == text_record
    assert [(g.id, g.term, g.definition, g.references) for g in pdf.glossary] == [
        (g.id, g.term, g.definition, g.references) for g in text.glossary
    ]
    assert [(p.id, p.title, p.text) for p in pdf.front_matter + pdf.back_matter] == [
        (p.id, p.title, p.text) for p in text.front_matter + text.back_matter
    ]
    # The slice cites rules outside it, and nothing says a rule was lost: publisher notes,
    # the same in both, and no warning in either.
    assert pdf.warnings == [] and text.warnings == []
    assert {n.code for n in pdf.publisher_notes} == {"dangling-reference"}
    assert [n.message for n in pdf.publisher_notes] == [n.message for n in text.publisher_notes]


def test_pdf_records_carry_pages_and_no_furniture() -> None:
    doc = pdf_doc()
    assert all(r.location.page is not None and r.location.page >= 2 for r in doc.records)
    everything = " ".join(r.text + " ".join(r.examples) for r in doc.records)
    assert "CHAPTER" not in everything
    records = {r.id: r for r in doc.records}
    assert (
        records["cr:1.3.2"].text
        == "There are 4 categories of cards: hero-, token-, deck-, and arena-cards."
    )
    assert records["cr:2.1.2"].bullets[0] == "A card with a red color strip is considered red."


def test_hyphen_at_line_end_compound_or_broken_word() -> None:
    vocabulary = Vocabulary(
        frozenset({"attack", "proxy", "attack-proxy", "permanent", "hit", "event", "hero"}),
        frozenset({"attack-proxy", "hero-"}),
    )
    assert (
        join_wrapped("creates an attack-", "proxy on the stack", vocabulary)
        == "creates an attack-proxy on the stack"
    )
    assert join_wrapped("it is a perma-", "nent card", vocabulary) == "it is a permanent card"
    assert join_wrapped("a restr-", "iction applies", vocabulary) == "a restriction applies"
    assert (
        join_wrapped("not just a hit-", "event.[7.5.5]", vocabulary)
        == "not just a hit-event.[7.5.5]"
    )
    assert (
        join_wrapped("any non-hero-", "non-token- card", vocabulary)
        == "any non-hero- non-token- card"
    )
    assert join_wrapped("Instant --", "{r}: Attack", vocabulary) == "Instant -- {r}: Attack"


def line(text: str, number: int, x0: float, top: float, size: float = 10.0) -> Line:
    return Line(text=text, line=number, page=2, x0=x0, top=top, size=size)


def test_a_number_at_wrap_indentation_is_a_wrap() -> None:
    lines = [
        line("1.2.3 A rule whose text wraps onto a line that begins with", 1, 72, 100),
        line("1.2.4 by coincidence, but sits at the hanging indentation.", 2, 88, 112),
        line("1.2.4 The next rule starts at the rule indentation.", 3, 72, 127),
        line("1.2.4a A subrule, indented further than a rule, whose text", 4, 96, 142),
        line("2 damage wraps too.", 5, 112, 154),
    ]
    blocks = pdf_blocks(fab.ENGINE, lines, fab.start_kind)
    assert [b.text for b in blocks] == [
        "1.2.3 A rule whose text wraps onto a line that begins with 1.2.4 by coincidence, "
        "but sits at the hanging indentation.",
        "1.2.4 The next rule starts at the rule indentation.",
        "1.2.4a A subrule, indented further than a rule, whose text 2 damage wraps too.",
    ]


def test_unrecognised_title_page_is_a_parse_error() -> None:
    pdf = build_pdf(
        [("1", "Game Concepts"), ("1.0", "General"), ("1.0.1", "A rule.")],
        title_lines=[("Flesh and Blood", 22.0), ("Tournament Rules", 28.0)],
    )
    with pytest.raises(ParseError) as caught:
        fab.parse(extract_pdf_lines(pdf.pdf).lines, {}, ParseOptions("fab/cr", "pdf"))
    message = str(caught.value)
    assert "unrecognised title page" in message
    assert (
        "'Comprehensive Rules'" in message and "2.14.0" in message and "Tournament Rules" in message
    )


def test_pdf_version_argument_that_disagrees_is_warned() -> None:
    doc = fab.parse(list(pdf_lines()), {}, ParseOptions("fab/cr", "pdf", "2.13.0"))
    assert doc.version == "2.14.0"
    assert [w.code for w in doc.warnings if w.code != "dangling-reference"] == ["version-mismatch"]
