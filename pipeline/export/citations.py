"""The current versions' citations as people write them, for the export's `lookup` view."""

from __future__ import annotations

from typing import Any

from pipeline.export.writer import Keys, Tables


def written_forms(kind: str, record: dict[str, Any]) -> list[str]:
    """The ways people write a citation of a stored rule or glossary term (its JSON),
    lower-cased, each of which `diff.citations.parse_citation` reads back to it:
    `cr:702.19c`, `702.19c`, `cr 702.19c` and `rule 702.19c`; `glossary:trample` and
    `trample`."""
    ident = str(record["id"]).lower()
    if kind == "glossary":
        return list(dict.fromkeys([ident, str(record["term"]).lower()]))
    number = str(record["number"]).lower()
    return list(dict.fromkeys([ident, number, f"cr {number}", f"rule {number}"]))


def citation_form_rows(tables: Tables, document: str, doc: dict[str, Any]) -> None:
    """The current version's citations as people write them (the `lookup` view), from its
    stored JSON."""
    version = doc["version"]
    vkey = f"{document}@{version}"
    unique = Keys()
    records = [
        *(("rule", r) for r in doc["records"]),
        *(("glossary", g) for g in doc["glossary"]),
    ]
    for kind, record in records:
        for form in written_forms(kind, record):
            tables.add(
                "citation_forms",
                {
                    "key": unique(f"{vkey}#{form}"),
                    "document": document,
                    "version_key": vkey,
                    "version": version,
                    "form": form,
                    "citation": record["id"],
                    "kind": kind,
                    "record_key": f"{vkey}#{record['id']}",
                },
            )
