"""The shape of the SQLite export: tables in creation order, keys, foreign keys, full-text
indexes, indexes and views, and how a model's JSON becomes a row's columns.
`pipeline.export.sqlite` builds the rows and writes them.

Keys are readable text: a version is `document@version` (`mtg/cr@2025-11-14`), a record
`document@version#citation` (`mtg/cr@2025-11-14#cr:702.19c`), so a row's URL in Datasette
names what it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from pipeline.models.base import Model
from pipeline.models.records import GlossaryTerm, Passage, Rule, Ruling

Row = dict[str, Any]

# What marks a database as one this export wrote, so that `export sqlite PATH` replaces
# only its own databases: SQLite's application id ("RCps") and a table naming the format.
APPLICATION_ID = 0x52437073
MARK_TABLE = "rulescorpus_export"
EXPORT_FORMAT = "1"

TABLE_ORDER = [
    "documents",
    "versions",
    "lineages",
    "records",
    "glossary",
    "rulings",
    "ruling_cards",
    "passages",
    "diffs",
    "changes",
    "renumbering",
    "aliases",
    "provenance",
    "pins",
    "citation_forms",
]

# table -> (column, other table, other column)
FOREIGN_KEYS: dict[str, list[tuple[str, str, str]]] = {
    "versions": [("document", "documents", "id")],
    "lineages": [("document", "documents", "id")],
    "records": [
        ("document", "documents", "id"),
        ("version_key", "versions", "id"),
        ("parent_key", "records", "key"),
        ("lineage", "lineages", "id"),
    ],
    "glossary": [("document", "documents", "id"), ("version_key", "versions", "id")],
    "rulings": [("document", "documents", "id"), ("version_key", "versions", "id")],
    "ruling_cards": [("ruling_key", "rulings", "key"), ("version_key", "versions", "id")],
    "passages": [("document", "documents", "id"), ("version_key", "versions", "id")],
    "diffs": [
        ("document", "documents", "id"),
        ("old_version_key", "versions", "id"),
        ("new_version_key", "versions", "id"),
    ],
    "changes": [("diff_key", "diffs", "key"), ("document", "documents", "id")],
    "renumbering": [
        ("diff_key", "diffs", "key"),
        ("old_record_key", "records", "key"),
        ("new_record_key", "records", "key"),
    ],
    "aliases": [("version_key", "versions", "id"), ("new_record_key", "records", "key")],
    "provenance": [("version_key", "versions", "id")],
    "pins": [("version_key", "versions", "id")],
}
PRIMARY_KEYS = {"documents": "id", "versions": "id", "lineages": "id"}
FTS = {
    "records": ["citation", "title", "text", "examples", "notes"],
    "glossary": ["term", "definition"],
    "rulings": ["question", "answer", "text"],
}
INDEXES = {
    "records": [["document", "version"], ["citation"], ["lineage"]],
    "glossary": [["version_key"], ["citation"]],
    "rulings": [["version_key"]],
    "changes": [["diff_key"]],
    "renumbering": [["old_id"], ["new_id"]],
    "aliases": [["old_id"]],
    "citation_forms": [["form"]],
}
VIEWS = {
    "current_versions": """
        select v.* from versions v
        join documents d on d.id = v.document and d.current_version = v.version""",
    "current_records": """
        select r.* from records r
        join documents d on d.id = r.document and d.current_version = r.version""",
    "current_glossary": """
        select g.* from glossary g
        join documents d on d.id = g.document and d.current_version = g.version""",
    "current_rulings": """
        select u.* from rulings u
        join documents d on d.id = u.document and d.current_version = u.version""",
    # A citation as people write it, lower-cased: `where form = lower('CR 702.19C')`.
    "lookup": """
        select f.form, f.document, f.version, f.citation, f.kind,
               coalesce(r.title, g.term) as title, coalesce(r.text, g.definition) as text,
               f.record_key
        from citation_forms f
        left join records r on r.key = f.record_key
        left join glossary g on g.key = f.record_key""",
    "record_history": """
        select r.lineage, r.document, r.version, r.version_ordinal, r.citation,
               r.change, r.previous_citation, r.title, r.text,
               l.latest_citation, l.latest_version, r.key as record_key
        from records r join lineages l on l.id = r.lineage
        order by r.document, r.lineage, r.version_ordinal""",
}


# The columns each table has even when no row gives them (a corpus without rulings, diffs
# or documents): the views, full-text indexes and canned queries read these. Columns the
# rows bring are added after them.
_PER_VERSION = {"key": str, "document": str, "version_key": str, "version": str}
BASE_COLUMNS: dict[str, dict[str, type]] = {
    "documents": {
        "id": str, "game": str, "title": str, "family": str, "current_version": str,
        "versions": int,
    },
    "versions": {
        "id": str, "document": str, "version": str, "ordinal": int, "status": str,
        "is_current": int, "title": str, "published": str, "effective": str,
        "json_sha256": str, "parser_family": str, "parser_version": str, "source_url": str,
        "source_sha256": str, "source_bytes": int, "source_rendition": str, "retrieved": str,
        "retrieved_from": str, "records": int, "glossary": int, "rulings": int,
        "warnings": int,
    },
    "lineages": {
        "id": str, "document": str, "first_version": str, "first_citation": str,
        "versions": int, "latest_version": str, "latest_citation": str,
    },
    "ruling_cards": {
        "key": str, "ruling_key": str, "version_key": str, "position": int, "card": str,
        "card_title": str,
    },
    "diffs": {
        "key": str, "document": str, "old_version": str, "new_version": str,
        "old_version_key": str, "new_version_key": str, "changes": int, "renumbered": int,
    },
    "changes": {
        "key": str, "diff_key": str, "document": str, "old_version": str, "new_version": str,
        "position": int, "class": str, "old_id": str, "new_id": str, "similarity": float,
        "text_change": str,
    },
    "renumbering": {
        "key": str, "diff_key": str, "document": str, "old_version": str, "new_version": str,
        "position": int, "old_id": str, "new_id": str, "old_record_key": str,
        "new_record_key": str,
    },
    "aliases": {**_PER_VERSION, "old_id": str, "new_id": str, "new_record_key": str},
    "provenance": {**_PER_VERSION, "position": int},
    "pins": {"key": str, "document": str, "version_key": str, "position": int},
    "citation_forms": {
        **_PER_VERSION, "form": str, "citation": str, "kind": str, "record_key": str,
    },
}  # fmt: skip


def model_columns(model: type[Model]) -> dict[str, type]:
    """A record model's columns as `flatten(..., record=True)` names them, typed by the
    model's own fields (so a table has them all before, or without, any row)."""
    schema = model.model_json_schema(by_alias=True, mode="serialization")
    columns: dict[str, type] = {}
    for key, field in schema["properties"].items():
        name = "citation" if key == "id" else f"record_{key}" if key in OWN_COLUMNS else key
        if key == "location":
            location = schema["$defs"]["Location"]["properties"]
            columns.update({f"{name}_{inner}": _json_type(f) for inner, f in location.items()})
        else:
            columns[name] = _json_type(field)
    return columns


