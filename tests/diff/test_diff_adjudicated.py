"""The diff against a reader: pairs adjudicated by hand from both versions
(tests/diff/fixtures/adjudicated-pairs.toml) and the answers of the turn-step rewrite
made at test time from the real document, scored per class. The table is the one in
docs/measured/diff-agreement.md: a change in the diff's answers changes the page."""

from __future__ import annotations

import functools
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from pipeline.diff.documents import diff_documents
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document
from tests.support.diff_mutations import steps_before_rewrite
from tests.support.diff_real import real_document
from tests.support.helpers import ROOT

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).parent / "fixtures" / "adjudicated-pairs.toml"
PAGE = ROOT / "docs" / "measured" / "diff-agreement.md"
CLASSES = ("renumbered", "reworded", "removed", "added", "split", "merged")
# The diff's classes as a reader's: a move is a renumbering; a possible move to the right
# rule is a fold the diff asks a reader to confirm.
READER_CLASS = {"moved": "renumbered", "possibly-moved": "merged"}
TEXT_CLASSES = ("reworded", "typography-only", "reference-only", "example-or-note-only")


def said_by_diff(diff: DocumentDiff, old_id: str) -> tuple[str, list[str]]:
    """(class, new ids) the diff gives an old id, in a reader's classes."""
    for c in diff.changes:
        if c.old_id == old_id or old_id in c.old_ids:
            cls = READER_CLASS.get(c.cls, c.cls)
            if cls in TEXT_CLASSES:
                cls = "reworded"
            new = c.new_ids if cls in ("split", "merged") and c.new_ids else [c.new_id or ""]
            return cls, [i for i in new if i]
    return "unchanged", [old_id]


@functools.cache
def diff_of(old: str, new: str) -> DocumentDiff:
    return diff_documents(real_document("mtg", old), real_document("mtg", new))


def judged() -> list[tuple[str, list[str], str, list[str]]]:
    """(expected class, expected new ids, the diff's class, its new ids) for every
    adjudicated old id and added new id, and for the turn-step rewrite's answers."""
    data = tomllib.loads(FIXTURE.read_text(encoding="utf-8"))
    out = []
    for p in data["pair"]:
        cls, new = said_by_diff(diff_of(p["old_version"], p["new_version"]), p["old_id"])
        out.append((p["class"], p["new"], cls, new))
    for a in data["added"]:
        diff = diff_of(a["old_version"], a["new_version"])
        added = any(c.cls == "added" and c.new_id == a["new_id"] for c in diff.changes)
        out.append(("added", [a["new_id"]], "added" if added else "paired", [a["new_id"]]))
    new_doc = real_document("mtg", "20251114")
    old_doc, answer = steps_before_rewrite(new_doc, ["508", "509", "510"])
    out += steps_judged(old_doc, new_doc, answer)
    return out


def steps_judged(
    old: Document, new: Document, answer: dict[str, str]
) -> list[tuple[str, list[str], str, list[str]]]:
    diff = diff_documents(old, new)
    out = []
    for o, n in sorted(answer.items()):
        if o == n:
            continue  # the rule stayed: no class for a reader to check
        cls, got = said_by_diff(diff, o)
        out.append(("renumbered", [n], cls, got))
    return out


def score_table() -> str:
    rows = judged()
    expected: Counter[str] = Counter()
    claimed: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for want_cls, want_new, got_cls, got_new in rows:
        expected[want_cls] += 1
        claimed[got_cls] += 1
        if want_cls == got_cls and want_new == got_new:
            right[want_cls] += 1
    lines = [
        "| class | adjudicated | the diff says so | right | precision | recall |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for cls in CLASSES:
        precision = f"{right[cls] / claimed[cls]:.2f}" if claimed[cls] else "—"
        recall = f"{right[cls] / expected[cls]:.2f}" if expected[cls] else "—"
        lines.append(
            f"| {cls} | {expected[cls]} | {claimed[cls]} | {right[cls]} | {precision} | {recall} |"
        )
    return "\n".join(lines)


def test_the_measured_page_shows_the_diffs_agreement_with_a_reader() -> None:
    table = score_table()
    page = PAGE.read_text(encoding="utf-8")
    found = re.search(r"(\| class \| adjudicated .*?)(?:\n\n|\Z)", page, re.S)
    assert found is not None, "docs/measured/diff-agreement.md has no table"
    assert found.group(1).strip() == table, table


def test_no_rule_the_diff_calls_removed_is_live_among_the_adjudicated() -> None:
    for want_cls, want_new, got_cls, got_new in judged():
        if got_cls == "removed":
            assert want_cls == "removed", (want_new, got_new)
