"""The extraction-artefact lint: every artefact in documents the tests write, nothing on
legitimate text, run by the one parse entry point, and in every real document exactly the
findings reviewed in parse/errata.py (each listed in docs/lint.md): recorded as publisher
errata, never warned. What the publisher printed is a publisher note until reviewed; any
other finding is a warning."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.extract.text import decode_text
from pipeline.models.records import (
    Document,
    GlossaryTerm,
    Location,
    ParserInfo,
    Passage,
    Rule,
    text_digest,
)
from pipeline.parse.errata import ARTEFACTS as REVIEWED
from pipeline.parse.errata import REVIEWED_TEXTS
from pipeline.parse.lint import (
    EXTRACTED,
    PUBLISHERS,
    RULES,
    find_artefacts,
    lint_document,
    lint_parsed,
)
from pipeline.parse.numbered.statements import read_date
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest
from pipeline.store.blobs import BlobStore
from tests.parse.test_contract import cases, parse_case
from tests.support.helpers import ROOT, SHARED


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
    ("lint-lost-character", "Lim?Dul the Necromancer.", "?"),
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
    "See http://www.wizards.com/default.asp?x=magic/rules for the latest version.",
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
FOUND_IN_FAB_TEXT = [
    ("cr:1.0.1", "lint-space-before-punctuation", "[1.0.1a] ."),
    ("cr:1.0.1a", "lint-doubled-space", "  "),
    ("cr:1.0.2", "lint-empty-operand", "of ,"),
    ("cr:1.0.3", "lint-doubled-heading", "Dominate Dominate"),
    ("cr:1.0.3", "lint-markup", '<span style="color:red">'),
    ("cr:1.0.3", "lint-markup", "</span>"),
]


def test_every_parse_is_linted_and_each_finding_is_a_warning_or_a_note() -> None:
    doc = parse_bytes(
        FAB_TEXT.encode(),
        ParseRequest(family="fab-cr", document="fab/cr", rendition="txt", version="0.0.1"),
    )
    found = [(f.record, str(f.code), f.text) for f in find_artefacts(doc)]
    assert found == FOUND_IN_FAB_TEXT
    # the parser saw nothing wrong but that a fragment ends before FaB's last parts; the
    # lint, run by the parse entry point, adds one warning per finding the parse may have
    # made (a doubled heading), in record order. The bytes of a text file are its text, so
    # what the publisher printed and what an extraction would have made are its notes.
    misread = [f for f in found if f[1] not in PUBLISHERS | EXTRACTED]
    assert [str(w.code) for w in doc.warnings] == ["unexpected-end"] + [c for _, c, _ in misread]
    for warning, (record, _, text) in zip(doc.warnings[1:], misread, strict=True):
        assert (
            warning.message.startswith(f"{record} ") and repr(f"«{text}»")[1:-1] in warning.message
        )
        assert warning.location is not None and warning.location.line > 0
    noted = [(n.record, n.code, n.text) for n in doc.publisher_notes]
    assert noted == [f for f in found if f[1] in PUBLISHERS | EXTRACTED]
    note = next(n for n in doc.publisher_notes if n.code == "lint-doubled-space")
    assert (note.record, note.code, note.field, note.text) == (
        "cr:1.0.1a",
        "lint-doubled-space",
        "text",
        "  ",
    )
    assert note.digest == text_digest("An effect supersedes a rule  when they contradict.")
    assert "«  »" in note.message and note.location is not None
    # From a PDF or a page, what an extraction can make is a warning.
    unlinted = doc.model_copy(update={"warnings": [], "publisher_notes": []})
    extracted = lint_parsed(unlinted, text_file=False)
    assert [(n.record, n.code, n.text) for n in extracted.publisher_notes] == [
        f for f in found if f[1] in PUBLISHERS
    ]
    assert {str(w.code) for w in extracted.warnings} == {
        c for _, c, _ in found if c not in PUBLISHERS
    }
    assert doc.publisher_errata == []  # nothing is reviewed in a text nobody reviewed


@pytest.mark.parametrize(("code", "text", "exact"), ARTEFACTS, ids=[a[0] for a in ARTEFACTS])
def test_the_publishers_own_text_is_a_note_and_an_extraction_artefact_a_warning(
    code: str, text: str, exact: str
) -> None:
    linted = lint_parsed(doc_of("A clean rule before it.", text))
    if code in PUBLISHERS:
        assert linted.warnings == []
        assert [(str(n.code), n.record, n.text) for n in linted.publisher_notes] == [
            (code, "cr:1.0.2", exact)
        ]
    else:
        assert [str(w.code) for w in linted.warnings] == [code]
        assert linted.publisher_notes == []


REVIEWED_TEXT = "1.0.1 Players choose the cards they have chosen in .[1.0.1]"


def fab_doc(version: str | None, text: str = REVIEWED_TEXT) -> Document:
    return Document(
        game="fab",
        document="fab/cr",
        title=None,
        version=version,
        parser=ParserInfo(family="fab-cr", version="2.0"),
        records=[
            Rule(id="cr:4.1.7a", number="4.1.7a", kind="subrule", depth=4, text=text,
                 location=Location(line=7))
        ],
    )  # fmt: skip


def test_a_reviewed_finding_carries_over_while_its_text_is_unchanged(parse_real: Any) -> None:
    """A finding is reviewed in a text, not in a version: 2.14.0's 4.1.7a (`… chosen in
    .[4.1.4]`), in the very text it was reviewed in, is an erratum in 2.14.0, in a later
    release and in a text export of unknown version; reworded, it is a warning again."""
    real = parse_real(
        "fab/comprehensive-rules/2.14.0/en-fab-cr.txt", "fab-cr", document="fab/cr",
        version="2.14.0",
    )  # fmt: skip
    record = next(r for r in real.records if r.id == "cr:4.1.7a")
    for version in ("2.14.0", "2.15.0", None):
        linted = lint_parsed(fab_doc(version, record.text))
        assert linted.warnings == []
        (erratum,) = linted.publisher_errata
        assert (erratum.record, erratum.code, erratum.field, erratum.cites) == (
            "cr:4.1.7a",
            "lint-empty-operand",
            "text",
            "in .",
        )
        assert erratum.digest == text_digest(record.text)
    reworded = lint_parsed(fab_doc("2.15.0", "In short, " + record.text))
    assert [str(w.code) for w in reworded.warnings] == ["lint-empty-operand"]
    assert reworded.publisher_errata == []


# --------------------------------------------------------------------------- real documents


def stated(version: str) -> str:
    """A manifest's version as the document states it (MTG's `20221007` is `2022-10-07`)."""
    return read_date(version) or version if version.isdigit() else version


GROUPS: dict[tuple[str, str], list[Any]] = defaultdict(list)
for case in cases():
    source, version, files = case.values
    GROUPS[(source.document, stated(version))].append(case)
SLOW = {"pdf"}  # PDFs and the rules site take a few seconds each


@pytest.fixture(scope="module")
def blobs(tmp_path_factory: pytest.TempPathFactory) -> BlobStore:
    return BlobStore(tmp_path_factory.mktemp("lint-blobs"))


def test_every_reviewed_version_is_a_real_document() -> None:
    assert set(REVIEWED) <= set(GROUPS), set(REVIEWED) - set(GROUPS)
    assert len([key for key in GROUPS if key[0] == "mtg/cr"]) == 10


@pytest.mark.parametrize(
    "key",
    [
        pytest.param(key, id=f"{key[0]} {key[1]}", marks=[pytest.mark.slow])
        if any(c.values[0].rendition in SLOW for c in GROUPS[key])
        else pytest.param(key, id=f"{key[0]} {key[1]}")
        for key in sorted(GROUPS)
    ],
)
def test_real_findings_are_exactly_the_reviewed_ones_and_recorded_as_errata(
    key: tuple[str, str], blobs: BlobStore, parse_cache_dir: Path
) -> None:
    """Every rendition of the version is parsed as `import` parses it. No finding is left a
    warning, and every listed finding still occurs in at least one of its renditions (one the
    publisher fixed, or one that hides a parser bug, fails here)."""
    listed = REVIEWED.get(key, {})
    seen: set[tuple[str, str, str, str]] = set()
    for case in GROUPS[key]:
        source, version, files = case.values
        doc = parse_case(source, version, files, blobs, parse_cache_dir)
        assert (doc.document, doc.version) == key
        lint = [f"{w.code}: {w.message}" for w in doc.warnings if str(w.code).startswith("lint-")]
        assert lint == [], f"{source.id}: unreviewed findings"
        for erratum in doc.publisher_errata:
            if erratum.code is None:
                continue
            assert erratum.field is not None
            found = (erratum.code, erratum.record, erratum.field, erratum.cites)
            assert erratum.reason == listed[found]
            assert erratum.digest in REVIEWED_TEXTS[(key[0], erratum.record, erratum.field)]
            seen.add(found)
        # an unreviewed finding of what the publisher printed is a note, never a warning
        notes = [n for n in doc.publisher_notes if str(n.code).startswith("lint-")]
        assert {n.code for n in notes} <= PUBLISHERS
        assert len([e for e in doc.publisher_errata if e.code]) + len(notes) == len(
            find_artefacts(doc)
        )
        if source.rendition == "txt":
            # genuinely in the file: each finding is in the decoded text, and so is its
            # context (the parser rejoins wrapped lines, so white space is compared folded)
            raw = decode_text((SHARED / files[0].path).read_bytes())
            folded = " ".join(raw.split())
            for finding in find_artefacts(doc):
                piece = finding.excerpt.replace("«", "").replace("»", "")
                assert finding.text in raw, finding
                assert all(" ".join(p.split()) in folded for p in piece.split("\n")), finding
    assert seen == set(listed), f"listed but no longer found: {set(listed) - seen}"


def test_the_lint_page_lists_every_reviewed_finding_by_record() -> None:
    section = (ROOT / "docs" / "lint.md").read_text(encoding="utf-8")
    for (document, version), findings in REVIEWED.items():
        for code, record, _field, _text in findings:
            bare = record.removeprefix("cr:").removeprefix("glossary:")
            bare = bare.removeprefix("ppg:").removeprefix("trp:").removeprefix("tr:")
            assert re.search(rf"(?<![\w.]){re.escape(bare)}(?![\w-]|\.\w)", section), (
                document,
                version,
                code,
                record,
            )
        assert document in section


# --------------------------------------------------------------------------- the joined search


def _read_text_by_text(doc: Document) -> list[tuple[str, str, str, str, str]]:
    """The findings of every text read by every rule, whole: no gate, so a gate that
    hid a finding would show."""
    from pipeline.parse.lint import _fields

    return [
        (str(rule.code), field.record, field.name, field.text[a:b], field.text)
        for field in _fields(doc)
        for rule in RULES
        for a, b in rule.spans(field)
    ]


# Words and every character some rule looks for, the joining separator included, so texts
# end and start with what would make a finding across a boundary.
_MARKS = list('.,;:!?)([]{}\u201c\u201d"+\u00d7=<&\u00a1\u00bf\ufffd\x07\u200b\u00ad')
_WORDS = ["of", "the", "rule 1.2", "[1.0.1a]", "Dominate", "&amp;", "<b>", "()", "[?4]"]
_PIECES = st.sampled_from([*_WORDS, " ", "  ", "\t", "\xa0", "\n", "\uffff", *_MARKS])
_TEXTS = st.lists(st.lists(_PIECES, max_size=8).map("".join), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.sampled_from([None, "Dominate", "of"]))
def test_the_joined_search_finds_what_reading_each_text_finds(
    texts: list[str], title: str | None
) -> None:
    doc = doc_of(*texts, title=title, examples=tuple(texts[:1]))
    found = [(str(f.code), f.record, f.field, f.text) for f in find_artefacts(doc)]
    assert found == [finding[:4] for finding in _read_text_by_text(doc)]


def test_a_rules_marks_hold_every_character_its_pattern_finds_alone() -> None:
    # A rule with `marks` is read only where one of them occurs, so a character its
    # pattern finds on its own must be among them (the BMP is checked whole).
    for rule in RULES:
        if not rule.marks or rule.pattern is None:
            continue
        alone = {chr(c) for c in range(0x10000) if rule.pattern.fullmatch(chr(c))}
        assert alone <= set(rule.marks), (rule.code, sorted(alone - set(rule.marks)))


@pytest.mark.parametrize(
    "text",
    [
        "The standby player may activate <Blocker> on one of their active Units.",
        'Cards with "<condition> => <effect>" [Trigger] are automatic abilities.',
        "Choose a <Y> card.",
        "Converted to .txt form by a reader.",
        "Resolve the following criteria: 1) It defines an object's type, 2) it is legal.",
    ],
)
def test_a_games_own_notation_is_no_finding(text: str) -> None:
    """Keywords and placeholders in angle brackets (Gundam's `<Blocker>`, Force of Will's
    `<attribute>`) were read as stray HTML; a file name's `.txt` as a full stop after a
    missing operand; a list marker `1)` inside a sentence as an unbalanced bracket."""
    assert find_artefacts(doc_of("A clean rule before it.", text)) == []


def test_html_elements_are_still_markup() -> None:
    found = find_artefacts(doc_of("A clean rule.", 'Gain 1<span class="x">{h}</span> and <br/>.'))
    assert [(str(f.code), f.text) for f in found] == [
        ("lint-markup", '<span class="x">'),
        ("lint-markup", "</span>"),
        ("lint-markup", "<br/>"),
    ]


def test_a_zero_width_space_a_text_file_holds_is_a_note_and_one_a_pdf_gave_a_warning() -> None:
    """A text export of a PDF keeps the PDF's zero-width spaces (1,650 in NISEI's CR 1.4 by
    pdftotext), and each was a warning: the version could never publish unattended, though
    the parser read the file as it is. From a text file it is the file's own, a note."""
    doc = doc_of("A clean rule before it.", "The Runner\u200b draws a card.")
    from_text = lint_parsed(doc, text_file=True)
    assert from_text.warnings == []
    assert [(str(n.code), n.text) for n in from_text.publisher_notes] == [
        ("lint-zero-width", "\u200b")
    ]
    assert [str(w.code) for w in lint_parsed(doc).warnings] == ["lint-zero-width"]
