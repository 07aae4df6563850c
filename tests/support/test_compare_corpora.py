"""tests/support/compare_corpora.py: the contract changes of schema 2 pass, anything else is
told."""

from __future__ import annotations

import copy
from typing import Any

from tests.support.compare_corpora import compare_documents


def old_document() -> dict[str, Any]:
    rule = {"id": "cr:1", "parent": None, "depth": 0, "text": "A rule."}
    child = {"id": "cr:100", "parent": "cr:1", "depth": 1, "text": "Its child."}
    return {
        "parser": {"family": "mtg-cr", "version": "1.0"},
        "counts": {"records": 2, "glossary_terms": 3},
        "warnings": [{"code": "version-missing", "message": "old words", "location": None}],
        "publisher_errata": [{"record": "cr:100", "cites": "cr:9"}],
        "extraction": {},
        "records": [rule, child],
    }


def new_document() -> dict[str, Any]:
    doc = copy.deepcopy(old_document())
    doc["schema_version"] = 2
    doc["parser"]["version"] = "2.0"
    doc["counts"] = {"records": 2, "glossary": 3, "examples": 0}
    doc["warnings"] = [
        {"code": "no-version", "message": "new words", "location": None},
        {"code": "dangling-reference", "message": "cr:100 cites cr:9, which is not in the "
         "document", "location": None},
    ]  # fmt: skip
    doc["publisher_errata"] = []
    doc["extraction"] = {"zero_width_removed": 0}
    for record, depth in zip(doc["records"], (1, 2), strict=True):
        record["depth"] = depth
        record["key"] = None
    return doc


def test_the_contract_changes_alone_are_no_difference() -> None:
    assert compare_documents(old_document(), new_document(), "mtg/cr/x") == []


def test_anything_else_is_reported() -> None:
    new = new_document()
    new["records"][1]["text"] = "Its child, reworded."
    new["records"][1]["depth"] = 3
    new["counts"]["records"] = 3
    new["warnings"].append({"code": "orphan", "message": "m", "location": None})
    problems = compare_documents(old_document(), new, "mtg/cr/x")
    assert any("depth 3, contract says 2" in p for p in problems)
    assert any("counts[records] 2 -> 3" in p for p in problems)
    assert any("warning orphan" in p for p in problems)
    assert any(".records[cr:100].text" in p for p in problems)


def test_two_corpora_of_one_schema_differ_in_nothing_when_their_documents_are_equal() -> None:
    """Between two corpora that both state `schema_version`, every version was reported as
    `schema_version: 4 -> <absent>`: the pop meant for schema 1 corpora took it from NEW
    alone."""
    assert compare_documents(new_document(), new_document(), "mtg/cr/x") == []
    later = new_document()
    later["schema_version"] = 3
    assert compare_documents(new_document(), later, "mtg/cr/x") == [
        "mtg/cr/x: .schema_version: 2 -> 3"
    ]
