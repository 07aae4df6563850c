"""Rules followed through added sentences, splits and merges (sentence containment).

Before these pairings a rule that gained a sentence at its own number, a rule whose
sentences went into several rules, and a rule that became a sentence of another rule
were reported as removed plus added, so `show`, `history` and `cite-check` called live
rules removed. The real pair is MTG 2022-11-18 -> 2023-04-14, which folded the meld
cards into double-faced cards; the mutations are made here from the real 2022-11-18
version, one change each.
"""

from __future__ import annotations

import functools
import re

import pytest

from pipeline.diff.documents import diff_documents
from pipeline.diff.renumbering import lookup, map_of_diff
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff, RenumberingMap
from pipeline.models.records import Document, GlossaryTerm, Rule
from tests.support.diff_real import real_document

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

OLD, NEW = "20221118", "20230414"
CITED = re.compile(r"See rule (\d+\.\d)")


@functools.cache
def real_diff(game: str, old: str, new: str) -> DocumentDiff:
    return diff_documents(real_document(game, old), real_document(game, new))


def change_of(diff: DocumentDiff, old_id: str) -> Change:
    found = [c for c in diff.changes if c.old_id == old_id or old_id in c.old_ids]
    assert found, f"{old_id} is in no change"
    return found[0]


def entry_of(rmap: RenumberingMap, old_id: str) -> dict[str, object]:
    entry = next(e for e in rmap.entries if e.old_id == old_id)
    return entry.model_dump(by_alias=True, exclude_defaults=True)


def with_records(doc: Document, records: list[Rule]) -> Document:
    return doc.model_copy(update={"records": records})


def rule_of(doc: Document, rule_id: str) -> Rule:
    return next(r for r in doc.records if r.id == rule_id)


def derived(like: Rule, rule_id: str, text: str, parent: str | None = None) -> Rule:
    """A rule made from a real one: its id, number, parent and text replaced."""
    return like.model_copy(
        update={
            "id": rule_id,
            "number": rule_id.removeprefix("cr:"),
            "parent": parent if parent is not None else like.parent,
            "depth": like.depth + (1 if parent is not None else 0),
            "text": text,
            "references": [],
        }
    )


# --------------------------------------------------------------------------- the real pair


def test_rule_split_three_ways_follows_every_piece() -> None:
    # 712.7's three sentences and its citation are now 712.11 (the default and the
    # citation), 712.11a (cast transformed) and 712.11b (modal cards): it was paired with
    # 712.11 alone by its subrules, and the other two were "added".
    diff = real_diff("mtg", OLD, NEW)
    split = change_of(diff, "cr:712.7")
    assert (split.cls, split.new_ids, split.method) == (
        "split",
        ["cr:712.11", "cr:712.11a", "cr:712.11b"],
        "contained",
    )
    assert split.evidence is not None
    assert split.evidence.endswith("in sentences of cr:712.11, cr:712.11a, cr:712.11b")
    assert entry_of(map_of_diff(diff), "cr:712.7") == {
        "old_id": "cr:712.7",
        "new_id": "cr:712.11",
        "new_ids": ["cr:712.11", "cr:712.11a", "cr:712.11b"],
        "class": "split",
        "text_change": "reworded",
        "method": "contained",
        "similarity": split.similarity,
        **({"weak": True} if split.weak else {}),
        "evidence": split.evidence,
    }
    added = {c.new_id for c in diff.changes if c.cls == "added"}
    assert not added & {"cr:712.11a", "cr:712.11b", "cr:712.13a"}


def test_rule_split_in_two_word_for_word_is_not_weak() -> None:
    split = change_of(real_diff("mtg", OLD, NEW), "cr:712.9")
    assert (split.cls, split.new_ids, split.weak) == (
        "split",
        ["cr:712.13", "cr:712.13a"],
        False,
    )


