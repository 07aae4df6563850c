"""The mtg-cr parser on every real TXT version, and on small fixtures made for the edge cases."""

from __future__ import annotations

import functools
import re
from datetime import datetime
from pathlib import Path

import pytest

from pipeline.extract.text import decode_text, extract_text_lines
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.mtg import cr as mtg
from tests.support.helpers import SHARED

MTG = SHARED / "mtg" / "comprehensive-rules"
ALL_VERSIONS = sorted(p.name for p in MTG.iterdir() if any(p.glob("*.txt")))
# The exports since the July 2009 rewrite: nine chapters, "These rules are effective as of".
# The older ones (tests/store/test_version_order.py) say "current as of" and have fewer chapters.
VERSIONS = [v for v in ALL_VERSIONS if v >= "20090710"]
FIXTURE = Path(__file__).parent / "fixtures" / "mtg" / "mini.txt"

# The independent count: a numbered rule line is a line starting `NNN.N` (a rule)
# or `NNN.Na` (a subrule), whatever follows. The contents list only holds `N.` and
# `NNN.` headings and the glossary never starts a line with a rule number, so
# neither can inflate the count; the test still stops at the glossary heading.
RULE_LINE = re.compile(r"^\d{3}\.\d+(?![\da-z])", re.MULTILINE)
SUBRULE_LINE = re.compile(r"^\d{3}\.\d+[a-z]", re.MULTILINE)
HEADING_LINE = re.compile(r"^\d{1,3}\. ", re.MULTILINE)


def find_references(text: str, known: set[str]) -> list[str]:
    return mtg.ENGINE.references.find(text, known=known)


def txt_path(version: str) -> Path:
    (path,) = (MTG / version).glob("*.txt")
    return path


@functools.cache
def parsed(version: str) -> Document:
    data = txt_path(version).read_bytes()
    return mtg.parse(
        extract_text_lines(data, sentinel=mtg.SENTINEL), {}, ParseOptions("mtg/cr", "txt")
    )


def parse_text(text: str, version: str | None = None) -> Document:
    return mtg.parse(
        extract_text_lines(text.encode("utf-8")), {}, ParseOptions("mtg/cr", "txt", version)
    )


def split_regions(text: str) -> tuple[str, str]:
    """(everything before the glossary heading, the glossary up to the credits heading)."""
    lines = text.split("\n")
    glossary = max(i for i, ln in enumerate(lines) if ln == "Glossary")
    credits = max(i for i, ln in enumerate(lines) if ln == "Credits")
    return "\n".join(lines[:glossary]), "\n".join(lines[glossary + 1 : credits])


def test_every_given_version_is_present() -> None:
    assert ALL_VERSIONS == [
        "20030315",
        "20061001",
        "20090201",
        "20221007",
        "20221118",
        "20230414",
        "20240607",
        "20250207",
        "20250725",
        "20251114",
    ]


@pytest.mark.parametrize("version", VERSIONS)
def test_txt_parses_cleanly_and_counts_match_an_independent_grep(version: str) -> None:
    doc = parsed(version)
    assert doc.warnings == []
    text = decode_text(txt_path(version).read_bytes())
    rules_part, glossary_part = split_regions(text)
    by_kind = {
        k: sum(r.kind == k for r in doc.records) for k in ("chapter", "section", "rule", "subrule")
    }
    assert by_kind["rule"] == len(RULE_LINE.findall(rules_part))
    assert by_kind["subrule"] == len(SUBRULE_LINE.findall(rules_part))
    # Every heading appears twice: once in the contents, once above its rules.
    assert 2 * (by_kind["chapter"] + by_kind["section"]) == len(HEADING_LINE.findall(rules_part))
    assert by_kind["chapter"] == 9
    # A glossary entry is a paragraph after a blank line.
    entries = len(re.findall(r"(?:^|\n\n)(?=\S)", glossary_part.strip("\n")))
    assert len(doc.glossary) == entries
    assert doc.counts["records"] == len(doc.records) == sum(by_kind.values())
    assert doc.counts["glossary"] == len(doc.glossary)
    assert len({r.id for r in doc.records}) == len(doc.records)


@pytest.mark.parametrize("version", VERSIONS)
def test_version_is_the_effective_date_the_text_states(version: str) -> None:
    doc = parsed(version)
    text = decode_text(txt_path(version).read_bytes())
    stated = re.search(r"These rules are effective as of (\w+) (\d+), (\d{4})\.", text)
    assert stated is not None
    month, day, year = stated.groups()
    said = datetime.strptime(f"{year} {month} {day}", "%Y %B %d").date().isoformat()
    assert doc.version == said
    assert doc.version == doc.effective == f"{version[:4]}-{version[4:6]}-{version[6:]}"
    assert doc.title == mtg.SENTINEL
    assert doc.parser.family == "mtg-cr" and doc.parser.version == mtg.PARSER_VERSION


