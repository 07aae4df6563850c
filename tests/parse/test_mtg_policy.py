"""Magic's tournament documents: the Tournament Rules (`mtr:`) and the Infraction Procedure
Guide (`ipg:`), family `mtg-policy`, both versions of each; Judging at Regular REL, which
has no numbers, by its headings (family `headed-sections`)."""

from __future__ import annotations

import pytest

from pipeline.extract.html import list_links
from pipeline.fetch.discover import find_link
from pipeline.models.records import Document, Rule
from pipeline.registry.loader import load_registry
from tests.conftest import ParseReal

MTR_2018 = "mtg/tournament-rules/2018-05-18/MTG_MTR_2018_May18_EN.pdf"
MTR_2024 = "mtg/tournament-rules/2024-05-13/MTG_MTR_2024_May13.pdf"
IPG_2018 = "mtg/infraction-procedure-guide/2018-04-27/MTG_IPG_2018Apr27_EN.pdf"
IPG_2024 = "mtg/infraction-procedure-guide/2024-04-15/MTG_IPG_2024Apr15_EN.pdf"
JAR = "mtg/judging-at-regular-rel/2014-09-26/mtg_jar_2014Sep26_en.pdf"
# (path, version, chapters, sections), as the publisher's contents list them
MTR = [(MTR_2018, "2018-05-18", 10, 82), (MTR_2024, "2024-05-13", 10, 87)]
IPG = [(IPG_2018, "2018-04-27", 4, 28), (IPG_2024, "2024-04-15", 4, 28)]


def mtr(parse_real: ParseReal, path: str) -> Document:
    return parse_real(path, "mtg-policy", document="mtg/mtr", prefix="mtr")


def ipg(parse_real: ParseReal, path: str) -> Document:
    return parse_real(path, "mtg-policy", document="mtg/ipg", prefix="ipg")


def record(doc: Document, ident: str) -> Rule:
    return next(r for r in doc.records if r.id == ident)


@pytest.mark.parametrize(("path", "version", "chapters", "sections"), MTR + IPG)
def test_each_version_parses_cleanly_with_its_stated_date_and_every_section(
    parse_real: ParseReal, path: str, version: str, chapters: int, sections: int
) -> None:
    doc = (mtr if "tournament-rules" in path else ipg)(parse_real, path)
    assert doc.warnings == []
    # the title page's `Effective May 13, 2024`, not a date of the change log
    assert (doc.version, doc.effective) == (version, version)
    kinds = [r.kind for r in doc.records]
    assert (kinds.count("chapter"), kinds.count("section")) == (chapters, sections)
    prefix = "mtr" if "tournament-rules" in path else "ipg"
    numbers = [r.number for r in doc.records if r.kind == "section" and r.parent == f"{prefix}:1"]
    assert numbers[:2] == ["1.1", "1.2"]
    assert all(r.id == f"{prefix}:{r.number}" for r in doc.records)


@pytest.mark.parametrize(
    ("path", "opening"),
    [
        (MTR_2018, "Sanctioned, rated tournaments are divided into two types"),
        (MTR_2024, "There are two types of sanctioned Magic tournaments: rated and casual.\n"),
    ],
)
def test_mtr_titles_and_order_read_as_printed(
    parse_real: ParseReal, path: str, opening: str
) -> None:
    doc = mtr(parse_real, path)
    assert doc.title == "MAGIC: THE GATHERING® TOURNAMENT RULES"
    first = record(doc, "mtr:1.1")
    assert (first.title, first.parent, first.depth) == ("Tournament Types", "mtr:1", 2)
    assert first.text.startswith(opening)
    ids = [r.id for r in doc.records]
    assert ids.index("mtr:1.10") == ids.index("mtr:1.9") + 1  # 1.10 after 1.9, not after 1.1
    assert record(doc, "mtr:10").title == "Sanctioning Rules"
    assert [r.id for r in doc.records if r.parent == "mtr:10"] == [
        f"mtr:10.{n}" for n in range(1, 5)
    ]


