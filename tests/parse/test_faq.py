"""FAQ pages (`faq-html`) in the three shapes such pages take, written as fixtures by the project:
headings followed by paragraphs, definition lists, and Q:/A: paragraphs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.errors import ParseError
from pipeline.extract.html import read_faq_page
from pipeline.models.records import Document, ParseOptions
from pipeline.parse import faq
from pipeline.parse.rulings import ruling_id

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "faq"

HEADINGS = {
    "scope": "article.release-notes",
    "card": "h2.card",
    "question": "h3",
    "answer": "p, ul",
    "version": "p.updated",
}
DEFINITIONS = {"question": "section.faq dt", "answer": "dd", "section": "section.faq h2"}
# "FAQ:" in the intro contains "Q:", so the selector asks for the bold label itself.
QA = {
    "scope": "div.entry-content",
    "question": "p:has(> strong:-soup-contains-own('Q:'))",
    "answer": "p:has(> strong:-soup-contains-own('A:'))",
    "card": "div.entry-content h3:not(.sd-title)",
}


def parse_html(
    data: bytes, *, document: str, version: str | None, selectors: dict[str, str]
) -> Document:
    """Extraction then parsing, as families.parse_bytes does for a faq-html source."""
    page = replace(read_faq_page(data, what=document, selectors=selectors), selectors=selectors)
    return faq.parse(page, {}, ParseOptions(document, "html", version))


def parse(name: str, selectors: dict[str, str], version: str | None = None) -> Document:
    data = (FIXTURES / name).read_bytes()
    return parse_html(data, document="netrunner/faq-test", version=version, selectors=selectors)


def test_headings_followed_by_paragraphs() -> None:
    doc = parse("release-notes-headings.html", HEADINGS)
    assert doc.warnings == []
    assert doc.title == "Elevation Release Notes | Null Signal Games"
    assert doc.version == "2024-03-15"  # read from the page's own "Last updated" line
    assert doc.parser.family == "faq-html"
    got = [(r.card_titles, r.cards, r.question, r.answer, r.card_references) for r in doc.rulings]
    assert got == [
        (
            ["Carnivore"],
            ["34001"],
            "Can the Runner use Carnivore to trash an agenda they do not want to steal?",
            "Yes. Once the agenda is trashed, the access ends.\nThe Runner does not steal it.",
            ["34001"],
        ),
        (
            ["Carnivore"],
            ["34001"],
            "Does Carnivore work during a run on Archives?",
            "Yes, but only for cards the Runner accesses faceup.",
            [],
        ),
        (
            ["Hyperbaric Chamber"],
            ["34002"],
            "When does Hyperbaric Chamber check the number of hosted counters?",
            "Only as its ability resolves:\nafter the Corp pays the cost, and\n"
            "before any Rapid Response trigger.",
            ["34003"],
        ),
    ]
    # nav, aside and footer headings ("Menu heading...", "Recent posts", "Contact") are not rulings
    assert doc.counts == {"rulings": 3, "cards": 2, "multi_card_rulings": 0, "sections": 0}
    assert [r.location.line for r in doc.rulings if r.location] == [28, 32, 36]


def test_ids_follow_the_rulings_scheme() -> None:
    doc = parse("release-notes-headings.html", HEADINGS)
    first = doc.rulings[0]
    assert first.id == ruling_id(first.question, first.answer, None, None)
    # reformatting the markup (whitespace, tags) keeps every id
    data = (FIXTURES / "release-notes-headings.html").read_bytes()
    reflowed = data.replace(b"<p>Yes. Once", b"<p>\n   Yes.   Once").replace(
        b"does <em>not</em>", b"does <b>not</b>"
    )
    again = parse_html(reflowed, document="netrunner/faq-test", version=None, selectors=HEADINGS)
    assert [r.id for r in again.rulings] == [r.id for r in doc.rulings]


def test_definition_list_in_a_windows_1252_page() -> None:
    doc = parse("faq-definition-list.html", DEFINITIONS, version="2019-06")
    assert doc.warnings == []
    assert doc.version == "2019-06"
    got = [(r.section, r.question, r.answer) for r in doc.rulings]
    assert got == [
        (
            "Timing",
            "May a player take back an action once the opponent has responded?",
            "No. Once the opponent’s response is made, the game state has advanced.",
        ),
        (
            "Timing",
            "What happens if a player forgets a mandatory trigger?",
            "Resolve it as soon as the error is noticed, if that is within the same turn.\n"
            "Otherwise the trigger is lost; judges may issue a caution.",
        ),
        (
            "Deck Registration",
            "Must decklists list the identity card?",
            "Yes. A decklist without its identity is illegal and must be corrected before "
            "round 1 begins. Café owners: note this.",
        ),
    ]
    assert all(r.cards == [] for r in doc.rulings)


def test_q_and_a_paragraphs_including_an_answer_in_the_same_paragraph() -> None:
    doc = parse("blog-q-a-paragraphs.html", QA)
    assert doc.title == "Rulings Roundup #12 – The Runner’s Blog"
    assert [w.code for w in doc.warnings] == ["no-version"]  # a blog post states none
    got = [(r.card_titles, r.question, r.answer, r.card_references) for r in doc.rulings]
    assert got == [
        (
            ["Virtuoso"],
            "Does the Runner’s mark stay if all mark cards leave play?",
            "Yes. That server stays the mark for the turn.",
            [],
        ),
        (
            ["Virtuoso"],
            "Can the Runner over-install Virtuoso and trigger it again?",
            "No. The next successful run on the mark is not the first run.",
            ["33015"],
        ),
        (
            ["Docklands Pass"],
            "Does Virtuoso work with Docklands Pass?",
            "Yes. The Runner accesses 1 additional card during the breach.",
            ["33015", "30013"],
        ),
    ]
    assert doc.rulings[2].cards == ["docklands-pass"]  # no card link in the heading: its slug


def test_text_rulings_without_questions() -> None:
    doc = parse(
        "faq-definition-list.html",
        {"text": "section.faq dd", "section": "section.faq h2"},
        version="v",
    )
    assert doc.rulings[0].text == (
        "No. Once the opponent’s response is made, the game state has advanced."
    )
    assert all(r.question is None and r.answer is None for r in doc.rulings)
    assert len(doc.rulings) == 4


def test_same_question_under_two_cards_is_one_ruling() -> None:
    html = b"""<html><body><h2>Alpha</h2><h3>Does it stack?</h3><p>No.</p>
               <h2>Beta</h2><h3>Does it stack?</h3><p>No.</p></body></html>"""
    doc = parse_html(
        html,
        document="g/faq",
        version="1",
        selectors={"card": "h2", "question": "h3", "answer": "p"},
    )
    (ruling,) = doc.rulings
    assert ruling.cards == ["alpha", "beta"] and ruling.card_titles == ["Alpha", "Beta"]
    assert doc.counts["multi_card_rulings"] == 1


def test_selectors_matching_nothing_is_an_error_naming_them() -> None:
    with pytest.raises(ParseError) as err:
        parse("faq-definition-list.html", {"question": "div.faq-question", "answer": "div.a"})
    message = str(err.value)
    assert "match nothing" in message and "div.faq-question" in message


def test_questions_without_any_answer_is_an_error() -> None:
    with pytest.raises(ParseError, match="no question has an answer"):
        parse("release-notes-headings.html", {**HEADINGS, "answer": "blockquote"})


def test_one_unanswered_question_is_a_warning() -> None:
    html = b"<html><body><h3>Asked?</h3><p>Answered.</p><h3>Unanswered?</h3></body></html>"
    doc = parse_html(
        html, document="g/faq", version="1", selectors={"question": "h3", "answer": "p"}
    )
    assert [w.code for w in doc.warnings] == ["no-answer"]
    assert [r.answer for r in doc.rulings] == ["Answered.", None]


@pytest.mark.parametrize(
    "selectors, problem",
    [
        ({"question": "h3"}, "needs question and answer"),
        ({"question": "h3", "answer": "p", "colour": "red"}, "unknown selector keys"),
        ({"question": "h3[", "answer": "p"}, "not valid CSS"),
    ],
)
def test_bad_registry_selectors(selectors: dict[str, str], problem: str) -> None:
    with pytest.raises(ParseError, match=problem):
        parse("release-notes-headings.html", selectors)
