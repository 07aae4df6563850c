"""`rulescorpus export sqlite PATH`: the corpus as one SQLite database (sqlite-utils).

Tables: documents, versions, records, glossary, rulings, ruling_cards, passages,
diffs, changes, renumbering, aliases, provenance, pins and lineages, with foreign
keys; FTS5 indexes on record text, glossary definitions and ruling questions and
answers; views for the current version of every document and for a record's history
across versions. Datasette serves the file as it is (see metadata.json written next
to it).

Deterministic: rows are inserted in corpus order (documents by id, versions oldest
first, records in document order) and nothing about the export itself (no time, no
path) is stored, so the same corpus gives the same rows. The database is written to a
temporary file beside PATH and renamed over it, so a reader never sees half of it.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from pipeline.corpus.datasette.metadata import build_metadata, metadata_path
from pipeline.corpus.reader import CorpusReader, sha256_of
from pipeline.corpus.sqlite_schema import (
    FOREIGN_KEYS,
    FTS,
    INDEXES,
    PRIMARY_KEYS,
    TABLE_ORDER,
    VIEWS,
    Row,
    column_types,
    flatten,
    to_json,
)
from pipeline.errors import StorageIOError
from pipeline.jobs.export_lineages import link_lineages
from pipeline.models.records import Document, GlossaryTerm, Rule, Ruling
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus
from pipeline.store.ids import fits, record_digests


@dataclass
class Tables:
    rows: dict[str, list[Row]] = field(default_factory=dict)

    def add(self, table: str, row: Row) -> None:
        self.rows.setdefault(table, []).append(row)


def _version_key(document: str, version: str) -> str:
    return f"{document}@{version}"


def _version_row(reader: CorpusReader, document: str, ordinal: int, doc: Document) -> Row:
    info = next(v for v in reader.versions(document) if v.version == doc.version)
    assert doc.version is not None
    fetches = reader.version_provenance(document, doc.version).get("fetches", [])
    src = doc.source
    primary: dict[str, Any] = next(
        (f for f in fetches if src and f.get("sha256") == src.sha256), {}
    )
    data = doc.model_dump(mode="json", by_alias=True)
    return {
        "id": _version_key(document, doc.version),
        "document": document,
        "version": doc.version,
        "ordinal": ordinal,
        "status": info.status,
        "is_current": int(info.current),
        "title": doc.title,
        "published": doc.published,
        "effective": doc.effective,
        "json_sha256": info.sha256,
        "parser_family": doc.parser.family,
        "parser_version": doc.parser.version,
        "source_url": src.url if src else None,
        "source_sha256": src.sha256 if src else None,
        "source_bytes": src.bytes if src else None,
        "source_rendition": src.rendition if src else None,
        "retrieved": primary.get("retrieved"),
        "retrieved_from": primary.get("final_url"),
        "records": len(doc.records),
        "glossary": len(doc.glossary),
        "rulings": len(doc.rulings),
        "warnings": len(doc.warnings),
        **{
            f"{name}_json": to_json(data[name])
            for name in sorted(data)
            if name not in ("records", "glossary", "rulings", "front_matter", "back_matter")
            and isinstance(data[name], list | dict)
        },
    }


class Digests:
    """The SHA-256 of a version's canonical JSON and of each record's own: the stored
    file's digest, and each record's read off its span through the id index (its own
    canonical JSON is the span with four spaces less after each newline), so nothing is
    serialised again; a version without an id index, or an id it holds twice, is hashed."""

    def __init__(self, root: Path, doc: Document) -> None:
        corpus = Corpus(root)
        item = corpus.version_entry(doc.document, doc.version)
        self.document: str = item.sha256
        self.records: dict[str, str] = {}
        records: list[Rule | GlossaryTerm | Ruling] = [*doc.records, *doc.glossary, *doc.rulings]
        counts = Counter(r.id for r in records)
        if item.ids is not None:
            index = json.loads(corpus.read_file(item.ids))
            if fits(index, item.file, item.sha256):
                spans = record_digests(corpus.read_file(item.file, item.sha256), index)
                self.records = {k: v for k, v in spans.items() if counts[k] == 1}

    def of(self, record: Rule | GlossaryTerm | Ruling) -> str:
        return self.records.get(record.id) or sha256_of(record)


def _record_rows(
    tables: Tables, document: str, ordinal: int, doc: Document, digests: Digests
) -> None:
    assert doc.version is not None
    vkey = _version_key(document, doc.version)
    ids = {r.id for r in doc.records}
    common = {"document": document, "version_key": vkey, "version": doc.version}
    # a record's provenance beside its span (`location_*`): what extracted its text, and the
    # digest of the version it belongs to (its own digest is `record_sha256`)
    provenance = {
        "engine": doc.parser.engine,
        "engine_version": doc.parser.engine_version,
        "document_sha256": digests.document,
    }
    for position, rule in enumerate(doc.records, 1):
        row = flatten(rule.model_dump(mode="json", by_alias=True), record=True)
        tables.add(
            "records",
            {
                "key": f"{vkey}#{rule.id}",
                **common,
                "version_ordinal": ordinal,
                "position": position,
                **row,
                "parent_key": f"{vkey}#{rule.parent}" if rule.parent in ids else None,
                "record_sha256": digests.of(rule),
                **provenance,
            },
        )
    for position, term in enumerate(doc.glossary, 1):
        row = flatten(term.model_dump(mode="json", by_alias=True), record=True)
        tables.add(
            "glossary",
            {
                "key": f"{vkey}#{term.id}",
                **common,
                "position": position,
                **row,
                "record_sha256": digests.of(term),
                **provenance,
            },
        )
    for position, ruling in enumerate(doc.rulings, 1):
        key = f"{vkey}#{ruling.id}"
        row = flatten(ruling.model_dump(mode="json", by_alias=True), record=True)
        tables.add(
            "rulings",
            {
                "key": key,
                **common,
                "position": position,
                **row,
                "record_sha256": digests.of(ruling),
            },
        )
        titles = list(ruling.card_titles) + [None] * len(ruling.cards)
        for n, card in enumerate(ruling.cards, 1):
            tables.add(
                "ruling_cards",
                {
                    "key": f"{key}#{n}",
                    "ruling_key": key,
                    "version_key": vkey,
                    "position": n,
                    "card": card,
                    "card_title": titles[n - 1],
                },
            )
    for part, passages in (("front", doc.front_matter), ("back", doc.back_matter)):
        for position, passage in enumerate(passages, 1):
            row = flatten(passage.model_dump(mode="json", by_alias=True), record=True)
            tables.add(
                "passages",
                {
                    "key": f"{vkey}#{part}:{passage.id}",
                    **common,
                    "part": part,
                    "position": position,
                    **row,
                },
            )


def _diff_rows(tables: Tables, reader: CorpusReader, document: str) -> None:
    info = reader.document_info(document)
    record_keys = {r["key"] for r in tables.rows.get("records", []) if r["document"] == document}
    for old, new in reader.diffs(document):
        data = reader.diff_data(document, old, new)
        dkey = f"{document}@{old}..{new}"
        old_key, new_key = _version_key(document, old), _version_key(document, new)
        known = {v.version for v in info.versions}
        tables.add(
            "diffs",
            {
                "key": dkey,
                "document": document,
                "old_version": old,
                "new_version": new,
                "old_version_key": old_key if old in known else None,
                "new_version_key": new_key if new in known else None,
                "changes": len(data.get("changes", [])),
                "renumbered": len(data.get("renumbering", [])),
                **{
                    f"{k}_json": to_json(v)
                    for k, v in sorted(data.items())
                    if k not in ("changes", "renumbering", "document", "old_version", "new_version")
                },
            },
        )
        common = {"diff_key": dkey, "document": document, "old_version": old, "new_version": new}
        for n, change in enumerate(data.get("changes", []), 1):
            tables.add(
                "changes", {"key": f"{dkey}#{n}", **common, "position": n, **flatten(change)}
            )
        for n, move in enumerate(data.get("renumbering", []), 1):
            old_record = f"{old_key}#{move.get('old_id')}"
            new_record = f"{new_key}#{move.get('new_id')}"
            tables.add(
                "renumbering",
                {
                    "key": f"{dkey}#{n}",
                    **common,
                    "position": n,
                    **flatten(move),
                    "old_record_key": old_record if old_record in record_keys else None,
                    "new_record_key": new_record if new_record in record_keys else None,
                },
            )


def collect(reader: CorpusReader) -> Tables:
    """Every row of the database, in a deterministic order."""
    tables = Tables()
    for info in reader.documents():
        tables.add(
            "documents",
            {
                "id": info.id,
                "game": info.id.split("/", 1)[0],
                "title": info.title,
                "family": info.family,
                "current_version": info.current,
                "versions": len(info.versions),
            },
        )
        versions = [v.version for v in info.versions]
        for ordinal, version in enumerate(versions, 1):
            doc = reader.document(info.id, version)
            vkey = _version_key(info.id, version)
            tables.add("versions", _version_row(reader, info.id, ordinal, doc))
            _record_rows(tables, info.id, ordinal, doc, Digests(reader.root, doc))
            prov = reader.version_provenance(info.id, version)
            for n, fetch in enumerate(prov.get("fetches", []), 1):
                tables.add(
                    "provenance",
                    {
                        "key": f"{vkey}#{n}",
                        "document": info.id,
                        "version_key": vkey,
                        "version": version,
                        "position": n,
                        **flatten(fetch),
                    },
                )
            for n, pin in enumerate(prov.get("pins", []), 1):
                tables.add(
                    "pins",
                    {
                        "key": f"{vkey}#{pin.get('rendition')}",
                        "document": info.id,
                        "version_key": vkey,
                        "position": n,
                        **flatten(pin),
                    },
                )
            ids = {r.id for r in doc.records} | {g.id for g in doc.glossary}
            for old_id, new_id in sorted(reader.aliases(info.id, version).items()):
                tables.add(
                    "aliases",
                    {
                        "key": f"{vkey}#{old_id}",
                        "document": info.id,
                        "version_key": vkey,
                        "version": version,
                        "old_id": old_id,
                        "new_id": new_id,
                        "new_record_key": f"{vkey}#{new_id}" if new_id in ids else None,
                    },
                )
        stored = set(reader.diffs(info.id))  # without a stored diff, ids alone link versions

        def diff_of(
            old: str, new: str, document: str = info.id, stored: set[Any] = stored
        ) -> dict[str, Any] | None:
            return reader.diff_data(document, old, new) if (old, new) in stored else None

        records = [r for r in tables.rows.get("records", []) if r["document"] == info.id]
        for lineage in link_lineages(records, versions, diff_of):
            tables.add("lineages", lineage)
        _diff_rows(tables, reader, info.id)
    return tables


def write_database(tables: Tables, path: Path) -> dict[str, int]:
    db = sqlite_utils.Database(path)
    counts: dict[str, int] = {}
    for name in TABLE_ORDER:
        rows = tables.rows.get(name, [])
        columns = column_types(rows) or {PRIMARY_KEYS.get(name, "key"): str}
        pk = PRIMARY_KEYS.get(name, "key")
        fks = [(c, t, o) for c, t, o in FOREIGN_KEYS.get(name, []) if c in columns]
        table = db.table(name)
        table.create(columns, pk=pk, foreign_keys=fks)
        table.insert_all([{c: row.get(c) for c in columns} for row in rows], batch_size=500)
        counts[name] = len(rows)
    for name, searched in FTS.items():
        db.table(name).enable_fts(searched, fts_version="FTS5", tokenize="porter")
    for name, indexes in INDEXES.items():
        for indexed in indexes:
            db.table(name).create_index(indexed)
    for name, sql in VIEWS.items():
        db.create_view(name, " ".join(sql.split()))
    db.conn.commit()
    db.close()
    return counts


@dataclass(frozen=True)
class Exported:
    path: Path
    metadata: Path
    rows: dict[str, int]


def export_sqlite(corpus_dir: Path, path: Path) -> Exported:
    """Write the corpus at `corpus_dir` to the SQLite database `path` (replacing it whole)
    and Datasette's metadata file beside it."""
    reader = CorpusReader(corpus_dir)
    tables = collect(reader)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    meta = metadata_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.unlink(missing_ok=True)
        counts = write_database(tables, temporary)
        os.replace(temporary, path)
        meta.write_bytes(canonical_json(build_metadata(path.stem, reader)))
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise StorageIOError(str(path), exc.strerror or str(exc)) from exc
    return Exported(path, meta, counts)
