"""The SQLite export's writer: the tables of every record, created with their columns
before any row and filled version by version in bulk; the small tables, indexes,
full-text indexes, views and the export's mark at the end (`export.sqlite` makes the rows)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import sqlite_utils

from pipeline.export.schema import (
    APPLICATION_ID,
    BASE_COLUMNS,
    EXPORT_FORMAT,
    FOREIGN_KEYS,
    FTS,
    INDEXES,
    MARK_TABLE,
    PRIMARY_KEYS,
    RECORD_MODELS,
    TABLE_ORDER,
    VIEWS,
    Row,
    column_types,
    model_columns,
)


class Keys:
    """Row keys of one version, each once. A version may hold one id twice (a publisher's
    duplicated number, stored with a duplicate-id warning): its second row is `#id~2`, so
    its row is kept and no key is written twice."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def __call__(self, key: str) -> str:
        self.seen[key] += 1
        n = self.seen[key]
        return key if n == 1 else f"{key}~{n}"


@dataclass
class Tables:
    """Rows of the small tables (one or a few per version or diff), kept until the end."""

    rows: dict[str, list[Row]] = field(default_factory=dict)

    def add(self, table: str, row: Row) -> None:
        self.rows.setdefault(table, []).append(row)


# The tables of every record of every version: streamed, their columns known beforehand.
_OWN = {"key": str, "document": str, "version_key": str, "version": str}
_PROVENANCE = {"engine": str, "engine_version": str, "document_sha256": str}
STREAMED: dict[str, dict[str, type]] = {
    "records": {
        **_OWN, "version_ordinal": int, "position": int, **model_columns(RECORD_MODELS["records"]),
        "parent_key": str, "record_sha256": str, **_PROVENANCE,
        "lineage": str, "previous_citation": str, "change": str,
    },
    "glossary": {
        **_OWN, "position": int, **model_columns(RECORD_MODELS["glossary"]),
        "record_sha256": str, **_PROVENANCE,
    },
    "rulings": {
        **_OWN, "position": int, **model_columns(RECORD_MODELS["rulings"]), "record_sha256": str,
    },
    "ruling_cards": BASE_COLUMNS["ruling_cards"],
    "passages": {
        **_OWN, "part": str, "position": int, **model_columns(RECORD_MODELS["passages"]),
    },
    "aliases": BASE_COLUMNS["aliases"],
}  # fmt: skip


# Keys asked for in one query: under SQLite's least limit of bound parameters.
_BATCH = 900
# Pages SQLite keeps in memory (KiB when negative): its 2 MiB default makes every index
# and full-text merge of a large corpus go back to the file.
_CACHE_KIB = 65536


class Writer:
    """The database being written: streamed tables created first, rows inserted in bulk."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite_utils.Database(path)
        # A temporary file renamed into place only when complete: no journal is needed,
        # and none is left beside it by a kill.
        self.db.execute("pragma journal_mode = off")
        self.db.execute("pragma synchronous = off")
        self.db.execute(f"pragma cache_size = -{_CACHE_KIB}")
        self.db.execute("pragma locking_mode = exclusive")
        self.columns: dict[str, dict[str, type]] = {}
        self.counts: Counter[str] = Counter()
        # in TABLE_ORDER, so that each foreign key names a table that exists
        for name in TABLE_ORDER:
            base = BASE_COLUMNS.get(name, {PRIMARY_KEYS.get(name, "key"): str})
            self.create(name, dict(STREAMED.get(name, base)))

    def create(self, name: str, columns: dict[str, type]) -> None:
        pk = PRIMARY_KEYS.get(name, "key")
        fks = [(c, t, o) for c, t, o in FOREIGN_KEYS.get(name, []) if c in columns]
        self.db.table(name).create(columns, pk=pk, foreign_keys=fks)
        self.columns[name] = columns

    def insert(self, name: str, rows: list[Row]) -> None:
        columns = self.columns[name]
        # Columns the rows bring that the table lacks (a field a newer model adds, the
        # `*_json` fields of a version), in first-seen order, typed by all their values.
        # Rows of one model share their keys: a key no column has is looked for in one
        # pass, and only such columns are typed.
        extra = {key for row in rows for key in row if key not in columns}
        if extra:
            found = column_types({k: v for k, v in row.items() if k in extra} for row in rows)
            for column, kind in found.items():
                self.db.table(name).add_column(column, kind)
                columns[column] = kind
        names = list(columns)
        sql = (
            f"insert into [{name}] ({', '.join(f'[{c}]' for c in names)}) "
            f"values ({', '.join('?' for _ in names)})"
        )
        self.db.conn.executemany(sql, (list(map(row.get, names)) for row in rows))
        self.counts[name] += len(rows)

    def present(self, name: str, keys: list[str]) -> set[str]:
        """Which of `keys` name a row already written to the table `name`."""
        found: set[str] = set()
        for start in range(0, len(keys), _BATCH):
            batch = keys[start : start + _BATCH]
            sql = f"select [key] from [{name}] where [key] in ({', '.join('?' for _ in batch)})"
            found.update(key for (key,) in self.db.conn.execute(sql, batch))
        return found

    def finish(self, tables: Tables) -> dict[str, int]:
        """The small tables, the indexes, full-text indexes and views, and the mark."""
        for name in TABLE_ORDER:
            if name in STREAMED:
                continue
            self.insert(name, tables.rows.get(name, []))
        for name, searched in FTS.items():
            self.db.table(name).enable_fts(searched, fts_version="FTS5", tokenize="porter")
        for name, indexes in INDEXES.items():
            for indexed in indexes:
                self.db.table(name).create_index(indexed)
        for name, sql in VIEWS.items():
            self.db.create_view(name, " ".join(sql.split()))
        self.db.table(MARK_TABLE).insert_all(
            [
                {"name": "format", "value": EXPORT_FORMAT},
                {"name": "made_by", "value": "rulescorpus"},
            ],
            pk="name",
        )
        self.db.execute(f"pragma application_id = {APPLICATION_ID}")
        self.db.conn.commit()
        self.db.close()
        return {name: self.counts[name] for name in TABLE_ORDER}
