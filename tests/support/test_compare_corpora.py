"""tests/support/compare_corpora.py: the contract changes of schema 2 pass, anything else is
told."""

from __future__ import annotations

import copy
from typing import Any

from compare_corpora import compare_documents


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