def test_rules_merged_into_one_are_merged_not_removed() -> None:
    # "If an effect instructs a player to choose a card name ..." (712.15) is now the first
    # sentence of 712.19, whose second is the meld rule 713.12; 712.15 was "removed" while
    # 713.12 was paired one-to-one with 712.19.
    diff = real_diff("mtg", OLD, NEW)
    merge = change_of(diff, "cr:712.15")
    assert (merge.cls, merge.old_ids, merge.new_id) == (
        "merged",
        ["cr:712.15", "cr:713.12"],
        "cr:712.19",
    )
    rmap = map_of_diff(diff)
    for old_id in ("cr:712.15", "cr:713.12"):
        entry = entry_of(rmap, old_id)
        assert (entry["class"], entry["new_id"], entry["old_ids"]) == (
            "merged",
            "cr:712.19",
            ["cr:712.15", "cr:713.12"],
        )
        assert lookup(rmap, old_id).new_id == "cr:712.19"
    assert not [c for c in diff.changes if c.cls == "removed" and c.old_id == "cr:712.15"]


def test_symbol_replaced_by_words_at_the_same_number_is_reworded() -> None:
    # 901.9b: "the chaos symbol {CHAOS}, any ability ... triggers" became "the chaos symbol,
    # chaos ensues (see rule 311.7)"; the rule is still 901.9b, not removed and re-added.
    diff = real_diff("mtg", OLD, NEW)
    change = change_of(diff, "cr:901.9b")
    assert (change.cls, change.new_id) == ("reworded", "cr:901.9b")
    assert lookup(map_of_diff(diff), "cr:901.9b").status == "changed"


def test_a_one_word_different_short_rule_elsewhere_is_not_a_merge() -> None:
    # Riftbound 2026-06-18 dropped Quick-Draw; "Quick-Draw has no function while on the
    # board." is not "Accelerate has no function while on the board." in another section.
    diff = real_diff("riftbound", "2025-12-01", "2026-06-18")
    change = change_of(diff, "cr:745.3")
    assert change.cls == "removed"
    assert not [c for c in diff.changes if c.cls == "merged" and "cr:745.3" in c.old_ids]


# --------------------------------------------------------------------------- mutations


def test_sentence_added_at_the_same_number_stays_paired() -> None:
    old = real_document("mtg", OLD)
    first = rule_of(old, "cr:903.4a").text
    added = (
        "If a rule or effect refers to the color identity of an object in the game "
        "represented by a card, it uses the color identity established for that card."
    )
    new = with_records(
        old,
        [
            r.model_copy(update={"text": f"{first} {added}"}) if r.id == "cr:903.4a" else r
            for r in old.records
        ],
    )
    diff = diff_documents(old, new)
    assert [(c.cls, c.old_id, c.new_id, c.method) for c in diff.changes] == [
        ("reworded", "cr:903.4a", "cr:903.4a", "contained")
    ]
    assert [(w.op, w.text) for w in diff.changes[0].words] == [
        ("equal", first),
        ("insert", added),
    ]
    assert lookup(map_of_diff(diff), "cr:903.4a").status == "changed"


def test_rule_split_in_three_is_one_split_with_its_pieces_in_order() -> None:
    old = real_document("mtg", OLD)
    whole = rule_of(old, "cr:104.5")
    one, two, three = (
        "If a player loses the game, that player leaves the game.",
        "If the game is a draw for a player, that player leaves the game.",
        "The multiplayer rules handle what happens when a player leaves the game; see rule 800.4.",
    )
    assert whole.text == f"{one} {two} {three}"
    records: list[Rule] = []
    for r in old.records:
        if r.id == whole.id:
            records += [
                derived(whole, "cr:104.5", one),
                derived(whole, "cr:104.5a", two, parent="cr:104.5"),
                derived(whole, "cr:104.5b", three, parent="cr:104.5"),
            ]
        else:
            records.append(r)
    diff = diff_documents(old, with_records(old, records))
    split = change_of(diff, "cr:104.5")
    assert (split.cls, split.new_ids, split.weak) == (
        "split",
        ["cr:104.5", "cr:104.5a", "cr:104.5b"],
        False,
    )
    assert [c.cls for c in diff.changes] == ["split"]
    entry = entry_of(map_of_diff(diff), "cr:104.5")
    assert (entry["class"], entry["new_id"], entry["new_ids"]) == (
        "split",
        "cr:104.5",
        ["cr:104.5", "cr:104.5a", "cr:104.5b"],
    )


