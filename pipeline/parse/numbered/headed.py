"""Markdown and HTML pages whose numbered headings are the rules: the numbered family's `md`
and `html` renditions, read as a person reads the rendered page.

A heading that starts with a number of the scheme opens a rule: the rest of the heading
is its title, the paragraphs under it its text. Nothing else opens a rule: a list item
`1. Draw a card` inside a rule is its text, as the page shows it, and a bulleted item one
of its bullets. A heading without a number continues the rule above it (before the first
rule it is front matter, after one of the scheme's `ends` back matter). A link to the
anchor of a numbered heading (`[see 1.2](#12-combat)`, `<a href="#rule-1.2">`) cites that
rule, whatever its words say. Emphasis and the rest of the markup never reach the parse:
the extractors (`extract.markdown`, `extract.html_lines`) keep only what a reader sees.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions, WarningCode
from pipeline.parse.common import unplaced, warn
from pipeline.parse.numbered.document import parse_numbered
from pipeline.parse.numbered.engine import Body, Engine, Reader, read_document
from pipeline.parse.numbered.finish import finish_document
from pipeline.parse.numbered.layout import Block
from pipeline.parse.numbered.numbers import Numbering

HEADED = frozenset({"md", "html"})


def ordered(line: Line) -> bool:
    """A numbered list's item (`1.`, `a)`), whose number the page shows in its text."""
    return line.item is not None and line.item[:1].isalnum()


def headed_blocks(lines: Sequence[Line]) -> list[Block]:
    """One block per line: headings marked, a numbered item with its number, a bulleted
    item as a bullet."""
    blocks = []
    for line in lines:
        text = f"{line.item} {line.text}" if ordered(line) else line.text
        bullet = line.item is not None and not ordered(line)
        blocks.append(Block(text, line.line, heading=line.heading is not None, bullet=bullet))
    return blocks


def anchored_numbers(numbering: Numbering, lines: Sequence[Line]) -> dict[str, str]:
    """Each anchor that leads to a numbered heading -> the heading's number."""
    found: dict[str, str] = {}
    for line in lines:
        start = numbering.match_start(line.text) if line.heading is not None else None
        if start is not None:
            for anchor in line.anchors:
                found.setdefault(anchor, start.number)
    return found


def open_heading(reader: Reader, block: Block) -> bool:
    """Open the rule a numbered heading starts; False when the heading is no rule's."""
    start = reader.numbering.match_start(block.text)
    if start is None:
        return False
    if start.own:  # only the level's segment is printed: its place in the outline says which
        placed = reader.place(start)
    else:
        placed = start.number, reader.present_parent(start.number)
    if placed is None:
        return False
    number, parent = placed
    if number in reader.seen:
        message = f"{number} appears again; kept as text"
        reader.warnings.append(warn(WarningCode.DUPLICATE_ID, message, block.location))
        return False
    draft = reader.open(number, parent, start.level, "", block.location)
    draft.title = [start.rest] if start.rest else []
    return True


def headed_body(lines: Sequence[Line], anchors: dict[str, str]) -> Body:
    """The body reader of a headed page: headings open rules, the rest continues them."""
    by_line = {line.line: line for line in lines}

    def read(reader: Reader, blocks: list[Block]) -> None:
        for block in blocks:
            if block.heading and open_heading(reader, block):
                draft = reader.current
            elif (draft := reader.current) is None:
                reader.warnings.append(unplaced(block.text, block.location))
                continue
            else:
                if draft.part == "bullets" and not block.bullet:
                    draft.open("text")  # the paragraph after a list is the rule's again
                reader.continue_draft(draft, block.text, block.location, block.bullet)
            assert draft is not None
            cited = (anchors.get(a) for a in by_line[block.line].links)
            draft.cites.extend(n for n in cited if n is not None and n not in draft.cites)

    return read


def parse_headed(
    lines: list[Line], notes: dict[str, int] | None, options: ParseOptions
) -> Document:
    """A Markdown or HTML page of numbered rules, read by its headings."""
    assert options.scheme is not None
    engine = Engine(options.scheme)
    written = [line for line in lines if line.text.strip()]
    blocks = headed_blocks(written)
    numbering = engine.numbering
    anchors = anchored_numbers(numbering, written)
    opens = lambda block: bool(block.heading and numbering.match_start(block.text))  # noqa: E731
    parsed = read_document(engine, blocks, options.document, headed_body(written, anchors), opens)
    return finish_document(parsed, engine.finish("numbered"), options, notes)


def parse_rendition(
    lines: list[Line], notes: dict[str, int] | None, options: ParseOptions
) -> Document:
    """The numbered family's parser: a Markdown or HTML page by its headings, a PDF or a
    text export by its lines (`document.parse_numbered`)."""
    if options.rendition in HEADED and options.scheme is not None:
        return parse_headed(lines, notes, options)
    return parse_numbered(lines, notes, options)