def _json_type(field: dict[str, Any]) -> type:
    kinds = {f.get("type") for f in field.get("anyOf", [field])} - {"null"}
    if kinds <= {"integer", "boolean"} and kinds:
        return int
    return float if kinds == {"number"} or kinds == {"integer", "number"} else str


RECORD_MODELS: dict[str, type[Model]] = {
    "records": Rule, "glossary": GlossaryTerm, "rulings": Ruling, "passages": Passage,
}  # fmt: skip


# One encoder for every cell: `json.dumps` with options builds a new one per call, which
# was a tenth of an export's time.
_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode


def to_json(value: Any) -> str:
    """Lists and objects in a column: deterministic JSON text."""
    return "[]" if value == [] else _ENCODE(value)


# Columns the export adds to a parsed record's own fields; a record field of the same name
# (a parser's `key`, say) is kept as `record_<name>` instead of being overwritten.
OWN_COLUMNS = frozenset([
    "key", "document", "version_key", "version", "version_ordinal", "position", "part",
    "parent_key", "record_sha256", "lineage", "previous_citation", "change", "citation",
    "engine", "engine_version", "document_sha256",
])  # fmt: skip


# What becomes JSON text in a column (a tuple: the faster isinstance test, per cell).
_NESTED = (list, dict)
# A parsed record's field -> its column, where the two differ.
_RECORD_NAMES = {**{key: f"record_{key}" for key in OWN_COLUMNS}, "id": "citation"}


def flatten(data: dict[str, Any], *, record: bool = False) -> Row:
    """A model's JSON as columns: `location` becomes `location_<key>` columns, lists and
    objects become JSON text, the rest stays as it is; every field is kept. For a parsed
    record, `id` is the `citation` column."""
    row: Row = {}
    names = _RECORD_NAMES if record else {}
    for key, value in data.items():
        name = names.get(key, key)
        if not isinstance(value, _NESTED):
            row[name] = value
        elif key == "location" and isinstance(value, dict):
            for inner, item in value.items():
                row[f"{name}_{inner}"] = to_json(item) if isinstance(item, _NESTED) else item
        else:
            row[name] = to_json(value)
    return row


def column_types(rows: Iterable[Row]) -> dict[str, type]:
    """Every column in first-seen order, typed by all its values (not the first batch)."""
    seen: dict[str, set[type]] = {}
    for row in rows:
        for name, value in row.items():
            kinds = seen.setdefault(name, set())
            if value is not None:
                kinds.add(int if isinstance(value, bool) else type(value))
    return {
        name: (int if kinds == {int} else float if kinds <= {int, float} and kinds else str)
        for name, kinds in seen.items()
    }
