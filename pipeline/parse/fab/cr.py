"""Flesh and Blood Comprehensive Rules (family `fab-cr`): text export and PDF, one record model.

The text export states no version and no date, so the caller passes the
version it knows (from the registry or the archive manifest); without one the
document's version is null and a `version-missing` warning says so. The PDF's
title page states both and is read; a title page this parser does not
recognise is a ParseError, never a guess.

Record ids are `cr:` + the publisher's number: chapters `cr:1` (depth 1),
sections `cr:1.0` (2), rules `cr:1.0.1` (3), subrules `cr:1.0.1a` (4).
"""

from __future__ import annotations

from pipeline.errors import ParseError
from pipeline.models import Document, Line, ParserInfo, ParseWarning
from pipeline.parse.common import check_references, check_tree, count_records, record_errata, warn
from pipeline.parse.fab.layout import read_pdf_blocks
from pipeline.parse.fab.structure import Block, build_records

FAMILY = "fab-cr"
PARSER_VERSION = "1.0"

__all__ = ["FAMILY", "PARSER_VERSION", "parse", "text_blocks"]


def text_blocks(lines: list[Line]) -> list[Block]:
    """The text export writes one paragraph per line; blank lines carry nothing."""
    return [Block(text=line.text.strip(), line=line.line) for line in lines if line.text.strip()]


def parse(
    lines: list[Line], *, document: str = "fab/cr", rendition: str, version: str | None = None
) -> Document:
    """Parse a FaB CR rendition (`txt` or `pdf`) into a Document with `source` left None."""
    warnings: list[ParseWarning] = []
    title: str | None = None
    published: str | None = None
    if rendition == "pdf":
        layout = read_pdf_blocks(lines, what=document)
        blocks = layout.blocks
        title, published = layout.title, layout.published
        if version is not None and version != layout.version:
            warnings.append(
                warn(
                    "version-mismatch",
                    f"expected version {version} but the title page states "
                    f"{layout.version}; the title page wins",
                )
            )
        version = layout.version
    elif rendition == "txt":
        blocks = text_blocks(lines)
        if version is None:
            warnings.append(
                warn(
                    "version-missing",
                    "the text export states no version and none was given; "
                    "pass the version the source is known to be",
                )
            )
    else:
        raise ParseError(document, f"rendition {rendition!r} is not one fab-cr reads (txt or pdf)")

    parsed = build_records(blocks)
    if not any(record.kind == "chapter" for record in parsed.records):
        raise ParseError(
            document,
            "no chapter found (expected a heading like '1 Game Concepts' "
            "followed by '1.0 General' and rule '1.0.1 ...'); "
            "is this a Flesh and Blood Comprehensive Rules document?",
        )
    doc = Document(
        game="fab",
        document=document,
        title=title,
        version=version,
        published=published,
        parser=ParserInfo(family=FAMILY, version=PARSER_VERSION),
        records=parsed.records,
        glossary=parsed.glossary,
        front_matter=parsed.front_matter,
        back_matter=parsed.back_matter,
    )
    warnings += parsed.warnings + check_tree(doc.records) + check_references(doc)
    counts = count_records(doc.records)
    counts["glossary"] = len(doc.glossary)
    return record_errata(doc.model_copy(update={"warnings": warnings, "counts": counts}))
