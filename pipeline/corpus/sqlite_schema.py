"""The shape of the SQLite export: tables in creation order, keys, foreign keys, full-text
indexes, indexes and views. Data only; `pipeline.jobs.export` builds the rows.

Keys are readable text: a version is `document@version` (`mtg/cr@2025-11-14`), a record
`document@version#citation` (`mtg/cr@2025-11-14#cr:702.19c`), so a row's URL in Datasette
names what it is.
"""

from __future__ import annotations

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
    "records": ["citation", "title", "text"],
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
    "record_history": """
        select r.lineage, r.document, r.version, r.version_ordinal, r.citation,
               r.change, r.previous_citation, r.title, r.text,
               l.latest_citation, l.latest_version, r.key as record_key
        from records r join lineages l on l.id = r.lineage
        order by r.document, r.lineage, r.version_ordinal""",
}
