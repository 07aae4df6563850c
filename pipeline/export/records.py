"""One stored version as the SQLite export's rows: read once, as the JSON it is stored as.

The version file is read, checked against the SHA-256 the index records for it and
decoded with the json module by `store.reader`, as every read command reads it; each
record's digest is read off the same bytes through the id index. The stored JSON is the
Document model's own dump (`store.canonical`), so validating it again through pydantic,
only to dump it back to the same JSON, would cost the export most of its time. Fields a
newer model added after a version was stored take the model's defaults, as validation
would give them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from hashlib import sha256
from typing import Any

from pydantic_core import to_jsonable_python

from pipeline.export.schema import flatten
from pipeline.export.writer import Keys, Tables
from pipeline.lookup import StoredCorpus
from pipeline.models.base import Model
from pipeline.models.records import Document, GlossaryTerm, Passage, Rule, Ruling
from pipeline.store.canonical import canonical_json

# The lists of a Document that become rows of their own tables, and their models.
LISTS: dict[str, type[Model]] = {
    "records": Rule,
    "glossary": GlossaryTerm,
    "rulings": Ruling,
    "front_matter": Passage,
    "back_matter": Passage,
}


@cache
def _defaults(model: type[Model]) -> dict[str, Any]:
    """The JSON of every field of `model` that has a default."""
    return {
        field.alias or name: to_jsonable_python(field.get_default(call_default_factory=True))
        for name, field in model.model_fields.items()
        if not field.is_required()
    }


def filled(model: type[Model], data: dict[str, Any]) -> dict[str, Any]:
    """`data` with the fields it lacks at their defaults (a version stored before them)."""
    defaults = _defaults(model)
    return data if defaults.keys() <= data.keys() else {**defaults, **data}


@dataclass(frozen=True)
class StoredRows:
    """One version as stored: its JSON (fields filled), the SHA-256 of its file and of each
    record's own canonical JSON where the id index gives it."""

    data: dict[str, Any]
    sha256: str
    digests: dict[str, str]

    def records(self, key: str) -> list[dict[str, Any]]:
        model = LISTS[key]
        return [filled(model, item) for item in self.data.get(key) or []]

    def digest(self, record: dict[str, Any]) -> str:
        """The record's digest: off its span, else (no id index, an id held twice) hashed."""
        found = self.digests.get(record["id"])
        return found or sha256(canonical_json(record)).hexdigest()


def read_version(stored: StoredCorpus, document: str, version: str) -> StoredRows:
    """Read one stored version once: its file, checked, and its id index."""
    held = stored.version(document, version)
    data, digests = held.read_whole()
    return StoredRows(filled(Document, data), held.item["sha256"], digests)


def record_rows(tables: Tables, document: str, ordinal: int, stored: StoredRows) -> None:
    """The rows of every record, term, ruling and passage of one version."""
    doc = stored.data
    version: str = doc["version"]
    vkey = f"{document}@{version}"
    rules = stored.records("records")
    ids = {r["id"] for r in rules}
    unique = Keys()
    common = {"document": document, "version_key": vkey, "version": version}
    # a record's provenance beside its span (`location_*`): what extracted its text, and the
    # digest of the version it belongs to (its own digest is `record_sha256`)
    parser = doc["parser"]
    provenance = {
        "engine": parser.get("engine"),
        "engine_version": parser.get("engine_version"),
        "document_sha256": stored.sha256,
    }
    for position, rule in enumerate(rules, 1):
        columns, digest = flatten(rule, record=True), stored.digest(rule)
        parent = rule.get("parent")
        tables.add(
            "records",
            {
                "key": unique(f"{vkey}#{rule['id']}"),
                **common,
                "version_ordinal": ordinal,
                "position": position,
                **columns,
                "parent_key": f"{vkey}#{parent}" if parent in ids else None,
                "record_sha256": digest,
                **provenance,
            },
        )
    for position, term in enumerate(stored.records("glossary"), 1):
        columns, digest = flatten(term, record=True), stored.digest(term)
        tables.add(
            "glossary",
            {
                "key": unique(f"{vkey}#{term['id']}"),
                **common,
                "position": position,
                **columns,
                "record_sha256": digest,
                **provenance,
            },
        )
    for position, ruling in enumerate(stored.records("rulings"), 1):
        columns, digest = flatten(ruling, record=True), stored.digest(ruling)
        key = unique(f"{vkey}#{ruling['id']}")
        tables.add(
            "rulings",
            {
                "key": key,
                **common,
                "position": position,
                **columns,
                "record_sha256": digest,
            },
        )
        titles = list(ruling["card_titles"]) + [None] * len(ruling["cards"])
        for n, card in enumerate(ruling["cards"], 1):
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
    for part in ("front", "back"):
        for position, passage in enumerate(stored.records(f"{part}_matter"), 1):
            tables.add(
                "passages",
                {
                    "key": unique(f"{vkey}#{part}:{passage['id']}"),
                    **common,
                    "part": part,
                    "position": position,
                    **flatten(passage, record=True),
                },
            )
