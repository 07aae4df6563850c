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
number. Every table, index and view exists with its columns even when no row fills it.
Where PATH may be written, and how it is replaced, is `jobs.export_target`'s.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.corpus.datasette.metadata import build_metadata, metadata_path
from pipeline.corpus.reader import CorpusReader, sha256_of
from pipeline.corpus.sqlite_schema import (
    Row,
    flatten,
    to_json,
)
from pipeline.jobs.export_citations import citation_form_rows
from pipeline.jobs.export_lineages import link_lineages
from pipeline.jobs.export_target import check_name, check_target, replacing, write_atomically
from pipeline.jobs.export_writer import Keys, Tables, Writer
from pipeline.models.records import Document, GlossaryTerm, Rule, Ruling
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus
from pipeline.store.ids import fits, record_digests


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
    # the document's own fields; its records are rows of their own tables
    data = doc.model_dump(
        mode="json",
        by_alias=True,
        exclude={"records", "glossary", "rulings", "front_matter", "back_matter"},
    )
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
    """The rows of every record, term, ruling and passage of one version."""
    assert doc.version is not None
    vkey = _version_key(document, doc.version)
    ids = {r.id for r in doc.records}
    unique = Keys()
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
                "key": unique(f"{vkey}#{rule.id}"),
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
                "key": unique(f"{vkey}#{term.id}"),
                **common,
                "position": position,
                **row,
                "record_sha256": digests.of(term),
                **provenance,
            },
        )
    for position, ruling in enumerate(doc.rulings, 1):
        key = unique(f"{vkey}#{ruling.id}")
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
                    "key": unique(f"{vkey}#{part}:{passage.id}"),
                    **common,
                    "part": part,
                    "position": position,
                    **row,
                },
            )


def _diff_rows(tables: Tables, reader: CorpusReader, document: str, record_keys: set[str]) -> None:
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


def _version_rows(
    tables: Tables, reader: CorpusReader, document: str, version: str, doc: Document
) -> None:
    """The small rows of one version: its fetch records, pins and aliases."""
    vkey = _version_key(document, version)
    prov = reader.version_provenance(document, version)
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
    ids = {r.id for r in doc.records}
    for old_id, new_id in sorted(reader.aliases(document, version).items()):
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


def _lineage_fields(row: Row) -> Row:
    """What `link_lineages` reads of a record row (it sets the lineage fields on these)."""
    return {k: row[k] for k in ("key", "document", "version", "citation")}


def write_corpus(reader: CorpusReader, writer: Writer) -> Tables:
    """Every row of the database, in a deterministic order: each version's records written
    as it is read; the small tables returned for `Writer.finish`."""
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
        slim: list[Row] = []  # each record's key and citation, for its lineage
        for ordinal, version in enumerate(versions, 1):
            # A reader of its own for each version: a reader keeps every document it has
            # read, and the export must let each go once its rows are written.
            doc = CorpusReader(reader.root).document(info.id, version)
            tables.add("versions", _version_row(reader, info.id, ordinal, doc))
            streamed = Tables()
            _record_rows(streamed, info.id, ordinal, doc, Digests(reader.root, doc))
            _version_rows(streamed, reader, info.id, version, doc)
            if version == info.current:
                citation_form_rows(tables, info.id, doc)
            for name in ("provenance", "pins"):
                for row in streamed.rows.pop(name, []):
                    tables.add(name, row)
            for name, rows in streamed.rows.items():
                writer.insert(name, rows)
            slim += [_lineage_fields(row) for row in streamed.rows.get("records", [])]
            del doc, streamed
        stored = set(reader.diffs(info.id))  # without a stored diff, ids alone link versions

        def diff_of(
            old: str, new: str, document: str = info.id, stored: set[Any] = stored
        ) -> dict[str, Any] | None:
            return reader.diff_data(document, old, new) if (old, new) in stored else None

        for lineage in link_lineages(slim, versions, diff_of):
            tables.add("lineages", lineage)
        writer.set_lineages(slim)
        _diff_rows(tables, reader, info.id, {row["key"] for row in slim})
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
    with replacing(target) as temporary:
        writer = Writer(temporary)
        try:
            counts = writer.finish(write_corpus(reader, writer))
        finally:
            writer.db.close()
    write_atomically(meta, canonical_json(build_metadata(path.stem, reader)))
    return Exported(path, meta, counts)