def test_the_20251114_example_from_the_brief() -> None:
    assert parsed("20251114").version == "2025-11-14"
    assert (
        mtg.read_effective_date("These rules are effective as of January 16, 2026.") == "2026-01-16"
    )
    assert mtg.read_effective_date("These rules are effective as of Smarch 16, 2026.") is None
    assert mtg.read_effective_date("These rules are effective as of February 30, 2026.") is None


def test_parsing_twice_gives_identical_json() -> None:
    data = txt_path("20221118").read_bytes()
    first = mtg.parse(
        extract_text_lines(data, sentinel=mtg.SENTINEL), {}, ParseOptions("mtg/cr", "txt")
    )
    second = mtg.parse(
        extract_text_lines(data, sentinel=mtg.SENTINEL), {}, ParseOptions("mtg/cr", "txt")
    )
    assert first.model_dump_json() == second.model_dump_json()
    assert first.model_dump_json() == parsed("20221118").model_dump_json()


def test_ids_parents_depths_and_titles_on_the_real_document() -> None:
    doc = parsed("20251114")
    by_id = {r.id: r for r in doc.records}
    chapter, section = by_id["cr:1"], by_id["cr:100"]
    assert (chapter.kind, chapter.title, chapter.parent, chapter.depth) == (
        "chapter",
        "Game Concepts",
        None,
        1,
    )
    assert (section.kind, section.title, section.parent, section.depth) == (
        "section",
        "General",
        "cr:1",
        2,
    )
    rule, sub = by_id["cr:100.1"], by_id["cr:100.1a"]
    assert (rule.kind, rule.parent, rule.depth, rule.title) == ("rule", "cr:100", 3, None)
    assert rule.text.startswith(
        "These Magic rules apply to any Magic game with two or more players"
    )
    assert (sub.kind, sub.parent, sub.depth) == ("subrule", "cr:100.1", 4)
    assert sub.text == "A two-player game is a game that begins with only two players."
    assert by_id["cr:702.19c"].parent == "cr:702.19"
    assert doc.records[0].id == "cr:1" and doc.records[1].id == "cr:100"
    # The contents list is not parsed: the first record sits well below it.
    contents_line = next(p.location.line for p in doc.front_matter if p.id == "introduction")
    assert chapter.location.line > contents_line + 150
    assert sum(r.id == "cr:100" for r in doc.records) == 1


def test_publisher_typographic_slips_in_rule_numbers_are_read() -> None:
    """`606.5 If` (no dot), `901.4.All` (no space), `119.1d. In` (dot after the letter)."""
    doc = parsed("20221007")
    by_id = {r.id: r for r in doc.records}
    assert by_id["cr:606.5"].text.startswith("If the total cost to activate a loyalty ability")
    assert by_id["cr:901.4"].text.startswith("All plane and phenomenon cards remain")
    assert by_id["cr:119.1d"].text.startswith("In a two-player Brawl game")
    assert by_id["cr:119.1d"].parent == "cr:119.1"


def test_subrule_letters_skip_l_and_o_without_warnings() -> None:
    doc = parsed("20251114")
    ids = {r.id for r in doc.records}
    assert {"cr:704.5k", "cr:704.5m", "cr:704.5n", "cr:704.5p"} <= ids
    assert "cr:704.5l" not in ids and "cr:704.5o" not in ids
    assert all(r.number[-1] not in "lo" for r in doc.records if r.kind == "subrule")


def test_the_2023_numbering_gap_is_counted_not_warned() -> None:
    """20230414 numbers 712.3d right after 712.3 (fixed as 712.3a in 20240607)."""
    doc = parsed("20230414")
    ids = [r.id for r in doc.records]
    at = ids.index("cr:712.3")
    assert ids[at + 1] == "cr:712.3d"
    assert doc.counts["numbering_gaps"] == 1 and doc.warnings == []
    assert "numbering_gaps" not in parsed("20240607").counts


