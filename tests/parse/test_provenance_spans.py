"""Per-record provenance (docs/records.md): every record of a line-based document
carries the span of lines (and pages) holding its own text and the character offsets of that
span in the extracted text, and every parsed Document names the engine that extracted it.

Known records a person can check in the real documents, then an invariant over every real
document of every line-based family, parsed as `import` parses it.
"""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from pipeline.models.content import Line
from pipeline.models.records import Document, GlossaryTerm, Location, Passage, Rule
from pipeline.runner.families import family_of, parse_bytes
from pipeline.runner.request import ParseRequest, request_for
from pipeline.store.blobs import BlobStore
from tests.parse.test_contract import cases, parse_case
from tests.support.helpers import SHARED

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

MTG = SHARED / "mtg" / "comprehensive-rules" / "20251114"
MTG_TXT, MTG_PDF = MTG / "MagicCompRules 20251114.txt", MTG / "MagicCompRules 20251114.pdf"
FAB_TXT = SHARED / "fab" / "comprehensive-rules" / "2.14.0" / "en-fab-cr.txt"
NISEI_1_4 = SHARED / "netrunner" / "comprehensive-rules" / "1.4" / "Comprehensive_Rules.pdf"
LINE_FAMILIES = {
    "fab-cr", "fab-policy", "mtg-cr", "netrunner-cr", "riftbound-cr", "swu-cr",
    "headed-sections", "numbered",
}  # fmt: skip
WORD = re.compile(r"[^\W_]+")


@functools.cache
def parsed(path: Path, family: str, document: str, version: str | None = None) -> Document:
    rendition = path.suffix.lstrip(".")
    request = ParseRequest(family, document, rendition, what=path.name, version=version)
    return parse_bytes(path.read_bytes(), request)


@functools.cache
def extracted(path: Path, family: str, document: str) -> list[Line]:
    """The extracted lines the offsets count in, as the family's extractor reads them."""
    request = ParseRequest(family, document, path.suffix.lstrip("."), what=path.name)
    lines = family_of(family).extract(path.read_bytes(), request).lines
    assert lines is not None
    return lines


def joined(lines: list[Line]) -> str:
    """The extracted text the offsets are defined in: every line's text joined with \\n."""
    return "\n".join(line.text for line in lines)


def rule(doc: Document, ident: str) -> Rule:
    return next(r for r in doc.records if r.id == ident)


def span_lines(lines: list[Line], at: Location) -> list[str]:
    assert at.end_line is not None
    return [ln.text for ln in lines[at.line - 1 : at.end_line]]


def sliced(lines: list[Line], at: Location) -> str:
    assert at.char_start is not None and at.char_end is not None
    return joined(lines)[at.char_start : at.char_end]


# --------------------------------------------------------------------------- known records


def test_an_mtg_rule_of_the_text_export_spans_exactly_its_own_lines() -> None:
    doc = parsed(MTG_TXT, "mtg-cr", "mtg/cr")
    lines = extracted(MTG_TXT, "mtg-cr", "mtg/cr")
    trample = rule(doc, "cr:702.19c")
    at = trample.location
    assert (at.line, at.end_line, at.page, at.end_page) == (4062, 4063, None, None)
    # its span's joined lines are exactly its text (after its number) and its example
    own = [f"702.19c {trample.text}", f"Example: {trample.examples[0]}"]
    assert span_lines(lines, at) == own
    assert sliced(lines, at) == "\n".join(own)
    # a rule with an example spans the blank line and the example, not the next rule
    example = rule(doc, "cr:702.19b")
    text = sliced(lines, example.location)
    assert text.startswith("702.19b ") and text.endswith(example.examples[-1])
    assert "702.19c" not in text
    assert doc.parser.engine == "python-codecs utf-8 (byte-order mark)"
    assert doc.parser.engine_version is not None and doc.parser.engine_version.startswith(
        "Python 3."
    )


def test_an_mtg_rule_of_the_pdf_that_wraps_over_a_page_break_ends_on_the_next_page() -> None:
    doc = parsed(MTG_PDF, "mtg-cr", "mtg/cr")
    lines = extracted(MTG_PDF, "mtg-cr", "mtg/cr")
    sticker = rule(doc, "cr:103.2d")
    at = sticker.location
    assert at.page is not None and at.end_page == at.page + 1 == 9
    text = sliced(lines, at)
    assert text.startswith("103.2d In a constructed game")
    assert text.endswith("(See rule 123, “Stickers.”)")  # its own last words, not 103.2e
    assert lines[at.end_line or 0].text.startswith("103.2e ")  # the next line opens the next
    assert doc.parser.engine == "pdfium"
    # the same rule from the TXT holds the same words
    txt = rule(parsed(MTG_TXT, "mtg-cr", "mtg/cr"), "cr:103.2d")
    assert " ".join(text.split()) == f"103.2d {txt.text}"


