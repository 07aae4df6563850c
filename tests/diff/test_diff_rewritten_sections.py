"""Diffs through a rewritten section: rules renumbered and reworded at once, swapped,
pushed down a level, reworded in place with their examples cut, ordinals rewritten.

The older versions are made at test time from the real MTG document (tests/support/
diff_mutations.py), the way the publisher rewrote the turn steps: each answer is what a
reader gives, and every rule the diff calls removed must really be gone.
"""

from __future__ import annotations

import pytest

from pipeline.diff.documents import diff_documents, rule_items
from pipeline.diff.renumbering import lookup, map_of_diff
from pipeline.diff.text import similarity
from pipeline.models.records import Document
from pipeline.models.text import fold_typography
from tests.support.diff_mutations import examples_cut, pushed_down, steps_before_rewrite, swapped
from tests.support.diff_real import real_document

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

NEW = "20251114"


def new_doc() -> Document:
    return real_document("mtg", NEW)


def wrong_answers(old: Document, answer: dict[str, str]) -> list[tuple[str, str | None, str]]:
    rmap = map_of_diff(diff_documents(old, new_doc()))
    return [
        (o, lookup(rmap, o).new_id, n) for o, n in answer.items() if lookup(rmap, o).new_id != n
    ]


def removed(old: Document) -> list[str]:
    diff = diff_documents(old, new_doc())
    return [c.old_id or "" for c in diff.changes if c.cls == "removed"]


@pytest.mark.parametrize("sections", [["508"], ["509"], ["510"], ["508", "509", "510"]])
def test_steps_renumbered_and_reworded_in_one_release_are_all_found(sections: list[str]) -> None:
    old, answer = steps_before_rewrite(new_doc(), sections)
    assert wrong_answers(old, answer) == []
    assert removed(old) == []


def test_a_step_rule_that_became_a_subrule_is_moved_down_not_removed() -> None:
    old, _ = steps_before_rewrite(new_doc(), ["510"])
    diff = diff_documents(old, new_doc())
    step = next(c for c in diff.changes if c.old_id == "cr:510.3")
    assert (step.new_id, step.text_change) == ("cr:510.3a", "reworded")
    priority = next(c for c in diff.changes if c.old_id == "cr:510.4")
    # "Third, the active player gets priority." is now "Second, ..." at 510.3.
    assert (priority.cls, priority.new_id, priority.text_change) == (
        "renumbered",
        "cr:510.3",
        "reworded",
    )
    assert priority.method == "sequence" and "ordinals masked" in (priority.evidence or "")


def test_a_swap_of_two_reworded_rules_is_found_both_ways() -> None:
    old, answer = swapped(new_doc(), "cr:511.1", "cr:511.2")
    olds = {i.id: i for i in rule_items(old.records)}
    news = {i.id: i for i in rule_items(new_doc().records)}
    # Reworded enough that the whole-document similarity tier does not pair one of them.
    assert min(similarity(olds[o].key_tokens, news[n].key_tokens) for o, n in answer.items()) < 0.7
    assert wrong_answers(old, answer) == []


def test_a_rule_pushed_down_a_level_is_found_at_its_subrule() -> None:
    old, answer = pushed_down(new_doc(), "cr:503.1a")
    assert answer["cr:503.2"] == "cr:503.1a"
    assert wrong_answers(old, answer) == []
    assert removed(old) == []


def test_a_rule_reworded_in_place_with_its_examples_cut_is_reworded() -> None:
    old, rule = examples_cut(
        new_doc(),
        "cr:510.1c",
        "This may allow the blocked creature to divide its combat damage in the damage "
        "assignment order announced for it.",
    )
    diff = diff_documents(old, new_doc())
    change = next(c for c in diff.changes if rule in (c.old_id, c.new_id))
    assert (change.cls, change.old_id, change.new_id) == ("reworded", rule, rule)


def test_the_2024_rule_that_lost_four_of_its_examples_is_reworded_not_replaced() -> None:
    # 510.1c lost the damage assignment order and four of its five examples in 2025-02-07:
    # it kept its number and its first three sentences.
    diff = diff_documents(real_document("mtg", "20240607"), real_document("mtg", "20250207"))
    about = [c for c in diff.changes if "cr:510.1c" in (c.old_id, c.new_id)]
    assert [(c.cls, c.old_id, c.new_id) for c in about] == [("reworded", "cr:510.1c", "cr:510.1c")]


def test_100_1_reworded_in_2006_is_the_same_rule() -> None:
    # "These Magic rules assume a game between two players." became "These Magic rules
    # apply to any Magic game with two or more players": the one rule between 100 and
    # 100.2 in both versions, at its own number, opening alike.
    diff = diff_documents(real_document("mtg", "20030315"), real_document("mtg", "20061001"))
    about = [c for c in diff.changes if "cr:100.1" in (c.old_id, c.new_id)]
    assert [(c.cls, c.old_id, c.new_id) for c in about] == [("reworded", "cr:100.1", "cr:100.1")]


def test_an_ordinal_rewritten_with_its_number_is_renumbered() -> None:
    old, _ = steps_before_rewrite(new_doc(), ["509"])
    olds = {r.id: r for r in old.records}
    assert olds["cr:509.3"].text.startswith("Third, the active player gets priority.")
    assert lookup(map_of_diff(diff_documents(old, new_doc())), "cr:509.3").new_id == "cr:509.2"


def test_aether_written_with_a_ligature_is_typography() -> None:
    assert fold_typography("Æther Revolt") == fold_typography("Aether Revolt")
    doc = new_doc()
    target = next(r for r in doc.records if "Aether" in r.text or "aether" in r.text)
    old = doc.model_copy(
        update={
            "records": [
                r.model_copy(
                    update={"text": r.text.replace("Aether", "Æther").replace("aether", "æther")}
                )
                if r.id == target.id
                else r
                for r in doc.records
            ]
        }
    )
    change = next(c for c in diff_documents(old, doc).changes if c.old_id == target.id)
    assert change.cls == "typography-only"
