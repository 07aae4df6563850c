"""The diff's known misreports on real documents, each with the right answer.

Before content-first alignment the diff tied a rule to its old number before it looked
at the text, so where a publisher restructured (MTG's meld cards folded into 712,
Riftbound's zones reorganised, Netrunner's checkpoint steps reordered) a number that now
held a different rule was called "reworded", and identical texts were paired at random.
"""

from __future__ import annotations

import functools

import pytest

from pipeline.diff.documents import diff_documents
from pipeline.diff.renumbering import lookup, map_of_diff
from pipeline.lookup.lineage import entry_along, step_of_map
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff, RenumberingMap
from tests.support.diff_real import real_document

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow


@functools.cache
def diff_of(game: str, old: str, new: str) -> DocumentDiff:
    return diff_documents(real_document(game, old), real_document(game, new))


@functools.cache
def map_of(game: str, old: str, new: str) -> RenumberingMap:
    return map_of_diff(diff_of(game, old, new))


def change_of(diff: DocumentDiff, old_id: str) -> Change | None:
    return next((c for c in diff.changes if c.old_id == old_id or old_id in c.old_ids), None)


def where(game: str, old: str, new: str, old_id: str) -> str | None:
    return lookup(map_of(game, old, new), old_id).new_id


# --------------------------------------------------------------------------- MTG 2023-04-14


def test_mtg_712_numbers_that_now_hold_other_rules_are_not_reworded() -> None:
    diff = diff_of("mtg", "20221118", "20230414")
    for old_id in ("cr:712.2", "cr:712.4", "cr:712.6"):
        change = change_of(diff, old_id)
        assert change is not None and change.new_id != old_id, (old_id, change)
        assert change.cls != "reworded"
    # 712.1 is rewritten beyond a rewording in place: whatever it pairs with, the new
    # 712.1 (the three kinds of double-faced card) is not "old 712.1 reworded".
    assert not any(c.cls == "reworded" and c.old_id == c.new_id == "cr:712.1" for c in diff.changes)


def test_mtg_meld_rules_move_into_712() -> None:
    # The answers given in the issue: the real moves.
    assert where("mtg", "20221118", "20230414", "cr:712.2") == "cr:712.6"
    assert where("mtg", "20221118", "20230414", "cr:712.6") == "cr:712.10"
    assert where("mtg", "20221118", "20230414", "cr:713.1") == "cr:712.4"
    assert where("mtg", "20221118", "20230414", "cr:713.4") == "cr:712.8"
    diff = diff_of("mtg", "20221118", "20230414")
    # The 713 ones were reported as removed plus added; now 713.1 is a move (another
    # section), with its rewording noted, and 713.4 is the second sentence of 712.8, whose
    # first sentence is old 712.4: the two merged.
    meld = change_of(diff, "cr:713.1")
    assert meld is not None
    assert (meld.cls, meld.new_id, meld.text_change) == ("moved", "cr:712.4", "reworded")
    faces = change_of(diff, "cr:713.4")
    assert faces is not None
    assert (faces.cls, faces.old_ids, faces.new_ids) == (
        "merged",
        ["cr:712.4", "cr:713.4"],
        ["cr:712.8"],
    )
    # Old 712.4 was folded into the new 712.8 with 713.4: its number now holds the meld
    # rule 713.1, so old 712.4 cannot be "reworded" at 712.4.
    assert lookup(map_of("mtg", "20221118", "20230414"), "cr:712.4").new_id != "cr:712.4"


def test_mtg_pairings_carry_their_method_and_weak_ones_are_flagged() -> None:
    diff = diff_of("mtg", "20221118", "20230414")
    exact = change_of(diff, "cr:714.1")  # Substitute cards: 714 -> 713 word for word
    assert exact is not None
    assert (exact.new_id, exact.method, exact.weak, exact.similarity) == (
        "cr:713.1",
        "exact",
        False,
        1.0,
    )
    meld = change_of(diff, "cr:713.1")
    assert meld is not None and meld.method == "similar" and meld.weak
    heading = change_of(diff, "cr:713.2")  # "There are six specific meld pairs. ..."
    assert heading is not None and (heading.new_id, heading.method) == ("cr:712.5", "children")
    assert heading.evidence == "6 of its 6 subrules moved under cr:712.5"


# --------------------------------------------------------------------------- Riftbound 2026-06-18


