"""Slips in the SWU Comprehensive Rules' own citations, reviewed by a person.

A citation the scheme cannot read is never guessed at by the parser. Once a
maintainer has read the page and confirmed what the publisher meant, the slip
is listed in parse/errata.toml: the reference is then read as meant and the slip
is recorded in `Document.publisher_errata`, so nothing is hidden and a clean
parse still means zero warnings. A test fails when a listed slip no longer occurs or its
reading names no record.
"""

from __future__ import annotations

from pipeline.models.records import Document, Erratum
from pipeline.parse.errata import CITATION_SLIPS
from pipeline.parse.numbered.references import References

KNOWN_SLIPS = tuple(slip for slip in CITATION_SLIPS if slip.document == "swu/cr")


def read_as_meant(text: str) -> str:
    """The text with each listed slip written as meant (for finding references only)."""
    for slip in KNOWN_SLIPS:
        text = text.replace(slip.printed, slip.reading)
    return text


class DefectReferences(References):
    """The engine's reference finder, reading the listed slips as the publisher meant them."""

    def find(self, *texts: str, known: set[str] | None = None, own: str | None = None) -> list[str]:
        return super().find(*(read_as_meant(t) for t in texts), known=known, own=own)


def record_defects(doc: Document) -> Document:
    """The document with every occurrence of a listed slip in `publisher_errata`."""
    prefix = doc.records[0].id.split(":", 1)[0] if doc.records else "cr"
    found = [
        Erratum(
            record=record.id,
            cites=slip.printed,
            reason=f"read as {prefix}:{slip.reading}: {slip.reason}",
            location=record.location,
        )
        for record in doc.records
        for slip in KNOWN_SLIPS
        if any(slip.printed in t for t in (record.text, *record.examples, *record.bullets))
    ]
    if not found:
        return doc
    return doc.model_copy(update={"publisher_errata": [*doc.publisher_errata, *found]})
