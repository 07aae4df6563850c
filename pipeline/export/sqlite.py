"""`rulescorpus export sqlite PATH`: the corpus as one SQLite database (sqlite-utils).

Tables: documents, versions, records, glossary, rulings, ruling_cards, passages,
diffs, changes, renumbering, aliases, provenance, pins and lineages, with foreign
keys; FTS5 indexes on record text, glossary definitions and ruling questions and
answers; views for the current version of every document and for a record's history
across versions. Datasette serves the file as it is (see metadata.json written next
to it).

Deterministic: rows are inserted in corpus order (documents by id, versions oldest
first, records in document order) and nothing about the export itself (no time, no
path) is stored, so the same corpus gives the same rows. Versions are streamed: one is
read, its rows written in bulk, and it is let go, so memory does not grow with their
number: `export.records` reads each version's stored JSON once and makes its rows,
`export.lineages` links them to their lineages before they are written. Every
table, index and view exists with its columns even when no row fills it.
Where PATH may be written, and how it is replaced, is `export.target`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.corpus.answers import VersionInfo
from pipeline.corpus.reader import CorpusReader
from pipeline.export.citations import citation_form_rows
from pipeline.export.datasette.metadata import build_metadata, metadata_path
from pipeline.export.lineages import Linker
from pipeline.export.records import LISTS, StoredRows, read_version, record_rows
from pipeline.export.schema import Row, flatten, to_json
from pipeline.export.target import check_name, check_target, replacing, write_atomically
from pipeline.export.writer import Keys, Tables, Writer
from pipeline.lookup import StoredCorpus
from pipeline.store.canonical import canonical_json


def _version_key(document: str, version: str) -> str:
    return f"{document}@{version}"


def _version_row(info: VersionInfo, ordinal: int, stored: StoredRows, prov: dict[str, Any]) -> Row:
    doc = stored.data
    document, version = info.document, info.version
    fetches = prov.get("fetches", [])
    src: dict[str, Any] | None = doc.get("source")
    primary: dict[str, Any] = next(
        (f for f in fetches if src and f.get("sha256") == src["sha256"]), {}
    )
    return {
        "id": _version_key(document, version),
        "document": document,
        "version": version,
        "ordinal": ordinal,
        "status": info.status,
        "is_current": int(info.current),
        "title": doc["title"],
        "published": doc["published"],
        "effective": doc["effective"],
        "json_sha256": info.sha256,
        "parser_family": doc["parser"]["family"],
        "parser_version": doc["parser"]["version"],
        "source_url": src["url"] if src else None,
        "source_sha256": src["sha256"] if src else None,
        "source_bytes": src["bytes"] if src else None,
        "source_rendition": src["rendition"] if src else None,
        "retrieved": primary.get("retrieved"),
        "retrieved_from": primary.get("final_url"),
        "records": len(doc["records"]),
        "glossary": len(doc["glossary"]),
        "rulings": len(doc["rulings"]),
        "warnings": len(doc["warnings"]),
        # the document's own fields; its records are rows of their own tables
        **{
            f"{name}_json": to_json(doc[name])
            for name in sorted(doc)
            if name not in LISTS and isinstance(doc[name], list | dict)
        },
    }


def _diff_rows(tables: Tables, reader: CorpusReader, document: str, writer: Writer) -> None:
    """The stored diffs, their changes and renumberings; a renumbering's record keys name
    rows of `records` only where the export wrote that row."""
    info = reader.document_info(document)
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
        moves = data.get("renumbering", [])
        keys = [(f"{old_key}#{m.get('old_id')}", f"{new_key}#{m.get('new_id')}") for m in moves]
        written = writer.present("records", [key for pair in keys for key in pair])
        for n, (move, (old_record, new_record)) in enumerate(zip(moves, keys, strict=True), 1):
            tables.add(
                "renumbering",
                {
                    "key": f"{dkey}#{n}",
                    **common,
                    "position": n,
                    **flatten(move),
                    "old_record_key": old_record if old_record in written else None,
                    "new_record_key": new_record if new_record in written else None,
                },
            )


def _version_rows(
    tables: Tables, stored: StoredCorpus, document: str, version: str, ids: set[str]
) -> None:
    """The small rows of one version: its fetch records, pins and aliases."""
    vkey = _version_key(document, version)
    prov = stored.provenance(document, version)
    for n, fetch in enumerate(prov.get("fetches", []), 1):
        tables.add(
            "provenance",
            {
                "key": f"{vkey}#{n}",
                "document": document,
                "version_key": vkey,
                "version": version,
                "position": n,
                **flatten(fetch),
            },
        )
    unique = Keys()
    for n, pin in enumerate(prov.get("pins", []), 1):
        tables.add(
            "pins",
            {
                "key": unique(f"{vkey}#{pin.get('rendition')}"),
                "document": document,
                "version_key": vkey,
                "position": n,
                **flatten(pin),
            },
        )
    # `new_record_key` names a row of `records` (its foreign key): a renamed glossary term's
    # alias has none.
    for old_id, new_id in sorted(stored.aliases(document, version).items()):
        tables.add(
            "aliases",
            {
                "key": f"{vkey}#{old_id}",
                "document": document,
                "version_key": vkey,
                "version": version,
                "old_id": old_id,
                "new_id": new_id,
                "new_record_key": f"{vkey}#{new_id}" if new_id in ids else None,
            },
        )


def write_corpus(reader: CorpusReader, writer: Writer) -> Tables:
    """Every row of the database, in a deterministic order: each version's records written
    as it is read, with their lineage; the small tables returned for `Writer.finish`."""
    tables = Tables()
    stored = reader.stored  # the reader's own: index.json is read once
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
        linker = Linker()
        diffs = set(reader.diffs(info.id))  # without a stored diff, ids alone link versions
        for ordinal, version in enumerate(info.versions, 1):
            rows = read_version(stored, info.id, version.version)
            prov = stored.provenance(info.id, version.version)
            tables.add("versions", _version_row(version, ordinal, rows, prov))
            streamed = Tables()
            record_rows(streamed, info.id, ordinal, rows)
            ids = {r["citation"] for r in streamed.rows.get("records", [])}
            _version_rows(streamed, stored, info.id, version.version, ids)
            if version.current:
                citation_form_rows(tables, info.id, rows.data)
            for name in ("provenance", "pins"):
                for row in streamed.rows.pop(name, []):
                    tables.add(name, row)
            previous = info.versions[ordinal - 2].version if ordinal > 1 else ""
            pair = (previous, version.version)
            step = reader.lineage_step(info.id, *pair) if pair in diffs else None
            linker.link(version.version, streamed.rows.get("records", []), step)
            for name, table_rows in streamed.rows.items():
                writer.insert(name, table_rows)
            del rows, streamed
        for lineage in linker.rows():
            tables.add("lineages", lineage)
        _diff_rows(tables, reader, info.id, writer)
    return tables


@dataclass(frozen=True)
class Exported:
    path: Path
    metadata: Path
    rows: dict[str, int]


def export_sqlite(corpus_dir: Path, path: Path, *, force: bool = False) -> Exported:
    """Write the corpus at `corpus_dir` to the SQLite database `path` (replacing it whole,
    when it is absent or one this export made; any other file only with `force`) and
    Datasette's metadata file beside it."""
    check_name(path)
    reader = CorpusReader(corpus_dir)
    target = check_target(corpus_dir, path, force=force)
    meta = metadata_path(target)
    with replacing(target) as temp:
        writer = Writer(target.parent / temp.temp)
        try:
            counts = writer.finish(write_corpus(reader, writer))
        finally:
            writer.db.close()
    write_atomically(meta, canonical_json(build_metadata(path.stem, reader)))
    return Exported(path, meta, counts)
