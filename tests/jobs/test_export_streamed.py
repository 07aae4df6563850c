"""The SQLite export reads each stored version as the JSON it is stored as, without
validating it through the models again: its rows must be exactly what the models give."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pipeline.corpus import open_corpus
from pipeline.export.records import filled
from pipeline.export.schema import flatten
from pipeline.export.sqlite import export_sqlite
from pipeline.models.records import Document, GlossaryTerm, Rule, Ruling
from pipeline.store.canonical import canonical_json


@pytest.fixture(scope="module")
def db(small_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    path = tmp_path_factory.mktemp("streamed") / "corpus.sqlite"
    export_sqlite(small_corpus, path)
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return conn


def _rows(db: sqlite3.Connection, table: str, version_key: str) -> list[dict[str, Any]]:
    sql = f"select * from {table} where version_key = ? order by position"
    return [dict(row) for row in db.execute(sql, (version_key,))]


def test_every_row_is_what_the_models_give(small_corpus: Path, db: sqlite3.Connection) -> None:
    reader = open_corpus(small_corpus)
    checked = 0
    for info in reader.documents():
        for version in info.versions:
            doc = reader.document(info.id, version.version)
            key = f"{info.id}@{version.version}"
            lists: list[tuple[str, list[Rule] | list[GlossaryTerm] | list[Ruling]]] = [
                ("records", doc.records),
                ("glossary", doc.glossary),
                ("rulings", doc.rulings),
            ]
            for table, records in lists:
                rows = _rows(db, table, key)
                assert len(rows) == len(records), key
                for row, record in zip(rows, records, strict=True):
                    own = flatten(record.model_dump(mode="json", by_alias=True), record=True)
                    assert {k: row[k] for k in own} == own, (key, record.id)
                    digest = hashlib.sha256(canonical_json(record)).hexdigest()
                    assert row["record_sha256"] == digest
                    checked += 1
    assert checked > 20_000  # every record of ten versions of three families


def test_a_field_a_newer_model_added_takes_its_default() -> None:
    """A version stored before a field existed reads as validation would read it."""
    rule = Rule(id="cr:1.1", number="1.1", kind="rule", depth=1, location={"line": 3})
    stored = rule.model_dump(mode="json", by_alias=True)
    del stored["cards"], stored["highlighted"]
    assert filled(Rule, stored) == rule.model_dump(mode="json", by_alias=True)
    whole = {"game": "g", "document": "d", "title": None, "version": "1"}
    whole["parser"] = {"family": "f", "version": "1", "engine": None, "engine_version": None}
    expected = Document.model_validate(whole).model_dump(mode="json", by_alias=True)
    assert filled(Document, whole) == expected
    assert filled(Document, expected) is expected  # a whole version is read as it is
