"""No false removals: a rule the diff calls removed is really gone, on real MTG releases.

A rule whose words still stand in the newer version is paired, split, or reported as
"possibly moved" to where they stand (weak, with the evidence); an added rule whose
words stood in a rule nothing else took is that rule; the renumbering CSV keeps every
part of a split; a number that changed hands is said so in the contents list.
"""

from __future__ import annotations

import csv
import functools
import io

import pytest

from pipeline.diff.documents import diff_documents
from pipeline.diff.renumbering import lookup, map_of_diff
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff
from pipeline.report.markdown import render_markdown
from pipeline.report.renumbering import render_map_csv
from tests.support.diff_real import real_document

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow


@functools.cache
def diff_of(old: str, new: str) -> DocumentDiff:
    return diff_documents(real_document("mtg", old), real_document("mtg", new))


def change_of(diff: DocumentDiff, old_id: str) -> Change:
    return next(c for c in diff.changes if c.old_id == old_id or old_id in c.old_ids)


def test_a_rule_split_at_its_own_number_is_a_split_over_every_part() -> None:
    # 2025-11-14 cut 500.5 (effects that end as a phase or step ends or begins, "until end
    # of combat", "until end of turn") into 500.4, 500.5, 500.5a and 500.5b; old 500.4
    # (mana empties) is the second sentence of the new 500.5.
    diff = diff_of("20250725", "20251114")
    split = change_of(diff, "cr:500.5")
    assert (split.cls, split.new_ids) == (
        "split",
        ["cr:500.4", "cr:500.5", "cr:500.5a", "cr:500.5b"],
    )
    assert lookup(map_of_diff(diff), "cr:500.4").new_id == "cr:500.5"
    assert not [c for c in diff.changes if c.cls == "removed" and c.old_id == "cr:500.5"]


@pytest.mark.parametrize(
    ("old_id", "new_id"), [("cr:712.1g", "cr:712.4"), ("cr:713.11", "cr:712.16")]
)
def test_a_rule_folded_into_a_rule_paired_with_another_is_possibly_moved(
    old_id: str, new_id: str
) -> None:
    # 2023-04-14 folded the meld rules into 712: 712.1g's first sentence is 712.4, which
    # is old 713.1 moved; 713.11's words are 712.16, about every double-faced permanent.
    diff = diff_of("20221118", "20230414")
    change = change_of(diff, old_id)
    assert (change.cls, change.new_id, change.weak) == ("possibly-moved", new_id, True)
    assert change.evidence and new_id in change.evidence
    found = lookup(map_of_diff(diff), old_id)
    assert (found.status, found.new_id) == ("renumbered", new_id)
    # The rule that holds it keeps its own pairing.
    assert change_of(diff, "cr:713.1").new_id == "cr:712.4"


def test_rules_whose_words_are_gone_stay_removed() -> None:
    # 2025-02-07 dropped the damage assignment order: its rules are gone, not moved.
    diff = diff_of("20240607", "20250207")
    removed = {c.old_id for c in diff.changes if c.cls == "removed"}
    assert {"cr:509.2", "cr:509.3", "cr:509.6"} <= removed
    assert not [c for c in diff.changes if c.cls == "possibly-moved"]


def test_an_added_rule_whose_words_stood_in_a_free_old_rule_is_that_rule() -> None:
    # "There are three specific meld pairs. ..." (713.1a) is "There are six specific meld
    # pairs. ..." (713.2) in 2022-11-18: not removed and added.
    diff = diff_of("20221007", "20221118")
    change = change_of(diff, "cr:713.1a")
    assert (change.cls, change.new_id, change.method) == ("moved", "cr:713.2", "contained")
    assert not [c for c in diff.changes if c.cls == "removed"]


def test_the_renumbering_csv_keeps_every_part_of_a_split() -> None:
    rows = list(
        csv.DictReader(io.StringIO(render_map_csv(map_of_diff(diff_of("20250725", "20251114")))))
    )
    row = next(r for r in rows if r["old_id"] == "cr:500.5")
    assert row["new_ids"].split() == ["cr:500.4", "cr:500.5", "cr:500.5a", "cr:500.5b"]
    assert row["evidence"].startswith("100% of the old words")
    merged = [r for r in rows if r["class"] == "merged"]
    assert merged and all(len(r["old_ids"].split()) >= 2 for r in merged)


def test_a_number_that_changed_hands_is_one_line_each_saying_so() -> None:
    # 903.12c said who designates a commander in 2025-02-07; in 2025-07-25 the number holds
    # what a commander may be: two rules, not one removed and re-added.
    old, new = real_document("mtg", "20250207"), real_document("mtg", "20250725")
    text = render_markdown(diff_of("20250207", "20250725"), old, new)
    assert "`cr:903.12c` removed (its number now holds another rule, added)" in text
    assert "`cr:903.12c` added (at the number of another rule, removed)" in text


def test_a_heading_paired_by_its_subrules_at_its_own_number_says_they_stayed() -> None:
    new = real_document("mtg", "20251114")
    old = new.model_copy(
        update={
            "records": [
                r.model_copy(update={"text": "Third, each player may respond in turn order."})
                if r.id == "cr:508.2"
                else r
                for r in new.records
            ]
        }
    )
    change = change_of(diff_documents(old, new), "cr:508.2")
    assert (change.new_id, change.method) == ("cr:508.2", "children")
    assert change.evidence == "2 of its 2 subrules are still under it"
