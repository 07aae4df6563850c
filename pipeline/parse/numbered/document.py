"""A numbered document's lines as the engine reads them: page furniture dropped, a PDF's
wrapped lines joined into paragraphs by their indentation, a text's by its blank lines,
and, for family `numbered`, the whole parse (`parse_numbered`)."""

from __future__ import annotations

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.records import CountKey, Document, ParseOptions
from pipeline.parse.numbered.engine import Engine, read_document
from pipeline.parse.numbered.finish import finish_document
from pipeline.parse.numbered.layout import (
    Block,
    StartKind,
    body_size,
    drop_furniture,
    join_indented,
    text_blocks,
)
from pipeline.parse.numbered.structure import repeated_on_pages, text_pages


def pdf_blocks(engine: Engine, lines: list[Line], kind_of: StartKind | None = None) -> list[Block]:
    """A PDF's body as paragraphs: furniture dropped, wraps joined by indentation (`kind_of`:
    the kinds of entry whose indentation is learnt; the scheme's levels by default)."""
    return join_paragraphs(engine, drop_pdf_furniture(engine, lines), lines, kind_of)


def drop_pdf_furniture(engine: Engine, lines: list[Line]) -> list[Line]:
    """The PDF's non-blank lines but its running heads, feet and page numbers."""
    size = body_size(lines) or 0.0
    numbered = lambda text: engine.numbering.match_start(text) is not None  # noqa: E731
    return drop_furniture([ln for ln in lines if ln.text.strip()], size, numbered)


def find_furniture(engine: Engine, lines: list[Line], rendition: str) -> set[int]:
    """Line numbers of the page furniture a reader skips: running heads and feet, page
    numbers, copyright and site lines, in a PDF or in a text export of one."""
    if rendition == "pdf":
        kept = {line.line for line in drop_pdf_furniture(engine, lines)}
        return {line.line for line in lines if line.text.strip() and line.line not in kept}
    numbered = lambda text: engine.numbering.match_start(text) is not None  # noqa: E731
    return repeated_on_pages(text_pages(lines), numbered)


def join_paragraphs(
    engine: Engine, body: list[Line], lines: list[Line], kind_of: StartKind | None = None
) -> list[Block]:
    """The body lines of a PDF as paragraphs (`lines`: all of its lines, whose most common
    size is the body's)."""
    size = body_size(lines) or 0.0
    labels, glyphs = engine.labels, tuple(engine.scheme.bullets)
    marked = lambda text: labels.match(text) is not None or text.startswith(glyphs)  # noqa: E731
    return join_indented(body, size, kind_of or engine.kind_of, marked, glyphs)


def parse_numbered(
    lines: list[Line], notes: dict[str, int] | None, options: ParseOptions
) -> Document:
    """A numbered rules document, read by the scheme its registry entry declares alone."""
    if options.scheme is None:
        problem = "family `numbered` needs a [source.scheme] table: pass --sources with the "
        raise ParseError(options.document, problem + "registry entry that declares it")
    engine = Engine(options.scheme)
    finish = engine.finish("numbered")
    written = [line for line in lines if line.text.strip()]
    if not written:
        problem = "no text in it (a PDF of scanned pages has none: it needs OCR first)"
        raise ParseError(options.document, problem)
    furniture = find_furniture(engine, lines, options.rendition)
    body = [line for line in written if line.line not in furniture]
    if options.rendition == "pdf":
        blocks = join_paragraphs(engine, body, lines)
    else:
        blocks = text_blocks([line for line in lines if line.line not in furniture])
    parsed = read_document(engine, blocks, options.document)
    if dropped := len(written) - len(body):
        parsed.counts[CountKey.FURNITURE] = dropped
    return finish_document(parsed, finish, options, notes)
