"""The extraction-artefact lint: every artefact in documents the tests write, nothing on
legitimate text, and exactly the reviewed findings in the real FaB, MTG and Netrunner
documents (each listed in the README)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, SHARED

from pipeline.extract.text import decode_text
from pipeline.jobs.families import ParseRequest, parse_bytes
from pipeline.models import Document, GlossaryTerm, Location, ParserInfo, Passage, Rule
from pipeline.parse.lint import RULES, find_artefacts, lint_document

REVIEWED = Path(__file__).parent / "fixtures" / "lint" / "real-findings.json"
ParseReal = Callable[..., Document]  # the session fixture `parse_real` (conftest.py)


def doc_of(*texts: str, title: str | None = None, examples: tuple[str, ...] = ()) -> Document:
    """A document the test writes: one rule per text."""
    records = [
        Rule(
            id=f"cr:1.0.{n}",
            number=f"1.0.{n}",
            kind="rule",
            depth=3,
            title=title,
            text=text,
            examples=list(examples),
            location=Location(line=n),
        )
        for n, text in enumerate(texts, start=1)
    ]
    return Document(
        game="test",
        document="test/cr",
        title=None,
        version="1",
        parser=ParserInfo(family="test", version="0"),
        records=records,
    )


def codes(doc: Document) -> list[str]:
    return [str(w.code) for w in lint_document(doc)]


# --------------------------------------------------------------------------- each artefact

ARTEFACTS = [
    ("lint-tex-angle", "If its power is ¡ 3, destroy it.", "¡"),
    ("lint-tex-angle", "Cards with cost ¿2 are red.", "¿"),
    ("lint-markup", 'Gain 1 life.<span style="color:#c00">', '<span style="color:#c00">'),
    ("lint-markup", "Search your deck &amp; hand.", "&amp;"),
    ("lint-space-before-punctuation", "It is a restriction, subject to [1.0.1a] .", "[1.0.1a] ."),
    ("lint-space-before-punctuation", "See rule 702.19c , then continue.", "rule 702.19c ,"),
    ("lint-empty-operand", "If the value of , then it is 0.", "of ,"),
    ("lint-empty-operand", "The attack gets + . until end of turn.", "+ ."),
    ("lint-empty-operand", "Pay the cost () to activate.", "()"),
    ("lint-doubled-space", "A card  with a red color strip.", "  "),
    ("lint-replacement-char", "Lim\ufffdDul the Necromancer.", "\ufffd"),
    ("lint-lost-character", "An ability that costs [?4] removes loyalty.", "?"),
    ("lint-control-char", "Draw a card.\x07 Then discard.", "\x07"),
    ("lint-control-char", "Draw a card.\r", "\r"),
    ("lint-zero-width", "Draw\u200ba card.", "\u200b"),
    ("lint-zero-width", "Go\u00adagain.", "\u00ad"),
    ("lint-unbalanced-quotes", "It reads “Draw a card. and nothing else.", "“"),
    ("lint-unbalanced-quotes", "It reads “Draw a card. . . “ and more.", "“"),
    ("lint-unbalanced-quotes", 'It reads "Draw a card. and nothing else.', '"'),
    ("lint-unbalanced-brackets", "A hero (see rule 1.2 is a card.", "("),
    ("lint-unbalanced-brackets", "A hero is a card.[1.2]]", "]"),
    ("lint-doubled-heading", "Dominate Dominate is a static ability.", "Dominate Dominate"),
]


@pytest.mark.parametrize(("code", "text", "exact"), ARTEFACTS, ids=[a[0] for a in ARTEFACTS])
def test_each_artefact_is_flagged_with_its_record_and_exact_text(
    code: str, text: str, exact: str
) -> None:
    doc = doc_of("A clean rule before it.", text)
    findings = find_artefacts(doc)
    assert [(str(f.code), f.record, f.field, f.text) for f in findings] == [
        (code, "cr:1.0.2", "text", exact)
    ]
    (warning,) = lint_document(doc)
    assert str(warning.code) == code and warning.location == Location(line=2)
    assert warning.message.startswith("cr:1.0.2 text: ")
    assert repr(f"«{exact}»")[1:-1] in warning.message  # the exact text, marked


def test_a_keyword_title_doubled_into_its_text_is_flagged() -> None:
    doc = doc_of("Go Again Go Again means the attack gets an action point.", title="Go Again")
    assert [(str(f.code), f.text) for f in find_artefacts(doc)] == [
        ("lint-doubled-heading", "Go Again Go Again")
    ]


def test_every_rule_has_a_code_a_message_and_one_test() -> None:
    tested = {a[0] for a in ARTEFACTS}
    assert {str(rule.code) for rule in RULES} == tested
    assert all(rule.message and (rule.pattern or rule.predicate) for rule in RULES)


def test_examples_glossary_matter_and_every_field_are_read() -> None:
    doc = doc_of("Clean.", examples=("An example with  two spaces.",))
    doc = doc.model_copy(
        update={
            "glossary": [
                GlossaryTerm(
                    id="glossary:x",
                    term="X",
                    definition="A <b>bold</b> term.",
                    location=Location(line=9),
                )
            ],
            "front_matter": [
                Passage(
                    id="front:preface", title="Preface", text="Hi\ufffd.", location=Location(line=1)
                )
            ],
        }
    )
    found = [(f.record, f.field, str(f.code)) for f in find_artefacts(doc)]
    assert found == [
        ("cr:1.0.1", "examples[0]", "lint-doubled-space"),
        ("glossary:x", "definition", "lint-markup"),
        ("glossary:x", "definition", "lint-markup"),
        ("front:preface", "text", "lint-replacement-char"),
    ]


LEGITIMATE = [
    "Flying — This creature can’t be blocked except by creatures with flying.",
    "Effects that read “[This permanent] enters with . . . ,” or “As [this] enters . . .”",
    "The text reads “Draw a card,” and the player’s hero draws.",
    "“The first paragraph of a quotation\n“runs on into a second one.”",
    'Thump has the text "it gets dominate and "When this hits, they discard a card.""',
    'Three of a Kind has the text "[...] you may only play cards from arsenal,"',
    "A (2H) weapon gets +1{p} and costs {r}{r}; [LIMIT?] (When / Whenever) applies.",
    "1) Draw Phase\na) The Corp gains allotted clicks.\nii) If no, go to (3).",
    "The Runner accesses R&D. The Corp wins.  The game ends.",
    "For stages 1--6, substage order is used.[6.3.3]",
    "See rule 601.2a–h and section 7, or rules 702.19c, 702.19d.",
    "Who controls it? The player does.",
    "The Runner plays realloc(). Its ability has the Corp pay [credit].",
]


@pytest.mark.parametrize("text", LEGITIMATE)
def test_legitimate_text_is_quiet(text: str) -> None:
    assert lint_document(doc_of(text)) == []


FAB_TEXT = """1 Game Concepts
1.0 General
1.0.1 A restriction takes precedence, subject to [1.0.1a] .
1.0.1a An effect supersedes a rule  when they contradict.
1.0.2 If the value of , then the value is 0.
1.0.3 Dominate
Dominate Dominate is a static ability.[1.0.1]
Example: Gain 1<span style="color:red">{h}</span>.
"""


def test_a_parse_of_a_written_text_export_is_linted_record_by_record() -> None:
    doc = parse_bytes(
        FAB_TEXT.encode(),
        ParseRequest(family="fab-cr", document="fab/cr", rendition="txt", version="0.0.1"),
    )
    # the parser itself saw nothing wrong (but that a fragment ends before FaB's last parts)
    assert [w.code for w in doc.warnings] == ["unexpected-end"]
    found = [(f.record, str(f.code), f.text) for f in find_artefacts(doc)]
    assert found == [
        ("cr:1.0.1", "lint-space-before-punctuation", "[1.0.1a] ."),
        ("cr:1.0.1a", "lint-doubled-space", "  "),
        ("cr:1.0.2", "lint-empty-operand", "of ,"),
        ("cr:1.0.3", "lint-doubled-heading", "Dominate Dominate"),
        ("cr:1.0.3", "lint-markup", '<span style="color:red">'),
        ("cr:1.0.3", "lint-markup", "</span>"),
    ]
    assert doc == parse_bytes(
        FAB_TEXT.encode(),
        ParseRequest(family="fab-cr", document="fab/cr", rendition="txt", version="0.0.1"),
    )  # the lint changed nothing


# --------------------------------------------------------------------------- real documents


def _entries(**key: str) -> list[dict[str, Any]]:
    manifest = json.loads((SHARED / "manifest.json").read_text(encoding="utf-8"))
    return [e for e in manifest if all(e[k] == v for k, v in key.items())]


def _real() -> dict[str, tuple[str, str, str, dict[str, Any]]]:
    """name -> (family, document, rendition, manifest entry), for every real document."""
    real: dict[str, tuple[str, str, str, dict[str, Any]]] = {}
    for e in _entries(game="fab", document="comprehensive-rules", version="2.14.0", format="txt"):
        if e["path"].endswith("/en-fab-cr.txt"):
            real["fab/cr 2.14.0"] = ("fab-cr", "fab/cr", "txt", e)
    for e in _entries(game="mtg", document="comprehensive-rules", format="txt"):
        real[f"mtg/cr {e['version']}"] = ("mtg-cr", "mtg/cr", "txt", e)
    for e in _entries(game="netrunner", document="comprehensive-rules", format="pdf"):
        real[f"netrunner/cr {e['version']}"] = ("netrunner-cr", "netrunner/cr", "pdf", e)
    for e in _entries(game="netrunner", document="comprehensive-rules-yaml-source"):
        real[f"netrunner/cr {e['version']}"] = ("nsg-yaml", "netrunner/cr", "tar.gz", e)
    for e in _entries(game="netrunner", document="rulings-netrunnerdb", format="tar.gz"):
        real[f"netrunner/rulings {e['version']}"] = (
            "nrdb-rulings",
            "netrunner/rulings",
            "tar.gz",
            e,
        )
    return real


REAL = _real()


def real_doc(parse_real: ParseReal, name: str) -> Document:
    family, document, rendition, entry = REAL[name]
    # only the FaB text export and the rulings snapshots state no version of their own
    version = entry["version"] if family in ("fab-cr", "nrdb-rulings") else None
    return parse_real(
        entry["path"], family, document=document, rendition=rendition, version=version
    )


@functools.cache
def reviewed() -> dict[str, list[list[str]]]:
    data: dict[str, list[list[str]]] = json.loads(REVIEWED.read_text(encoding="utf-8"))
    return data


def test_every_real_document_is_covered() -> None:
    assert sorted(REAL) == sorted(reviewed())
    assert len([n for n in REAL if n.startswith("mtg/cr ")]) == 7


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if REAL[n][2] == "pdf" else n for n in sorted(REAL)],
)
def test_real_findings_are_exactly_the_reviewed_ones(parse_real: ParseReal, name: str) -> None:
    doc = real_doc(parse_real, name)
    found = [[str(f.code), f.record, f.field, f.text] for f in find_artefacts(doc)]
    assert found == reviewed()[name]
    _, _, rendition, entry = REAL[name]
    if rendition == "txt":
        # genuinely the publisher's: each finding, with its context, is in the file's text
        raw = decode_text((SHARED / entry["path"]).read_bytes())
        for finding in find_artefacts(doc):
            piece = finding.excerpt.replace("«", "").replace("»", "")
            assert all(part in raw for part in piece.split("\n")), finding


def test_the_readme_lists_every_reviewed_finding_by_record() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Extraction-artefact lint", 1)[1].split("\n## ", 1)[0]
    for name, findings in reviewed().items():
        for code, record, _field, _text in findings:
            bare = record.removeprefix("cr:")
            assert re.search(rf"(?<![\w.]){re.escape(bare)}(?![\w-]|\.\w)", section), (
                name,
                code,
                record,
            )
        assert name.split(" ", 1)[0] in section