def test_a_nisei_rule_over_a_page_break_skips_the_page_number_but_keeps_its_own_lines() -> None:
    doc = parsed(NISEI_1_4, "netrunner-cr", "netrunner/cr")
    lines = extracted(NISEI_1_4, "netrunner-cr", "netrunner/cr")
    trash = rule(doc, "cr:1.3.9")
    at = trash.location
    assert (at.page, at.end_page) == (8, 9)
    text = sliced(lines, at)
    assert text.startswith("1.3.9. The symbol [trash]")
    assert "\n- 8 -\n" in text  # the page number between its lines, inside the span
    assert text.endswith("about trashing cards.") and trash.text.endswith("about trashing cards.")
    # a rule printed as a heading: the heading is its title, the paragraph its text
    hq = rule(doc, "cr:4.4.8")
    assert (hq.title, hq.text[:25]) == ("HQ", "HQ stands for Headquarter")
    assert (hq.location.line, hq.location.end_line, hq.location.page) == (1508, 1510, 43)
    assert span_lines(lines, hq.location)[0] == "4.4.8. HQ"
    assert span_lines(lines, hq.location)[-1] == "Corp is authorized to deploy."
    assert doc.parser.engine == "pdfium"
    assert (doc.parser.engine_version or "").startswith("pypdfium2 ")


def test_fab_rules_glossary_and_matter_of_the_text_export() -> None:
    doc = parsed(FAB_TXT, "fab-cr", "fab/cr", "2.14.0")
    lines = extracted(FAB_TXT, "fab-cr", "fab/cr")
    triggered = rule(doc, "cr:6.6.1")
    text = sliced(lines, triggered.location)
    assert text.startswith("6.6.1 A triggered effect")
    assert text.endswith(triggered.notes[-1])  # its note, on the line after its text
    channel = rule(doc, "cr:8.4.4")  # a keyword heading: `8.4.4 Channel`, then its text
    assert span_lines(lines, channel.location)[0] == "8.4.4 Channel"
    assert sliced(lines, channel.location).endswith(channel.text.split("\n")[-1])
    term = next(g for g in doc.glossary if g.id == "glossary:ability-keyword")
    term_text = sliced(lines, term.location)
    assert term_text.startswith("1.-1.4 Ability Keyword") and term_text.endswith(term.definition)


# --------------------------------------------------------------------------- every real document


def located(doc: Document) -> list[tuple[str, Rule | GlossaryTerm | Passage, list[str]]]:
    """(collection, record, the texts it holds that the document printed)."""
    found: list[tuple[str, Rule | GlossaryTerm | Passage, list[str]]] = []
    for r in doc.records:
        found.append(("records", r, [r.title or "", r.text, *r.examples, *r.notes, *r.bullets]))
    found += [("glossary", g, [g.term, g.definition]) for g in doc.glossary]
    # a passage's title may be the parser's name for it (`Preface`): its text only
    found += [("matter", p, [p.text]) for p in doc.front_matter + doc.back_matter]
    return found


def line_cases() -> list[Any]:
    return [case for case in cases() if case.values[0].family in LINE_FAMILIES]


@pytest.fixture(scope="module")
def blobs(tmp_path_factory: pytest.TempPathFactory) -> BlobStore:
    return BlobStore(tmp_path_factory.mktemp("span-blobs"))


@pytest.mark.parametrize(("source", "version", "files"), line_cases())
def test_every_record_has_an_ordered_disjoint_span_holding_its_words(
    source: Any, version: str, files: list[Any], blobs: BlobStore, parse_cache_dir: Path
) -> None:
    doc = parse_case(source, version, files, blobs, parse_cache_dir)
    request = request_for(source, what=source.id, version=version)
    lines = family_of(source.family).extract((SHARED / files[0].path).read_bytes(), request).lines
    assert lines is not None and [ln.line for ln in lines] == list(range(1, len(lines) + 1))
    assert doc.parser.engine and doc.parser.engine_version
    text = joined(lines)
    spans: list[tuple[int, int, str]] = []
    last_in: dict[str, int] = {}
    for collection, record, parts in located(doc):
        at = record.location
        assert at.end_line is not None and at.char_start is not None, record.id
        assert at.char_end is not None and at.end_line >= at.line, record.id
        assert at.char_end >= at.char_start, record.id
        if at.page is not None:
            assert at.end_page is not None and at.end_page >= at.page, record.id
        # in document order within each collection
        assert at.char_start >= last_in.get(collection, 0), record.id
        last_in[collection] = at.char_start
        spans.append((at.char_start, at.char_end, record.id))
        # the slice holds the first and last words of each of the record's texts
        piece = text[at.char_start : at.char_end]
        squashed = re.sub(r"\W", "", piece)
        for part in parts:
            words = WORD.findall(part)
            for word in words[:1] + words[-1:]:
                assert word in piece or word in squashed, (record.id, word, piece[-120:])
        # and starts where its first line's text starts
        first = lines[at.line - 1].text
        assert piece[:1] == first.lstrip(" \t\f")[:1], record.id
    spans.sort()
    for (_, end, before), (start, _, after) in itertools.pairwise(spans):
        assert start >= end, f"{before} and {after} overlap"