def test_riftbound_trash_is_not_reworded_but_moved_to_108_2() -> None:
    diff = diff_of("riftbound", "2025-12-01", "2026-06-18")
    trash = change_of(diff, "cr:107.1")  # "The Trash"
    assert trash is not None and trash.cls != "reworded"
    assert trash.new_id == "cr:108.2"  # "Trashes"
    assert trash.method == "children" and trash.weak  # nothing of its two words is left


def test_riftbound_headings_renamed_while_they_moved_are_moves() -> None:
    assert where("riftbound", "2025-12-01", "2026-06-18", "cr:106.4") == "cr:107.3"
    assert where("riftbound", "2025-12-01", "2026-06-18", "cr:107.3") == "cr:108.4"
    assert where("riftbound", "2025-12-01", "2026-06-18", "cr:180") == "cr:186"
    facedown = change_of(diff_of("riftbound", "2025-12-01", "2026-06-18"), "cr:106.4")
    assert facedown is not None and facedown.text_change == "reworded"


def test_riftbound_identical_texts_follow_their_parents() -> None:
    # "This behaves, once activated, like a spell without an associated card." is the
    # text of two subrules in every version; each copy goes where its parent goes.
    assert where("riftbound", "2025-10-01", "2025-12-01", "cr:142.2.a.1") == "cr:144.2.a.1"
    assert where("riftbound", "2025-10-01", "2025-12-01", "cr:145.2.a.1") == "cr:148.2.a.1"
    assert where("riftbound", "2025-12-01", "2026-06-18", "cr:144.2.a.1") == "cr:145.2.a.1"
    assert where("riftbound", "2025-12-01", "2026-06-18", "cr:148.2.a.1") == "cr:151.2.a.1"


# --------------------------------------------------------------------------- Netrunner


def test_netrunner_checkpoint_steps_are_found_where_they_went() -> None:
    # 1.2 moved the checkpoint steps from 10.3.4 under 10.3.1 and swapped two of them.
    assert where("netrunner", "1.1", "1.2", "cr:10.3.4f") == "cr:10.3.1g"
    assert where("netrunner", "1.1", "1.2", "cr:10.3.4g") == "cr:10.3.1f"
    steps = [
        step_of_map(map_of("netrunner", *pair).model_dump(mode="json", by_alias=True))
        for pair in (("1.1", "1.2"), ("1.2", "1.4"))
    ]
    assert (entry_along(steps, "cr:10.3.4f") or {}).get("new_id") == "cr:10.3.1g"
    assert (entry_along(steps, "cr:10.3.4g") or {}).get("new_id") == "cr:10.3.1f"


def test_netrunner_identical_basic_actions_follow_their_parents() -> None:
    # "[click]: Gain 1[c]." is both the Corp's 5.2.6b and the Runner's 5.2.7b in 1.2;
    # 1.4 inserted a rule before them, so the Corp's is 5.2.7b and the Runner's 5.2.8b.
    assert where("netrunner", "1.2", "1.4", "cr:5.2.6b") == "cr:5.2.7b"
    assert where("netrunner", "1.2", "1.4", "cr:5.2.7b") == "cr:5.2.8b"


def test_netrunner_a_checkpoint_copy_is_never_sent_to_another_step() -> None:
    # 1.1's Approach Ice (6.9.2) and Encounter Ice (6.9.3) each had "A checkpoint
    # occurs."; 1.2 dropped both steps and added the same sentence to Pass Ice (6.9.4b)
    # and Approach Server (6.9.5f). The old copies are removed, not moved to the new ones.
    rmap = map_of("netrunner", "1.1", "1.2")
    assert lookup(rmap, "cr:6.9.2b").status == "removed"
    assert lookup(rmap, "cr:6.9.3b").status == "removed"
    assert {"cr:6.9.4b", "cr:6.9.5f"} <= set(rmap.added)
    # The copies whose step survived stay where they are.
    assert lookup(rmap, "cr:6.9.1b").status == "current"
    assert lookup(rmap, "cr:6.9.1e").status == "current"


def test_the_same_documents_always_give_the_same_diff() -> None:
    old, new = real_document("riftbound", "2025-12-01"), real_document("riftbound", "2026-06-18")
    first = diff_documents(old, new).model_dump_json(by_alias=True)
    again = diff_documents(
        old.model_validate_json(old.model_dump_json()),
        new.model_validate_json(new.model_dump_json()),
    ).model_dump_json(by_alias=True)
    assert first == again
