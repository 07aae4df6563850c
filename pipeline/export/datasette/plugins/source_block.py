"""Datasette plugin: a rule's row page shows its Source block, as a rules site's pages do
(document and version, published date, citation, the URL the bytes were retrieved from,
their SHA-256, and the invitation to hash the file yourself).

Loaded with `--plugins-dir` (see `pipeline.export.datasette.serve`); the block itself is
drawn by the packaged template `row.html`."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from datasette import hookimpl
from datasette.utils import tilde_encode, urlsafe_components
from markupsafe import Markup, escape

# The tables whose rows are records of a document version (see pipeline.export.schema).
RECORD_TABLES = ("records", "glossary", "rulings")
SOURCE_SQL = """select r.*, d.title as document_title, v.published as version_published,
  v.effective as version_effective, v.source_url, v.source_sha256, v.source_bytes,
  v.source_rendition, v.retrieved, v.retrieved_from, v.parser_family, v.parser_version
from [{table}] r
join versions v on v.id = r.version_key
join documents d on d.id = r.document
where r.key = :key"""


def source_block(row: dict[str, Any]) -> dict[str, Any]:
    """What the Source block shows, from a record row joined with its version."""
    where = []
    if row.get("location_page") is not None:
        where.append(f"page {row['location_page']}")
    if row.get("location_line") is not None:
        where.append(f"line {row['location_line']}")
    return {
        "document": row["document"],
        "title": row.get("document_title") or row["document"],
        "version": row["version"],
        "published": row.get("version_published"),
        "effective": row.get("version_effective"),
        "citation": row["citation"],
        "url": row.get("source_url"),
        "sha256": row.get("source_sha256"),
        "bytes": row.get("source_bytes"),
        "rendition": (row.get("source_rendition") or "").upper(),
        "retrieved": row.get("retrieved"),
        "retrieved_from": row.get("retrieved_from"),
        "parser": f"{row.get('parser_family')} {row.get('parser_version')}",
        "location": ", ".join(where),
        "record_sha256": row.get("record_sha256"),
    }


def _list(value: Any) -> list[str]:
    try:
        items = json.loads(value) if isinstance(value, str) else []
    except ValueError:
        return []
    return [str(i) for i in items] if isinstance(items, list) else []


def record_view(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """The record as a rules site prints it: its number and title, then its text."""
    if table == "glossary":
        heading, paragraphs = row.get("term") or row["citation"], [row.get("definition")]
    elif table == "rulings":
        heading = row["citation"]
        paragraphs = [
            f"Q: {row['question']}" if row.get("question") else None,
            f"A: {row['answer']}" if row.get("answer") else None,
            row.get("text"),
        ]
    else:
        heading = " ".join(x for x in (row.get("number"), row.get("title")) if x)
        paragraphs = [row.get("text")]
    return {
        "heading": heading or row["citation"],
        "paragraphs": [p for p in paragraphs if p],
        "examples": _list(row.get("examples")),
        "notes": _list(row.get("notes")),
        "bullets": _list(row.get("bullets")),
    }


@hookimpl  # type: ignore[untyped-decorator]
def extra_template_vars(
    view_name: str, table: str | None, database: str | None, request: Any, datasette: Any
) -> dict[str, Any] | Callable[[], Awaitable[dict[str, Any]]]:
    if view_name != "row" or table not in RECORD_TABLES or request is None or not database:
        return {}

    async def inner() -> dict[str, Any]:
        pks = urlsafe_components(request.url_vars["pks"])
        if len(pks) != 1:
            return {}
        db = datasette.get_database(database)
        result = await db.execute(SOURCE_SQL.format(table=table), {"key": pks[0]})
        row = result.first()
        if row is None:
            return {}
        data = dict(row)
        return {
            "rulescorpus_source": source_block(data),
            "rulescorpus_record": record_view(table, data),
        }

    return inner


@hookimpl  # type: ignore[untyped-decorator]
def render_cell(value: Any, column: str, table: str | None, database: str, datasette: Any) -> Any:
    """In a canned query's results, the `record` column links to the record's row page."""
    if table is not None or column != "record" or not isinstance(value, str) or "#" not in value:
        return None
    path = datasette.urls.table(database, "records") + "/" + tilde_encode(value)
    return Markup(f'<a href="{escape(path)}">{escape(value)}</a>')