def test_two_rules_merged_into_a_third_elsewhere_are_one_merge() -> None:
    old = real_document("mtg", OLD)
    destroy, discard = rule_of(old, "cr:701.7a"), rule_of(old, "cr:701.8a")
    last = [r for r in old.records if r.parent == "cr:700"][-1]
    number = int(last.number.split(".")[1]) + 1
    third = derived(last, f"cr:700.{number}", f"{destroy.text} {discard.text}")
    records = [r for r in old.records if r.id not in (destroy.id, discard.id)]
    records.insert(records.index(last) + 1, third)
    diff = diff_documents(old, with_records(old, records))
    merge = change_of(diff, destroy.id)
    assert (merge.cls, merge.old_ids, merge.new_ids, merge.weak) == (
        "merged",
        [destroy.id, discard.id],
        [third.id],
        False,
    )
    assert [c.cls for c in diff.changes] == ["merged"]
    rmap = map_of_diff(diff)
    assert [lookup(rmap, i).new_id for i in (destroy.id, discard.id)] == [third.id, third.id]


def test_glossary_term_whose_head_gained_a_form_is_paired_by_its_definition() -> None:
    old = real_document("mtg", OLD)
    before = next(t for t in old.glossary if t.id == "glossary:battlefield")
    after = GlossaryTerm(
        id="glossary:battlefield-battlefields",
        term="Battlefield, Battlefields",
        definition=before.definition.replace("A zone.", "A zone, shared by all players."),
        references=before.references,
        location=before.location,
    )
    new = old.model_copy(update={"glossary": [after if t is before else t for t in old.glossary]})
    diff = diff_documents(old, new)
    assert [(c.old_id, c.new_id, c.method, c.text_change) for c in diff.changes] == [
        ("glossary:battlefield", "glossary:battlefield-battlefields", "definition", "reworded")
    ]
    assert lookup(map_of_diff(diff), "glossary:battlefield").new_id == after.id


def test_citation_written_with_the_word_rule_is_reference_only() -> None:
    # "See 702.158" -> "See rule 702.158" was "reworded": only how a citation is written
    # changed, which is a reference-only change.
    old = real_document("mtg", OLD)
    cited = next(r for r in old.records if CITED.search(r.text))
    new = with_records(
        old,
        [
            r.model_copy(update={"text": CITED.sub(r"See \1", r.text, count=1)})
            if r is cited
            else r
            for r in old.records
        ],
    )
    diff = diff_documents(new, old)
    assert [(c.cls, c.old_id) for c in diff.changes] == [("reference-only", cited.id)]


def test_deleted_rule_one_word_from_its_renumbered_sibling_is_not_merged_into_it() -> None:
    # Deleting 100.1a ("A two-player game is a game that begins with only two players.")
    # shifts 100.1b ("A multiplayer game is a game that begins with more than two
    # players.") to 100.1a; ten of its twelve words in order made a merge of the two.
    old = real_document("mtg", "20251114")
    records = [r for r in old.records if r.id != "cr:100.1a"]
    records = [
        derived(r, "cr:100.1a", r.text).model_copy(update={"references": r.references})
        if r.id == "cr:100.1b"
        else r
        for r in records
    ]
    diff = diff_documents(old, with_records(old, records))
    assert sorted((c.cls, c.old_id or "", c.new_id or "") for c in diff.changes) == [
        ("removed", "cr:100.1a", ""),
        ("renumbered", "cr:100.1b", "cr:100.1a"),
    ]
