"""Datasette's metadata.json for an exported corpus: titles, descriptions, units, canned
queries. Plain data (no Datasette import), written by `rulescorpus export sqlite`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.corpus.reader import CorpusReader


def metadata_path(database: Path) -> Path:
    """Where the metadata sits: beside the database, rulescorpus.sqlite ->
    rulescorpus.metadata.json (Datasette names the database by the file's stem)."""
    return database.with_name(f"{database.stem}.metadata.json")


VERSION_KEY = "version_key: the version row this belongs to (document@version)"

TABLES: dict[str, dict[str, Any]] = {
    "documents": {
        "description": "One row per document (game/document): its title, parser family and "
        "current version.",
        "columns": {
            "id": "document id, game/document (mtg/cr, fab/cr, netrunner/rulings)",
            "current_version": "the newest published version",
            "versions": "how many versions are stored",
        },
    },
    "versions": {
        "description": "One row per stored version of a document, with the bytes it was "
        "parsed from (URL, SHA-256, size) and when they were retrieved.",
        "columns": {
            "id": "document@version",
            "ordinal": "1 for the oldest stored version, counting up",
            "is_current": "1 for the document's current version",
            "published": "the publication date the document states (null when it states none)",
            "effective": "the effective date the document states",
            "json_sha256": "SHA-256 of the version's canonical JSON file in the corpus",
            "source_url": "the publisher's URL of the primary rendition",
            "source_sha256": "SHA-256 of the bytes parsed; `sha256sum` of the file prints it",
            "source_bytes": "size of those bytes",
            "retrieved": "UTC time the bytes were retrieved (from the provenance file)",
            "retrieved_from": "where the bytes were really read (a mirror, an archive file)",
        },
        "units": {"source_bytes": "byte"},
        "label_column": "id",
    },
    "records": {
        "description": "Every numbered rule of every version: one row per record per version, "
        "every field of the record. Full-text search covers citation, title and text.",
        "columns": {
            "key": "document@version#citation",
            "citation": "the citation id: cr: + the publisher's own number",
            "number": "the publisher's number as printed",
            "parent": "citation of the enclosing rule",
            "text": "the rule's text, verbatim",
            "examples": "JSON list of the rule's examples",
            "notes": "JSON list of the rule's notes",
            "references": "JSON list of the citation ids the text refers to",
            "location_line": "first line of the record in the extracted text",
            "location_page": "page of the PDF (null for text renditions)",
            "location_end_line": "last line holding the record's own text",
            "location_end_page": "page of that last line (null for text renditions)",
            "location_char_start": "offset of the span in the extracted text (its lines joined "
            "with a line feed; 0-based)",
            "location_char_end": "end of the span in the extracted text (exclusive)",
            "engine": "what extracted the text (pdfium, pdfplumber, python-codecs ...)",
            "engine_version": "that engine's version",
            "record_sha256": "SHA-256 of the record's canonical JSON",
            "document_sha256": "SHA-256 of the version's canonical JSON (its stored file)",
            "lineage": "the record's chain across versions, following renumbering",
            "previous_citation": "the record's citation in the previous version",
            "change": "how it changed from the previous version (class of the stored diff)",
            "version_key": VERSION_KEY,
        },
        "label_column": "citation",
    },
    "glossary": {
        "description": "Glossary terms of every version; full-text search covers term and "
        "definition.",
        "label_column": "term",
    },
    "rulings": {
        "description": "Card rulings (question and answer, or text) of every version; "
        "full-text search covers question, answer and text.",
        "label_column": "citation",
    },
    "ruling_cards": {"description": "The cards each ruling is attached to."},
    "passages": {
        "description": "Front and back matter: introductions, credits, "
        "acknowledgments, kept verbatim."
    },
    "diffs": {"description": "Stored diffs between consecutive versions, with their summary."},
    "changes": {
        "description": "Typed changes of each stored diff (added, removed, reworded, "
        "renumbered, moved, split, merged, ...), with the word-level diff as JSON.",
    },
    "renumbering": {
        "description": "The renumbering map of each stored diff: old_id in the old version "
        "is new_id in the new one.",
    },
    "aliases": {
        "description": "Each version's alias table: an old citation id and the id "
        "it has in that version."
    },
    "provenance": {
        "description": "How each version's bytes were obtained: one fetch record per "
        "rendition (URL, final URL, status, SHA-256, size, retrieval time).",
        "units": {"bytes": "byte"},
    },
    "pins": {
        "description": "The lock: each (document, rendition, version) pinned to its "
        "SHA-256 and size.",
        "units": {"bytes": "byte"},
    },
    "lineages": {
        "description": "One row per chain of records across versions: where a "
        "rule starts and the citation it has in the latest version that holds it.",
        "label_column": "latest_citation",
    },
    "citation_forms": {
        "description": "Every way people write a citation of a current record or glossary "
        "term, lower-cased (cr:702.19c, 702.19c, cr 702.19c, rule 702.19c, trample); the "
        "lookup view joins each to its record: where form = lower('CR 702.19C').",
        "label_column": "citation",
    },
}

QUERIES: dict[str, dict[str, str]] = {
    "rule_by_citation": {
        "title": "Rule by citation",
        "description": "A rule, glossary term or ruling by its citation id (cr:702.19c), in "
        "the current version unless a version is given; leave document empty for all.",
        "sql": """select r.key as record, r.document, r.version, r.citation, r.title, r.text,
  v.source_url, v.source_sha256
from records r join versions v on v.id = r.version_key
where r.citation = :citation
  and (:document = '' or r.document = :document)
  and ((:version = '' and v.is_current = 1) or r.version = :version)
order by r.document""",
    },
    "search_current_rules": {
        "title": "Search the current rules",
        "description": "Full-text search of the current version of every document (words "
        "are matched with stemming: trample over planeswalkers).",
        "sql": """select r.key as record, r.document, r.version, r.citation, r.title,
  snippet(records_fts, 2, '[', ']', '…', 16) as snippet
from records_fts
join records r on r.rowid = records_fts.rowid
join documents d on d.id = r.document and d.current_version = r.version
where records_fts match escape_fts(:q)
order by rank
limit 100""",
    },
    "changes_between_versions": {
        "title": "What changed between two versions",
        "description": "The typed changes of the stored diff between two versions of a "
        "document, with the old and new text.",
        "sql": """select c.class, c.old_id, c.new_id, c.similarity, c.text_change,
  o.text as old_text, n.text as new_text
from changes c
join diffs x on x.key = c.diff_key
left join records o on o.key = x.old_version_key || '#' || c.old_id
left join records n on n.key = x.new_version_key || '#' || c.new_id
where x.document = :document and x.old_version = :old and x.new_version = :new
order by c.position""",
    },
    "where_does_this_old_number_live_now": {
        "title": "Where does this old number live now",
        "description": "Every version in which a citation existed, and the citation the "
        "same rule has in the latest version that still holds it (following renumbering).",
        "sql": """select r.version as was_in, r.citation as old_number,
  l.latest_version, l.latest_citation as number_now,
  case when l.latest_version = d.current_version then 'current'
       else 'removed after ' || l.latest_version end as status,
  cur.text as text_now
from records r
join lineages l on l.id = r.lineage
join documents d on d.id = r.document
left join records cur on cur.lineage = l.id and cur.version = l.latest_version
where r.document = :document and r.citation = :citation
order by r.version_ordinal desc""",
    },
}


def build_metadata(database: str, reader: CorpusReader) -> dict[str, Any]:
    """metadata.json for the database named `database` (Datasette names it by file stem)."""
    documents = ", ".join(f"{d.id} (current {d.current})" for d in reader.documents())
    return {
        "title": "rulescorpus",
        "description": "Trading-card-game Comprehensive Rules and rulings, every stored "
        "version, each rule with the URL and SHA-256 of the bytes it was read from.",
        "databases": {
            database: {
                "description": f"Documents: {documents or 'none'}.",
                "tables": TABLES,
                "queries": QUERIES,
            }
        },
    }
