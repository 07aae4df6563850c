"""The diff on hand-built documents (one behaviour per test) and on real MTG versions."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from pipeline.diff.documents import CHANGE_CLASSES, diff_documents, filter_changes
from pipeline.diff.text import mask_citations, similarity, word_ops
from pipeline.extract.text import extract_text_lines
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document, GlossaryTerm, Location, ParseOptions, ParserInfo, Rule
from pipeline.models.text import fold_typography
from pipeline.parse.mtg import cr as mtg
from tests.support.helpers import SHARED

# --------------------------------------------------------------------------- builders


def rule(
    rule_id: str,
    text: str = "",
    *,
    title: str | None = None,
    examples: tuple[str, ...] = (),
    parent: str | None = None,
    references: tuple[str, ...] = (),
) -> Rule:
    """An MTG-shaped record: cr:1 chapter, cr:100 section, cr:100.1 rule, cr:100.1a subrule."""
    number = rule_id.removeprefix("cr:")
    if re.fullmatch(r"\d", number):
        kind, depth, auto = "chapter", 0, None
    elif re.fullmatch(r"\d{3}", number):
        kind, depth, auto = "section", 1, "cr:" + number[0]
    elif re.fullmatch(r"\d{3}\.\d+", number):
        kind, depth, auto = "rule", 2, "cr:" + number.split(".")[0]
    else:
        kind, depth, auto = "subrule", 3, "cr:" + number[:-1]
    return Rule(
        id=rule_id,
        number=number,
        kind=kind,
        parent=parent or auto,
        depth=depth,
        title=title,
        text=text,
        examples=list(examples),
        references=list(references),
        location=Location(line=1),
    )


def term(name: str, definition: str) -> GlossaryTerm:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return GlossaryTerm(
        id=f"glossary:{slug}", term=name, definition=definition, location=Location(line=1)
    )


def document(
    *records: Rule, glossary: tuple[GlossaryTerm, ...] = (), version: str = "1"
) -> Document:
    return Document(
        game="mtg",
        document="mtg/cr",
        title="Rules",
        version=version,
        parser=ParserInfo(family="mtg-cr", version="1.0"),
        records=list(records),
        glossary=list(glossary),
    )


HEAD = (
    rule("cr:1", title="Game Concepts"),
    rule("cr:100", title="General"),
    rule("cr:101", title="Golden Rules"),
)
TEXTS = [
    "Each player draws seven cards at the start of the game before anything else happens.",
    "A player who has no cards left in their library loses the next time state is checked.",
    "Tokens are not cards and cease to exist when they leave the battlefield for any zone.",
    "Priority passes clockwise around the table until every player passes in succession.",
    "The active player chooses the order of simultaneous triggers they control each time.",
]


def changes_by_class(diff: DocumentDiff) -> dict[str, list[tuple[str | None, str | None]]]:
    out: dict[str, list[tuple[str | None, str | None]]] = {}
    for c in diff.changes:
        out.setdefault(c.cls, []).append((c.old_id, c.new_id))
    return out


# --------------------------------------------------------------------------- alignment


def test_inserting_mid_section_renumbers_instead_of_rewording() -> None:
    old = document(*HEAD[:2], *(rule(f"cr:100.{i + 1}", t) for i, t in enumerate(TEXTS[:3])))
    new = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[3]),
        rule("cr:100.3", TEXTS[1]),
        rule("cr:100.4", TEXTS[2]),
    )
    diff = diff_documents(old, new)
    # cr:100.2 exists in both with different text, yet it is not a rewording: the old
    # text lives on at cr:100.3, and a new rule took the number.
    assert changes_by_class(diff) == {
        "added": [(None, "cr:100.2")],
        "renumbered": [("cr:100.2", "cr:100.3"), ("cr:100.3", "cr:100.4")],
    }
    assert [(e.old_id, e.new_id, e.method, e.similarity) for e in diff.renumbering] == [
        ("cr:100.2", "cr:100.3", "exact", 1.0),
        ("cr:100.3", "cr:100.4", "exact", 1.0),
    ]


def test_subrules_of_a_renumbered_rule_follow_it_even_when_reworded() -> None:
    old = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[1]),
        rule("cr:100.2a", "A short subrule stands here under its parent rule."),
    )
    new = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[3]),
        rule("cr:100.3", TEXTS[1]),
        rule("cr:100.3a", "A short subrule now says other things under its parent."),
    )
    diff = diff_documents(old, new)
    sub = next(e for e in diff.renumbering if e.old_id == "cr:100.2a")
    # Under 0.7 of its words in common, the place in the tree backs the pairing, and the
    # pairing says so: a weak one, for a reader to check.
    assert (sub.new_id, sub.method, sub.weak) == ("cr:100.3a", "structural", True)
    change = next(c for c in diff.changes if c.old_id == "cr:100.2a")
    assert (change.cls, change.text_change, change.method) == (
        "renumbered",
        "reworded",
        "structural",
    )
    assert change.evidence == "under cr:100.3, similarity 0.5263"
    # A rewording hidden behind a renumbering is still shown when renumbering is hidden.
    assert change in filter_changes(diff, hide_renumbering=True)


def test_the_place_in_the_tree_never_forces_a_pair() -> None:
    old = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[1]),
        rule("cr:100.2a", "Short subrule text here."),
    )
    new = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[3]),
        rule("cr:100.3", TEXTS[1]),
        rule("cr:100.3a", "Entirely different words now stand in this place."),
    )
    assert changes_by_class(diff_documents(old, new)) == {
        "added": [(None, "cr:100.2"), (None, "cr:100.3a")],
        "renumbered": [("cr:100.2", "cr:100.3")],
        "removed": [("cr:100.2a", None)],
    }


def test_a_rule_moved_to_another_section_is_moved_and_its_subrules_renumbered() -> None:
    old = document(
        *HEAD,
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[1]),
        rule("cr:100.2a", TEXTS[4]),
        rule("cr:101.1", TEXTS[2]),
    )
    new = document(
        *HEAD,
        rule("cr:100.1", TEXTS[0]),
        rule("cr:101.1", TEXTS[2]),
        rule("cr:101.2", TEXTS[1]),
        rule("cr:101.2a", TEXTS[4]),
    )
    assert changes_by_class(diff_documents(old, new)) == {
        "moved": [("cr:100.2", "cr:101.2")],
        "renumbered": [("cr:100.2a", "cr:101.2a")],
    }


def test_text_spread_over_two_rules_is_a_split_and_the_reverse_a_merge() -> None:
    whole = f"{TEXTS[0]} {TEXTS[1]}"
    one = document(*HEAD[:2], rule("cr:100.1", whole), rule("cr:100.2", TEXTS[2]))
    two = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[1]),
        rule("cr:100.3", TEXTS[2]),
    )
    split = diff_documents(one, two)
    assert [(c.cls, c.old_ids, c.new_ids, c.text_change) for c in split.changes] == [
        ("split", ["cr:100.1"], ["cr:100.1", "cr:100.2"], None),
        ("renumbered", [], [], None),
    ]
    assert (split.changes[1].old_id, split.changes[1].new_id) == ("cr:100.2", "cr:100.3")
    merge = diff_documents(two, one)
    assert next((c.cls, c.old_ids, c.new_ids) for c in merge.changes) == (
        "merged",
        ["cr:100.1", "cr:100.2"],
        ["cr:100.1"],
    )
    # Splits and merges are not one-to-one, so they stay out of the renumbering map.
    assert [(e.old_id, e.new_id) for e in merge.renumbering] == [("cr:100.3", "cr:100.2")]


def test_a_rewritten_rule_in_place_is_reworded_with_a_word_diff() -> None:
    old = document(*HEAD[:2], rule("cr:100.1", TEXTS[0]), rule("cr:100.2", TEXTS[1]))
    new = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0].replace("seven", "eight")),
        rule("cr:100.2", "Nothing of the old sentence survives in this one."),
    )
    diff = diff_documents(old, new)
    # The same number holding a text with nothing in common is a different rule: the old
    # one is removed and a new one added, never a "rewording".
    assert changes_by_class(diff) == {
        "reworded": [("cr:100.1", "cr:100.1")],
        "removed": [("cr:100.2", None)],
        "added": [(None, "cr:100.2")],
    }
    first = diff.changes[0]
    assert (first.method, first.weak) == ("similar", False)
    assert [(w.op, w.text) for w in first.words] == [
        ("equal", "Each player draws"),
        ("delete", "seven"),
        ("insert", "eight"),
        ("equal", "cards at the start of the game before anything else happens."),
    ]
    assert first.similarity == round(2 * 14 / 30, 4)


def test_min_similarity_tightens_the_pairing() -> None:
    old = document(*HEAD[:2], rule("cr:100.1", TEXTS[0]), rule("cr:100.2", TEXTS[1]))
    new = document(
        *HEAD[:2], rule("cr:100.1", TEXTS[0].replace("seven", "eight")), rule("cr:100.2", TEXTS[1])
    )
    assert changes_by_class(diff_documents(old, new))["reworded"] == [("cr:100.1", "cr:100.1")]
    strict = diff_documents(old, new, min_similarity=0.95)
    assert strict.min_similarity == 0.95
    assert changes_by_class(strict) == {
        "removed": [("cr:100.1", None)],
        "added": [(None, "cr:100.1")],
    }


def test_content_classes_typography_reference_examples() -> None:
    base = "A player’s hand — see rule 101.2 — holds cards… until played."
    old = document(
        *HEAD[:2],
        rule("cr:100.1", base),
        rule("cr:100.2", base + " Two."),
        rule("cr:100.3", TEXTS[0], examples=("Example: one.",)),
        rule("cr:100.4", "Refer to 903, as it stays in force."),
        rule("cr:100.5", "A deck holds at least 60 cards in constructed play."),
    )
    new = document(
        *HEAD[:2],
        rule("cr:100.1", "A player's hand - see rule 101.2 - holds cards ... until played."),
        rule("cr:100.2", base.replace("101.2", "101.3") + " Two."),
        rule("cr:100.3", TEXTS[0], examples=("Example: two.",)),
        rule("cr:100.4", "Refer to 904, as it stays in force."),
        rule("cr:100.5", "A deck holds at least 40 cards in constructed play."),
    )
    diff = diff_documents(old, new)
    assert [(c.cls, c.old_id) for c in diff.changes] == [
        ("typography-only", "cr:100.1"),
        ("reference-only", "cr:100.2"),
        ("example-or-note-only", "cr:100.3"),
        # a bare number with no 'rule' before it is a reference only if the renumbering
        # says so: nothing renumbered 903, so this is a rewording, like 60 -> 40 cards
        ("reworded", "cr:100.4"),
        ("reworded", "cr:100.5"),
    ]


def test_a_bare_cited_number_that_follows_the_renumbering_is_reference_only() -> None:
    old = document(
        rule("cr:9", title="Casual"),
        rule("cr:903", title="Commander"),
        rule("cr:903.1", TEXTS[0]),
        rule("cr:100", title="General", parent="cr:9"),
        rule("cr:100.1", "Refer to 903.1 and, as it stays in force, also 903."),
    )
    new = document(
        rule("cr:9", title="Casual"),
        rule("cr:903", title="Oathbreaker"),
        rule("cr:904", title="Commander"),
        rule("cr:904.1", TEXTS[0]),
        rule("cr:100", title="General", parent="cr:9"),
        rule("cr:100.1", "Refer to 904.1 and, as it stays in force, also 904."),
    )
    diff = diff_documents(old, new)
    assert ("reference-only", "cr:100.1") in [(c.cls, c.old_id) for c in diff.changes]
    assert {(e.old_id, e.new_id) for e in diff.renumbering} == {
        ("cr:903", "cr:904"),
        ("cr:903.1", "cr:904.1"),
    }


def test_glossary_terms_are_compared_by_term_and_listed_after_rules() -> None:
    old = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        glossary=(
            term("Token", "A marker. See rule 100.1."),
            term("Gone", "Old."),
            term("Deck", "The cards a player starts with."),
        ),
    )
    new = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[1]),
        glossary=(
            term("Token", "A marker. See rule 100.2."),
            term("Deck", "The cards a player brings."),
            term("Fresh", "New."),
        ),
    )
    diff = diff_documents(old, new)
    assert [(c.cls, c.old_id, c.new_id) for c in diff.changes] == [
        ("removed", "cr:100.1", None),
        ("added", None, "cr:100.1"),
        ("reference-only", "glossary:token", "glossary:token"),
        ("removed", "glossary:gone", None),  # where it stood: after 'token'
        ("reworded", "glossary:deck", "glossary:deck"),
        ("added", None, "glossary:fresh"),
    ]


def test_removed_records_sit_where_they_were_and_output_is_json_with_class() -> None:
    old = document(*HEAD[:2], *(rule(f"cr:100.{i + 1}", t) for i, t in enumerate(TEXTS)))
    new = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[1]),
        rule("cr:100.3", TEXTS[3]),
        rule("cr:100.4", TEXTS[4]),
    )
    diff = diff_documents(old, new)
    assert [(c.cls, c.old_id) for c in diff.changes] == [
        ("removed", "cr:100.3"),
        ("renumbered", "cr:100.4"),
        ("renumbered", "cr:100.5"),
    ]
    data = json.loads(diff.model_dump_json(by_alias=True))
    assert data["changes"][0]["class"] == "removed" and "cls" not in data["changes"][0]
    assert list(data["summary"]) == list(CHANGE_CLASSES)
    assert DocumentDiff.model_validate(data) == diff


def test_filter_changes_hides_only_what_was_asked() -> None:
    old = document(
        *HEAD[:2],
        *(rule(f"cr:100.{i + 1}", t) for i, t in enumerate(TEXTS[:3])),
        rule("cr:100.4", "See rule 100.3."),
    )
    new = document(
        *HEAD[:2],
        rule("cr:100.1", TEXTS[0]),
        rule("cr:100.2", TEXTS[3]),
        rule("cr:100.3", TEXTS[1]),
        rule("cr:100.4", TEXTS[2]),
        rule("cr:100.5", "See rule 100.4."),
    )
    diff = diff_documents(old, new)
    assert [c.cls for c in diff.changes] == ["added", "renumbered", "renumbered", "renumbered"]
    assert diff.changes[-1].text_change == "reference-only"
    assert [c.cls for c in filter_changes(diff, hide_renumbering=True)] == ["added"]
    assert filter_changes(diff, hide_reference_only=True) == diff.changes
    assert filter_changes(diff) == diff.changes


# --------------------------------------------------------------------------- text helpers


def test_typography_folding_and_citation_masking() -> None:
    assert fold_typography("“It’s” — a test…  ok , [...] x") == fold_typography(
        '"It\'s" - a test... ok, … x'
    )
    assert fold_typography("60 cards") != fold_typography("40 cards")
    assert mask_citations("See rules 601.2a–h and 903, and section 8.") == (
        "See rules #–h and #, and section #."
    )
    assert mask_citations("[1.0.1a] and 20 life") == "[#] and 20 life"
    assert [(w.op, w.text) for w in word_ops(["a", "b", "c"], ["a", "x", "y", "c", "d"])] == [
        ("equal", "a"),
        ("delete", "b"),
        ("insert", "x y"),
        ("equal", "c"),
        ("insert", "d"),
    ]
    assert similarity(["a", "b", "c"], ["a", "b", "d"]) == 0.6667


# --------------------------------------------------------------------------- real documents


@cache
def mtg_version(version: str) -> Document:
    folder = SHARED / "mtg" / "comprehensive-rules" / version
    path = next(folder.glob("*.txt"))
    return mtg.parse(
        extract_text_lines(path.read_bytes()), {}, ParseOptions("mtg/cr", "txt", version)
    )


@pytest.mark.slow  # reads the real documents
def test_real_mtg_diff_names_the_changes_a_reader_can_check() -> None:
    old, new = mtg_version("20250725"), mtg_version("20251114")
    diff = diff_documents(old, new)
    by_old = {c.old_id: c for c in diff.changes if c.old_id}
    by_new = {c.new_id: c for c in diff.changes if c.new_id}
    # 603.2e was folded into 603.2d, so 603.2f-i each moved up one letter.
    merged = by_new["cr:603.2d"]
    assert (merged.cls, merged.old_ids, merged.text_change) == (
        "merged",
        ["cr:603.2d", "cr:603.2e"],
        "reworded",
    )
    shifted = {e.old_id: (e.new_id, e.method) for e in diff.renumbering}
    assert shifted["cr:603.2f"] == ("cr:603.2e", "exact")
    assert shifted["cr:603.2i"] == ("cr:603.2h", "exact")
    assert shifted["cr:614.12b"] == ("cr:614.12c", "exact")
    assert by_new["cr:614.12b"].cls == "added"
    # The glossary entry for 'becomes' cites 603.2f, now 603.2e: only the number moved.
    becomes = by_old["glossary:becomes"]
    assert becomes.cls == "reference-only"
    assert [(w.op, w.text) for w in becomes.words if w.op != "equal"] == [
        ("delete", "603.2f."),
        ("insert", "603.2e."),
    ]
    assert [(w.op, w.text) for w in by_old["cr:405.4"].words if w.op != "equal"] == [
        ("delete", "person"),
        ("insert", "player"),
    ]


@pytest.mark.slow  # reads the real documents
@pytest.mark.parametrize(("older", "newer"), [("20250725", "20251114"), ("20240607", "20251114")])
def test_real_mtg_diff_accounts_for_every_record(older: str, newer: str) -> None:
    """Between any two versions: an id that vanished is renumbered, moved, split, merged
    or removed; a text that survives verbatim under another id is in the renumbering map;
    the map is one-to-one; every same-id change really changed."""
    old, new = mtg_version(older), mtg_version(newer)
    diff = diff_documents(old, new)
    new_ids = {r.id for r in new.records}
    gone = [r for r in old.records if r.id not in new_ids]
    accounted = {c.old_id for c in diff.changes if c.old_id} | {
        i for c in diff.changes for i in c.old_ids
    }
    assert all(r.id in accounted for r in gone)
    text_count: dict[str, int] = {}
    for r in [*old.records, *new.records]:
        text_count[r.text] = text_count.get(r.text, 0) + 1
    new_by_text = {r.text: r.id for r in new.records}
    mapped = {e.old_id: e.new_id for e in diff.renumbering}
    for r in gone:
        if r.text and text_count[r.text] == 2 and r.text in new_by_text:
            assert mapped.get(r.id) == new_by_text[r.text], r.id
    pairs = [(e.old_id, e.new_id) for e in diff.renumbering]
    assert len(set(mapped.values())) == len(pairs) == len(mapped)
    old_by_id = {r.id: r for r in old.records}
    new_by_id = {r.id: r for r in new.records}
    for c in diff.changes:
        if c.old_id and c.old_id == c.new_id and c.old_id.startswith("cr:"):
            assert old_by_id[c.old_id] != new_by_id[c.new_id]
    assert sum(diff.summary.values()) == len(diff.changes)


def test_one_typography_fold_for_the_diff_and_the_rendition_check() -> None:
    from pipeline.verify.checks import normalise_typography

    samples = [
        "“Go again”—it’s [1.0.1a] .",
        "wait… ( see  rule )",
        "a ‘b’ «c» d ‐ e\u00ad f\u200bg [...]",
    ]
    for text in samples:
        assert normalise_typography(text) == fold_typography(text)
    # Single and double quotes stay apart: an apostrophe never becomes a quotation mark.
    assert fold_typography("it’s “so”") == 'it\'s "so"'
    # What the rendition check accepts as the same text, the diff calls typography-only.
    old = document(*HEAD[:2], rule("cr:100.1", "Go again [1.0.1a] . It’s “free”."))
    new = document(*HEAD[:2], rule("cr:100.1", 'Go again [1.0.1a]. It\'s "free".'))
    assert [c.cls for c in diff_documents(old, new).changes] == ["typography-only"]