def test_examples_and_second_paragraphs_are_split_out() -> None:
    by_id = {r.id: r for r in parsed("20251114").records}
    rule = by_id["cr:101.2"]
    assert rule.text.endswith("the \u201ccan\u2019t\u201d effect takes precedence.")
    assert rule.examples == [
        "If one effect reads \u201cYou may play an additional land this turn\u201d and another "
        "reads \u201cYou can\u2019t play lands this turn,\u201d the effect that precludes you "
        "from playing lands wins."
    ]
    blockers = by_id["cr:509.1b"]
    first, second = blockers.text.split("\n")
    assert first.startswith("The defending player checks each creature")
    assert second.startswith("A restriction may be created by an evasion ability")
    assert len(blockers.examples) == 1 and "Example" not in blockers.examples[0]
    total = sum(len(r.examples) for r in parsed("20251114").records)
    text = decode_text(txt_path("20251114").read_bytes())
    assert total == len(re.findall(r"^Example:", text, re.MULTILINE))


def test_references_in_the_real_text() -> None:
    doc = parsed("20251114")
    by_id = {r.id: r for r in doc.records}
    assert by_id["cr:100.1b"].references == ["cr:8"]  # "See section 8"
    assert by_id["cr:101.4b"].references == ["cr:101.4a"]  # bare "as specified in 101.4a"
    casting = by_id["cr:601.2"].references
    assert casting[:4] == ["cr:601.2a", "cr:601.2b", "cr:601.2c", "cr:601.2d"]  # rules 601.2a–d
    assert "cr:601.2e" not in casting[:7] and "cr:732" in casting  # rule 732, "Handling..."
    assert by_id["cr:903.13g"].references == [f"cr:903.{n}" for n in range(6, 12)]
    assert by_id["cr:701.12c"].references == ["cr:119.7", "cr:119.8"]  # rules 119.7–8
    # "rules 608.2c–n" spans the letters l and o, which do not exist.
    assert by_id["cr:608.2p"].references[-2:] == ["cr:608.2m", "cr:608.2n"]
    assert "cr:608.2l" not in by_id["cr:608.2p"].references
    # "layers 2–6" is not a reference.
    assert all(not ref.startswith("cr:2") for ref in by_id["cr:613.3"].references)
    # Independently: every decimal rule number written in a rule is among its references.
    for record in doc.records:
        written = re.findall(
            r"(?<![\d.])(\d{3}\.\d+[a-z]?)(?![a-z\d])", " ".join([record.text, *record.examples])
        )
        assert {f"cr:{n}" for n in written} <= set(record.references), record.id
    known = {r.id for r in doc.records}
    assert {ref for r in doc.records for ref in r.references} <= known


def test_glossary_terms_definitions_and_references() -> None:
    doc = parsed("20251114")
    terms = {g.id: g for g in doc.glossary}
    ability = terms["glossary:ability"]
    assert ability.term == "Ability"
    assert (
        ability.definition.split("\n")[0]
        == "1. Text on an object that explains what that object does or can do."
    )
    assert ability.references == ["cr:113", "cr:6"]
    assert terms["glossary:win-the-game"].references == ["cr:104", "cr:810.8", "cr:809.5"]
    assert terms["glossary:zone"].references == ["cr:4"]
    assert terms["glossary:you-your"].term == "You, Your"
    assert doc.glossary[0].term == "Abandon" and doc.glossary[-1].term == "Zone-Change Triggers"


def test_the_known_glossary_slip_is_recorded_and_kept_as_printed() -> None:
    doc = parsed("20251114")
    assert "cr:110.10" in {g.id: g for g in doc.glossary}["glossary:map"].references
    assert "cr:110.10" not in {r.id for r in doc.records}
    assert [(e.record, e.cites) for e in doc.publisher_errata] == [("glossary:map", "cr:110.10")]
    assert parsed("20221007").publisher_errata == []


def test_front_and_back_matter() -> None:
    doc = parsed("20251114")
    (intro,) = doc.front_matter
    assert intro.title == "Introduction"
    assert intro.text.startswith("This document is the ultimate authority for Magic")
    assert "Contents" not in intro.text
    credits, legal = doc.back_matter
    assert credits.title == "Credits" and "Richard Garfield" in credits.text
    assert legal.text.startswith("These rules are effective as of November 14, 2025.")
    assert all("Richard Garfield" not in r.text for r in doc.records)


# --------------------------------------------------------------------------- fixtures


