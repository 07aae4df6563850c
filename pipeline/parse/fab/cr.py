"""Flesh and Blood Comprehensive Rules (family `fab-cr`): text export and PDF, one record model.

The text export states no version and no date, so the caller passes the
version it knows (from the registry or the archive manifest); without one the
document's version is null and a `no-version` warning says so. The PDF's
title page states both and is read; a title page this parser does not
recognise is a ParseError, never a guess.

Record ids are `cr:` + the publisher's number: chapters `cr:1` (depth 1),
sections `cr:1.0` (2), rules `cr:1.0.1` (3), subrules `cr:1.0.1a` (4).
The PDF path is the engine's layout reader (body font, running heads, hanging
indents, hyphens decided from the document's own words); the title page and
the rule tree with its inline glossary (`fab.structure`) are FaB's own.
"""

from __future__ import annotations

import re

from pipeline.errors import ParseError
from pipeline.models import Document, Line, ParseOptions
from pipeline.parse.common import options_of
from pipeline.parse.fab.structure import ENGINE, build_records, start_kind
from pipeline.parse.numbered.finish import finish_document
from pipeline.parse.numbered.layout import Block, body_size, drop_furniture, join_indented
from pipeline.parse.numbered.statements import DATE_IN_TEXT, read_date

FAMILY = "fab-cr"
PARSER_VERSION = "2.0"
TITLE_RE = re.compile(r"comprehensive\s+rules", re.IGNORECASE)
VERSION_RE = re.compile(r"(?<![\d.])(\d+\.\d+\.\d+)(?![\d.])")
BULLETS = ("•", "●", "▪", "◦")

__all__ = ["FAMILY", "PARSER_VERSION", "parse", "text_blocks"]


def text_blocks(lines: list[Line]) -> list[Block]:
    """The text export writes one paragraph per line; blank lines carry nothing."""
    return [Block(text=line.text.strip(), line=line.line) for line in lines if line.text.strip()]


def read_title_page(lines: list[Line], *, what: str) -> tuple[str, str, str]:
    """(title, version, ISO date) from the first page, or a ParseError saying what it found."""
    if not lines:
        raise ParseError(what, "the PDF has no text")
    first = lines[0].page
    page = [line for line in lines if line.page == first]
    title = next((line.text for line in page if TITLE_RE.search(line.text)), None)
    version = next((m.group(1) for line in page if (m := VERSION_RE.search(line.text))), None)
    date = next((m.group(0) for line in page if (m := DATE_IN_TEXT.search(line.text))), None)
    if title is None or version is None or date is None:
        wanted = (
            ("'Comprehensive Rules'", title),
            ("a version like 2.14.0", version),
            ("a date like 2026-6-10", date),
        )
        missing = ", ".join(name for name, value in wanted if value is None)
        seen = " | ".join(line.text for line in page[:6])
        problem = f"unrecognised title page: page {first} lacks {missing} (it reads: {seen!r})"
        raise ParseError(what, problem, page[0].line)
    published = read_date(date)
    if published is None:
        raise ParseError(what, f"title page date {date!r} is not a date")
    return title, version, published


def is_marked(text: str) -> bool:
    return text.startswith(BULLETS) or ENGINE.labels.match(text) is not None


def pdf_blocks(lines: list[Line], body: float) -> list[Block]:
    """Paragraphs from the PDF's body lines, each wrap joined to the line it continues."""
    return join_indented(lines, body, start_kind, is_marked, BULLETS)


def read_pdf(lines: list[Line], *, what: str) -> tuple[list[Block], str, str, str]:
    """The body's blocks and the title page's title, version and date."""
    if any(line.x0 is None or line.size is None for line in lines):
        raise ParseError(what, "the lines carry no positions; pass extract_pdf_lines(...).lines")
    title, version, published = read_title_page(lines, what=what)
    first_page = lines[0].page
    body = [line for line in lines if line.page != first_page and line.text.strip()]
    size = body_size(body)
    if size is None:
        raise ParseError(what, "the PDF has a title page but no body text")
    body, _furniture = drop_furniture(body, size)
    return pdf_blocks(body, size), title, version, published


def parse(
    lines: list[Line],
    notes: dict[str, int] | None = None,
    options: ParseOptions | None = None,
    *,
    document: str = "fab/cr",
    rendition: str = "txt",
    version: str | None = None,
) -> Document:
    """Parse a FaB CR rendition (`txt` or `pdf`) into a Document with `source` left None."""
    options = options_of(options, document, rendition, version)
    document, rendition = options.document, options.rendition
    if rendition == "pdf":
        blocks, title, stated, published = read_pdf(lines, what=document)
    elif rendition == "txt":
        blocks, title, stated, published = text_blocks(lines), None, None, None
    else:
        raise ParseError(document, f"rendition {rendition!r} is not one fab-cr reads (txt or pdf)")
    parsed = build_records(blocks)
    if not any(draft.kind == "chapter" for draft in parsed.drafts):
        raise ParseError(
            document,
            "no chapter found (expected a heading like '1 Game Concepts' "
            "followed by '1.0 General' and rule '1.0.1 ...'); "
            "is this a Flesh and Blood Comprehensive Rules document?",
        )
    parsed.title, parsed.stated, parsed.published = title, stated, published
    parsed.missing = (
        "the text export states no version and none was given; "
        "pass the version the source is known to be"
    )
    finish = ENGINE.finish(FAMILY, PARSER_VERSION)
    return finish_document(parsed, finish, options, notes)
