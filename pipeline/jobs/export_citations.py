"""The current versions' citations as people write them, for the export's `lookup` view."""

from __future__ import annotations

from pipeline.jobs.export_writer import Keys, Tables
from pipeline.models.records import Document, GlossaryTerm, Rule


def written_forms(record: Rule | GlossaryTerm) -> list[str]:
    """The ways people write a citation of the record, lower-cased, each of which
    `diff.citations.parse_citation` reads back to it: `cr:702.19c`, `702.19c`,
    `cr 702.19c` and `rule 702.19c`; `glossary:trample` and `trample`."""
    if isinstance(record, GlossaryTerm):
        return list(dict.fromkeys([record.id.lower(), record.term.lower()]))
    number = record.number.lower()
    return list(dict.fromkeys([record.id.lower(), number, f"cr {number}", f"rule {number}"]))


def citation_form_rows(tables: Tables, document: str, doc: Document) -> None:
    """The current version's citations as people write them (the `lookup` view)."""
    assert doc.version is not None
    vkey = f"{document}@{doc.version}"
    unique = Keys()
    records: list[tuple[str, Rule | GlossaryTerm]] = [
        *(("rule", r) for r in doc.records),
        *(("glossary", g) for g in doc.glossary),
    ]
    for kind, record in records:
        for form in written_forms(record):
            tables.add(
                "citation_forms",
                {
                    "key": unique(f"{vkey}#{form}"),
                    "document": document,
                    "version_key": vkey,
                    "version": doc.version,
                    "form": form,
                    "citation": record.id,
                    "kind": kind,
                    "record_key": f"{vkey}#{record.id}",
                },
            )