def test_mtr_numbered_steps_stay_text_of_their_section(parse_real: ParseReal) -> None:
    doc = mtr(parse_real, MTR_2024)
    steps = record(doc, "mtr:2.3")
    assert steps.title == "Pregame Procedures"
    assert "\n1. If sideboarding is allowed, players may remove cards" in steps.text
    assert "\n7. Each player, in turn order, may take mulligans." in steps.text
    # the steps never open a chapter: chapters are 1 to 10 in order, each once
    assert [r.number for r in doc.records if r.kind == "chapter"] == [str(n) for n in range(1, 11)]


def test_mtr_wrapped_number_and_appendices_are_back_matter_text(parse_real: ParseReal) -> None:
    doc = mtr(parse_real, MTR_2024)
    assert not any(r.number.startswith("0") for r in doc.records)
    back = {p.id: p for p in doc.back_matter}
    assert list(back) == [
        "appendix-a-changes-from-previous-versions",
        "appendix-b-time-limits",
        "appendix-c-tiebreaker-explanation",
        "appendix-d-recommended-play-booster-mix-for-limited-tournaments",
        "appendix-e-recommended-number-of-rounds-in-swiss-tournaments",
        "appendix-f-rules-enforcement-levels-of-programs",
    ]
    assert "0.33 instead." in back["appendix-c-tiebreaker-explanation"].text
    # the last section ends where Appendix A begins
    assert record(doc, "mtr:10.4").text.endswith("Regional Championship Qualifier")


def test_mtr_2018_and_2024_differ_where_the_publisher_moved_sections(parse_real: ParseReal) -> None:
    old, new = mtr(parse_real, MTR_2018), mtr(parse_real, MTR_2024)
    assert record(old, "mtr:2.4").title == "Conceding or Intentionally Drawing Games or Matches"
    assert record(new, "mtr:2.5").title == "Conceding or Intentionally Drawing Games or Matches"
    assert record(new, "mtr:3.9").title == "Die Rolling"
    assert record(old, "mtr:3.9").title == record(new, "mtr:3.10").title == "Card Shuffling"
    assert record(old, "mtr:3.15").title == record(new, "mtr:3.16").title == "Sideboard"


def test_mtr_citations_resolve_in_it_or_name_the_comprehensive_rules(parse_real: ParseReal) -> None:
    doc = mtr(parse_real, MTR_2024)
    assert record(doc, "mtr:2.3").references == ["mtr:2.2", "cr:103.4"]
    assert record(doc, "mtr:8.6").references == ["mtr:7"]
    known = {r.id for r in doc.records}
    own = [ref for r in doc.records for ref in r.references if ref.startswith("mtr:")]
    assert own and set(own) <= known


@pytest.mark.parametrize("path", [IPG_2018, IPG_2024])
def test_ipg_infraction_title_penalty_and_blocks(parse_real: ParseReal, path: str) -> None:
    doc = ipg(parse_real, path)
    assert doc.title == "MAGIC INFRACTION PROCEDURE GUIDE"
    trigger = record(doc, "ipg:2.1")
    assert trigger.title == "Game Play Error — Missed Trigger"
    # the penalty the heading sets at the right margin, kept as the first paragraph
    assert trigger.text.startswith("No Penalty\nDefinition\nA triggered ability triggers")
    assert "\nPhilosophy\nTriggered abilities are common and invisible" in trigger.text
    assert trigger.examples[0].startswith("A. ")
    tardiness = record(doc, "ipg:3.1")
    assert (tardiness.title, tardiness.text.split("\n")[0]) == (
        "Tournament Error — Tardiness",
        "Game Loss",
    )
    assert record(doc, "ipg:1.1").title == "DEFINITION OF PENALTIES"


def test_ipg_penalties_that_changed_between_versions(parse_real: ParseReal) -> None:
    old, new = ipg(parse_real, IPG_2018), ipg(parse_real, IPG_2024)
    for ident in ("ipg:4.3", "ipg:4.4"):
        assert record(old, ident).text.split("\n")[0] == "Disqualification"
        assert record(new, ident).text.split("\n")[0] == "Match Loss"


def test_ipg_citations_of_itself_and_of_the_tournament_rules(parse_real: ParseReal) -> None:
    doc = ipg(parse_real, IPG_2024)
    # `Tardiness (3.1) and Decklist Problems (3.4)`
    assert record(doc, "ipg:1.2").references == ["ipg:3.1", "ipg:3.4"]
    # `MTR section 4.3`, `section 5.2 of the Magic Tournament Rules`
    assert "mtr:4.3" in record(doc, "ipg:2.1").references
    assert record(doc, "ipg:4.4").references == ["mtr:5.2"]
    assert [p.id for p in doc.back_matter] == [
        "appendix-a-penalty-quick-reference",
        "appendix-b-changes-from-previous-versions",
    ]


