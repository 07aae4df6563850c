"""NetrunnerDB rulings (`nrdb-rulings`) parsed from the two real snapshots in ../shared/sources."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from pipeline.errors import ParseError
from pipeline.extract.tarball import read_tar_members
from pipeline.models.records import Document, ParseOptions, Ruling
from pipeline.parse import rulings
from pipeline.parse.rulings import render_markdown, ruling_id
from tests.support.helpers import SHARED

RULINGS = SHARED / "netrunner" / "rulings-netrunnerdb"
SNAPSHOTS = ("2023-03-12", "2024-01-15")


def tarball(version: str) -> Path:
    return RULINGS / version / f"netrunnerdb-v2-rulings-{version}.tar.gz"


@cache
def members(version: str) -> dict[str, bytes]:
    return read_tar_members(tarball(version).read_bytes(), what=f"nrdb {version}")


@cache
def snapshot(version: str) -> Document:
    return rulings.parse(members(version), {}, ParseOptions("netrunner/rulings", "tar.gz", version))


def find(doc: Document, card: str, question_start: str) -> Ruling:
    hits = [
        r
        for r in doc.rulings
        if card in r.cards and (r.question or r.text or "").startswith(question_start)
    ]
    assert len(hits) == 1, [r.question for r in doc.rulings if card in r.cards]
    return hits[0]


@pytest.mark.parametrize("version", SNAPSHOTS)
def test_real_snapshot_parses_cleanly(version: str) -> None:
    doc = snapshot(version)
    assert doc.warnings == []
    assert doc.version == version
    assert doc.document == "netrunner/rulings" and doc.game == "netrunner"
    assert doc.parser.family == "nrdb-rulings"
    # 886 entries in 653 card files; the same ruling filed under several cards is one record.
    assert doc.counts["card_files"] == 653
    assert doc.counts["entries"] == 886
    assert doc.counts["rulings"] == len(doc.rulings) == 812
    assert doc.counts["cards"] == 653
    assert doc.counts["multi_card_rulings"] == 49
    assert doc.counts["question_rulings"] + doc.counts["text_rulings"] == 812
    assert sum(len(r.cards) for r in doc.rulings) == 886
    assert len({r.id for r in doc.rulings}) == 812
    assert doc.extraction == {"zero_width_removed": 28}


def test_snapshots_differ_only_by_reformatting() -> None:
    old, new = snapshot("2023-03-12"), snapshot("2024-01-15")
    # The member bytes differ (keys re-sorted by prettier) ...
    assert (
        members("2023-03-12")["v2/rulings/virtuoso.json"]
        != members("2024-01-15")["v2/rulings/virtuoso.json"]
    )
    # ... the records do not.
    assert [r.model_dump() for r in old.rulings] == [r.model_dump() for r in new.rulings]


def test_parse_is_deterministic() -> None:
    again = rulings.parse(
        members("2024-01-15"), {}, ParseOptions("netrunner/rulings", "tar.gz", "2024-01-15")
    )
    assert again.model_dump_json() == snapshot("2024-01-15").model_dump_json()


def test_carnivore_ruling_reads_as_a_reader_sees_it() -> None:
    ruling = find(snapshot("2024-01-15"), "carnivore", "If the Runner chooses to use")
    # Published: "...use [Carnivore](/en/card/30003), can they draw with
    # [René “Loup” Arcemont](/en/card/30001) before..." / "...*Loup*’s ability is met."
    assert ruling.question_md is not None and "[Carnivore](/en/card/30003)" in ruling.question_md
    assert ruling.answer_md is not None and "*Loup*’s" in ruling.answer_md
    assert ruling.question == (
        "If the Runner chooses to use Carnivore, can they draw with René “Loup” Arcemont "
        "before trashing cards from their grip?"
    )
    assert ruling.answer == (
        "No. The Runner must fully resolve Carnivore’s ability before the trigger condition "
        "on Loup’s ability is met."
    )
    assert ruling.card_references == ["30003", "30001"]
    assert ruling.cards == ["carnivore", "rene_loup_arcemont_party_animal"]
    assert ruling.updated == "2021-10-11" and ruling.verified is True


def test_emphasis_around_a_link() -> None:
    ruling = find(snapshot("2024-01-15"), "endurance", "How big is")
    assert ruling.question_md is not None and "*[Endurance](/en/card/33025)*" in ruling.question_md
    assert ruling.question == (
        "How big is Endurance compared to the ships depicted on Ob Superheavy Logistics?"
    )
    assert ruling.card_references == ["33025", "33057"]


def test_attribution_heading_list_items_and_icons() -> None:
    ruling = find(snapshot("2024-01-15"), "419_amoral_scammer", "After the Corp installs")
    assert ruling.question_md is not None and ruling.question_md.startswith("####[ANCUR](")
    assert ruling.attribution == "ANCUR UFAQ 22 [Michael Boggs]"
    assert ruling.sources == ["ufaq_22", "michael_boggs"]
    assert ruling.question == (
        "After the Corp installs a card for the first time in a turn, who decides first?\n\n"
        "(A) Does the Runner decide to use the ability, forcing the Corp to pay 1[credit] or "
        "expose the card, or\n"
        "(B) Does the Corp decide whether or not to pay 1[credit], allowing the Runner to "
        "choose whether or not the card should be exposed?"
    )
    assert ruling.answer == (
        "A. The Runner chooses to use the ability, then the Corp chooses whether or not to pay "
        "the 1[credit]."
    )


def test_italic_example_spanning_wrapped_lines() -> None:
    ruling = find(snapshot("2024-01-15"), "it_department", "IT Department always gives")
    assert ruling.text is not None and ruling.text_md is not None
    # The published text wraps "(1 for the initial token\n+ 4 for ...)" inside *...*:
    assert "token\n+ 4" in ruling.text_md
    assert "(1 for the initial token + 4 for the token still on IT Department)" in ruling.text
    assert "\n\nExample: There are 5 tokens" in ruling.text
    assert "*" not in ruling.text
    assert ruling.text.endswith("ability). [Official FAQ]")
    assert ruling.sources == ["official_faq"]


def test_zero_width_spaces_and_bold_are_invisible() -> None:
    ruling = find(snapshot("2024-01-15"), "awakening_center", "Can the Runner use Tāo Salonga")
    assert ruling.answer_md is not None and "\u200b**bioroid\u200b**" in ruling.answer_md
    assert ruling.answer is not None
    assert ruling.answer.startswith(
        "Yes, but only if that piece of ice is a rezzed bioroid, because Awakening Center is "
        "only a legal location for bioroid ice."
    )
    assert "\u200b" not in ruling.answer and "*" not in ruling.answer
    assert ruling.cards == ["awakening_center", "tao_salonga_telepresence_magician"]


def test_nested_malformed_link_keeps_its_text_and_card() -> None:
    ruling = find(snapshot("2024-01-15"), "cezve", "Can the Runner use credits on")
    assert ruling.question_md is not None and "[Cezve]([Cezve](/en/card/33017))" in (
        ruling.question_md
    )
    assert ruling.question == (
        "Can the Runner use credits on Cezve to pay for installing cards with Masterwork (v37)?"
    )
    assert ruling.card_references == ["33017", "26015"]


def test_no_plain_text_keeps_markup() -> None:
    for ruling in snapshot("2024-01-15").rulings:
        for text in (ruling.question, ruling.answer, ruling.text, ruling.attribution):
            if text:
                assert "](" not in text and "**" not in text and "<span" not in text, text
                assert "\u200b" not in text and not text.startswith("#")


def test_sources_named_by_rulings_resolve_to_ruling_sources() -> None:
    doc = snapshot("2024-01-15")
    known = {e["id"] for e in json.loads(members("2024-01-15")["v2/ruling_sources.json"])}
    named = {s for r in doc.rulings for s in r.sources}
    assert named <= known
    assert {"official_faq", "michael_boggs", "damon_stone", "uprising_release_notes"} <= named
    # every ruling whose Markdown says "Official FAQ" (146) and no other
    faq = [
        r
        for r in doc.rulings
        if any("Official FAQ" in (md or "") for md in (r.question_md, r.answer_md, r.text_md))
    ]
    assert [r.id for r in doc.rulings if "official_faq" in r.sources] == [r.id for r in faq]
    assert len(faq) == 146


# --------------------------------------------------------------------------- id and rendering


def test_id_is_stable_under_link_style_and_whitespace() -> None:
    a = render_markdown("Can [Carnivore](/en/card/30003)  trash\nice?")
    b = render_markdown("Can [Carnivore](https://netrunnerdb.com/en/card/30003) trash ice?")
    assert a.text == b.text == "Can Carnivore trash ice?"
    assert ruling_id(a.text, "Yes.", None) == ruling_id(b.text, "Yes.", None)
    assert ruling_id(a.text, "Yes.", None) != ruling_id(a.text, "No.", None)
    # case is kept: a changed capital is a changed ruling
    assert ruling_id("Can X?", "yes.", None) != ruling_id("Can X?", "Yes.", None)
    # a question never hashes like a text ruling with the same words
    assert ruling_id("Words", None, None) != ruling_id(None, None, "Words")


def test_render_markdown_unit_cases() -> None:
    r = render_markdown("####UFAQ [Damon Stone]\nIs **this** _it_?\n\n* one\n* two [x](12345)")
    assert r.attribution == "UFAQ [Damon Stone]"
    assert r.text == "Is this it?\n\none\ntwo x"
    assert r.card_references == ["12345"]
    assert render_markdown("[Archer]() costs 3<b>x</b>").text == "Archer costs 3x"


def files_with(card: str, entries: list[dict[str, object]]) -> dict[str, bytes]:
    return {
        f"v2/rulings/{card}.json": json.dumps(entries).encode(),
        "v2/ruling_sources.json": b"[]",
    }


ENTRY = {
    "card_id": "x",
    "date_update": "2024-01-01",
    "nsg_rules_team_verified": True,
    "question": "Q?",
    "answer": "A.",
}


def test_version_absent_is_a_warning() -> None:
    doc = rulings.parse(
        files_with("x", [ENTRY]), {}, ParseOptions("netrunner/rulings", "tar.gz", None)
    )
    assert doc.version is None
    assert [w.code for w in doc.warnings] == ["no-version"]


def test_prefixed_paths_of_a_github_archive_are_accepted() -> None:
    files = {"netrunner-cards-json-main/" + k: v for k, v in files_with("x", [ENTRY]).items()}
    assert (
        rulings.parse(files, {}, ParseOptions("netrunner/rulings", "tar.gz", "v")).counts["rulings"]
        == 1
    )


def test_suspicious_entries_warn() -> None:
    odd = {**ENTRY, "card_id": "y", "colour": "red", "date_update": "yesterday"}
    doc = rulings.parse(
        files_with("x", [odd]), {}, ParseOptions("netrunner/rulings", "tar.gz", "v")
    )
    assert sorted(w.code for w in doc.warnings) == ["bad-date", "card-mismatch", "unknown-field"]


@pytest.mark.parametrize(
    "payload, problem",
    [
        (b"{not json", "not valid JSON"),
        (b'{"card_id": "x"}', "expected a JSON list"),
        (json.dumps([{**ENTRY, "text_ruling": "T"}]).encode(), "either question and answer"),
        (json.dumps([{**ENTRY, "answer": "  "}]).encode(), "answer is empty"),
    ],
)
def test_malformed_card_file_is_a_parse_error(payload: bytes, problem: str) -> None:
    with pytest.raises(ParseError) as err:
        rulings.parse(
            {"v2/rulings/x.json": payload}, {}, ParseOptions("netrunner/rulings", "tar.gz", "v")
        )
    assert problem in str(err.value) and "v2/rulings/x.json" in str(err.value)


def test_archive_without_rulings_is_an_error() -> None:
    with pytest.raises(ParseError, match="no v2/rulings"):
        rulings.parse(
            {"README.md": b"hi", "v2/ruling_sources.json": b"[]"},
            {},
            ParseOptions("netrunner/rulings", "tar.gz", "v"),
        )