def test_fixture_document_structure() -> None:
    doc = parse_text(FIXTURE.read_text(encoding="utf-8"))
    assert doc.warnings == []
    assert doc.version == "2026-01-16"
    assert [r.id for r in doc.records if r.title] == ["cr:1", "cr:100", "cr:101", "cr:7", "cr:700"]
    by_id = {r.id: r for r in doc.records}
    letters = [r.number[-1] for r in doc.records if r.parent == "cr:100.2"]
    assert "".join(letters) == "abcdefghijkmnpq"
    assert by_id["cr:100.2"].references[:15] == [f"cr:100.2{x}" for x in "abcdefghijkmnpq"]
    assert by_id["cr:100.2"].references[15:] == ["cr:101.1", "cr:101.2", "cr:101.3"]
    assert by_id["cr:101.1"].examples == ["The first example.", "The second example, citing 101.3."]
    assert by_id["cr:101.1"].references == ["cr:101.1", "cr:700", "cr:1", "cr:101.3"]
    assert by_id["cr:101.3"].references == ["cr:101"]  # "section 101"
    assert by_id["cr:100.1b"].references == ["cr:100.1a", "cr:100.1b"]  # rules 100.1a-b
    glossary = {g.term: g for g in doc.glossary}
    assert glossary["Golden Rules"].references == ["cr:101.1", "cr:101.2", "cr:101.3"]
    assert glossary["Ability"].references == ["cr:101", "cr:7"]


def test_dangling_reference_is_a_publisher_note() -> None:
    """A citation of a rule the document lacks, in a parse that lost no rule, is what the
    publisher printed (a rule removed or renumbered): a note, not a warning."""
    text = FIXTURE.read_text(encoding="utf-8").replace("rule 700.1.", "rule 700.9.")
    doc = parse_text(text)
    assert doc.warnings == []
    assert [(n.code, n.message) for n in doc.publisher_notes] == [
        ("dangling-reference", "cr:101.2 cites cr:700.9, which is not in the document")
    ]


def test_a_range_keeps_a_missing_endpoint_so_it_is_warned() -> None:
    known = {"cr:100.2a", "cr:100.2b"}
    assert find_references("see rules 100.2a–d", known) == ["cr:100.2a", "cr:100.2b", "cr:100.2d"]
    assert find_references("rules 100.2a and 100.2b, or rule 300", known) == [
        "cr:100.2a",
        "cr:100.2b",
        "cr:300",
    ]
    assert find_references("20 life, 7 cards, layers 2–6, 1/1, Magic 2015", known) == []
    assert find_references("sections 4 and 5; section 6, \u201cSpells\u201d", known) == [
        "cr:4",
        "cr:5",
        "cr:6",
    ]


def test_missing_effective_date_gives_no_version_and_a_warning() -> None:
    text = FIXTURE.read_text(encoding="utf-8").replace(
        "These rules are effective as of January 16, 2026.\n\nIntroduction", "Introduction"
    )
    doc = parse_text(text)
    assert doc.version is None and doc.effective is None
    assert [w.code for w in doc.warnings] == ["no-version", "effective-date-mismatch"]


def test_a_different_expected_version_is_warned_and_the_document_wins() -> None:
    doc = parse_text(FIXTURE.read_text(encoding="utf-8"), version="2026-02-01")
    assert doc.version == "2026-01-16"
    assert [w.code for w in doc.warnings] == ["version-mismatch"]
    assert "2026-02-01" in doc.warnings[0].message and "2026-01-16" in doc.warnings[0].message
    assert parse_text(FIXTURE.read_text(encoding="utf-8"), version="2026-01-16").warnings == []
    # An archive names the version 20260116: the same date, read the same way.
    assert parse_text(FIXTURE.read_text(encoding="utf-8"), version="20260116").warnings == []


def test_subrule_lettered_l_or_going_backwards_is_warned() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    with_l = parse_text(text.replace("100.2m Twelfth", "100.2l Twelfth"))
    assert [w.code for w in with_l.warnings] == ["numbering"]
    assert "100.2l" in with_l.warnings[0].message
    backwards = parse_text(text.replace("100.2q Fifteenth", "100.2c Fifteenth"))
    assert "duplicate-id" in [w.code for w in backwards.warnings]
    assert "numbering" in [w.code for w in backwards.warnings]


def test_contents_that_disagree_with_the_headings_are_warned() -> None:
    text = FIXTURE.read_text(encoding="utf-8").replace(
        "101. The Magic Golden Rules\n\n7.", "\n7.", 1
    )
    doc = parse_text(text)
    assert [w.code for w in doc.warnings] == ["contents-mismatch"]
    assert "101. The Magic Golden Rules" in doc.warnings[0].message


def test_wrong_title_and_missing_glossary_are_warned() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    renamed = parse_text(text.replace(mtg.SENTINEL, "Magic Rules", 1))
    assert "title-not-recognised" in [w.code for w in renamed.warnings]
    assert renamed.title is None
    no_glossary = parse_text(text.replace("\nGlossary\n\nActive", "\nActive"))
    assert "no-glossary" in [w.code for w in no_glossary.warnings]