def test_jar_is_read_by_its_headings_and_dated_by_its_update(parse_real: ParseReal) -> None:
    doc = parse_real(JAR, "headed-sections", document="mtg/jar")
    assert doc.warnings == []
    assert doc.title == "Judging at Regular Rules Enforcement Level (REL)"
    assert (doc.version, doc.published) == ("2014-09-26", "2014-09-26")
    sections = [r.id for r in doc.records if r.kind == "section"]
    assert sections == [
        "sec:common-issues",
        "sec:general-unwanted-behaviors",
        "sec:serious-problems",
        "sec:resources",
    ]
    # the bold one-line scenarios under Common Issues, a sentence's length each
    issues = [r.title for r in doc.records if r.parent == "sec:common-issues"]
    assert issues == [
        "A player sees a card in a library that he or she shouldn’t have seen",
        "A player accidentally draws has more cards than he or she was supposed to",
        "A player makes an in-game error not mentioned above",
        "A player has illegal, insufficient, or another player’s cards in his or her deck",
    ]
    behaviours = record(doc, "sec:general-unwanted-behaviors").text.split("\n")
    # each item drawn with the symbol font's bullet is a paragraph of its own
    assert behaviours[1].endswith("Inadequate shuffling.")


def test_the_registry_declares_the_three_documents() -> None:
    sources = {s.document: s for s in load_registry()}
    assert sources["mtg/mtr"].family == sources["mtg/ipg"].family == "mtg-policy"
    assert sources["mtg/jar"].family == "headed-sections"
    # each release is a new file: its link is found on the page the documents name
    for document in ("mtg/mtr", "mtg/ipg"):
        discovery = sources[document].discovery
        assert discovery is not None
        assert discovery.page == "https://wpn.wizards.com/en/rules-documents"


def test_a_label_at_the_top_of_two_pages_is_not_a_running_head(parse_real: ParseReal) -> None:
    """`Examples` opens page 22 of the 2024 IPG and another page: read as a running head,
    it was dropped and 3.8's examples joined its definition."""
    marked = record(ipg(parse_real, IPG_2024), "ipg:3.8")
    assert [e[:3] for e in marked.examples] == ["A. ", "B. ", "C. "]
    assert "\nA. " not in marked.text


def test_ipg_front_matter_is_its_introduction_without_the_contents(parse_real: ParseReal) -> None:
    doc = ipg(parse_real, IPG_2024)
    assert [p.id for p in doc.front_matter] == ["introduction", "framework-of-this-document"]
    assert doc.counts["contents_entries"] == 37


def test_discovery_takes_the_english_release_among_translations() -> None:
    """WPN's page links each document once per language; the English one is the release."""
    page = b"""<html><body>
      <a href="https://media.wizards.com/ContentResources/WPN/MTG_MTR_2025_Sep23.pdf">MTR</a>
      <a href="https://media.wizards.com/ContentResources/WPN/MTG_MTR_2025_Sep23_FR.pdf">FR</a>
      <a href="https://media.wizards.com/ContentResources/WPN/MTG_IPG_2025Sep23_EN.pdf">IPG</a>
      <a href="https://media.wizards.com/ContentResources/WPN/MTG_IPG_2025Sep23_JA.pdf">JA</a>
    </body></html>"""
    sources = {s.document: s for s in load_registry()}
    found = {}
    for document in ("mtg/mtr", "mtg/ipg"):
        discovery = sources[document].discovery
        assert discovery is not None
        found[document] = find_link(
            page,
            discovery.page,
            discovery.link_pattern,
            source=sources[document].id,
            list_links=list_links,
        )
    assert found == {
        "mtg/mtr": "https://media.wizards.com/ContentResources/WPN/MTG_MTR_2025_Sep23.pdf",
        "mtg/ipg": "https://media.wizards.com/ContentResources/WPN/MTG_IPG_2025Sep23_EN.pdf",
    }
