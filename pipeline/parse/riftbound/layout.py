"""Riftbound Core Rules from a `pdftotext -layout` dump: pair numbers with text only when certain.

In the dump the rule numbers sit in a column of their own and drift away
from their text: a page often lists its numbers in a clump at the top while
the paragraphs follow lower down, and the number printed on a line is often
not the number of the text beside it (`053. Card, when written ...` is the
text of 052). Reading a number and the text on its line would silently
attach text to the wrong number.

What stays reliable is order: on each page, the numbers appear in the same
order as the paragraphs they label. So each page is read as two streams,
the numbers and the text blocks (paragraphs: separated by blank or
number-only lines or by a change of indentation; `Example:` and `See rule`
paragraphs belong to the block before them). When both streams have the
same length and every neighbouring pair agrees in indentation with its
numbering (a child indented deeper than its parent, siblings level), the
pairing is certain and the page's records are kept. Otherwise the page is
not parsed and one warning names every number on it: never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from pipeline.models.content import Line
from pipeline.models.records import WarningCode
from pipeline.parse.common import warn
from pipeline.parse.numbered.engine import Reader
from pipeline.parse.numbered.layout import Block
from pipeline.parse.numbered.numbers import Numbering, NumberStart
from pipeline.parse.numbered.records import line_at

NUMBER_COLUMN_RE = re.compile(r"^(?P<n>[0-9]{3}(?:\.(?:[0-9]+|[a-z]))*)\.(?=\s|$)")
# Columns in the dump that differ by less than this belong to the same paragraph.
INDENT_TOLERANCE = 2
# Columns of slack in the fit test: pdftotext spaces proportional text only roughly.
FIT_SLACK = 10
SENTENCE_END = (".", ":", "!", "?", '"', "\u201d")


@dataclass
class _Block:
    column: int
    pieces: list[tuple[str, Line]] = field(default_factory=list)  # (text, without a number; line)


@dataclass
class _Page:
    numbers: list[tuple[str, Line]] = field(default_factory=list)
    blocks: list[_Block] = field(default_factory=list)


def _ends_paragraph(block: _Block, next_text: str, right_edge: int) -> bool:
    """A line the next word would have fitted on did not wrap: its paragraph ended there.

    Consecutive items at one indent are often not separated by a blank line;
    pdftotext keeps the column positions, so a soft wrap only happens when the
    next word would have run past the widest line of the page.
    """
    last = block.pieces[-1][1].text.rstrip()
    if not last.endswith(SENTENCE_END):
        return False
    word = next_text.split(" ", 1)[0]
    return len(last) + 1 + len(word) <= right_edge - FIT_SLACK


def _split_pages(lines: list[Line]) -> list[_Page]:
    on_pages: list[list[Line]] = [[]]  # a form feed starts each page after the first
    for line in lines:
        if line.text.startswith("\f"):
            on_pages.append([])
        on_pages[-1].append(line)
    pages: list[_Page] = []
    started = False
    for on_page in on_pages:
        # The widest line of the page: pages are laid out at different scales in the dump.
        right_edge = max((len(line.text.rstrip()) for line in on_page), default=0)
        page = _Page()
        pages.append(page)
        open_block: _Block | None = None
        for line in on_page:
            raw = line.text.lstrip("\f")
            if match := NUMBER_COLUMN_RE.match(raw):
                page.numbers.append((match["n"], line))
                started = True
                raw = " " * match.end() + raw[match.end() :]
            text = raw.strip()
            if not started or not text:
                # Blank and number-only lines end a paragraph; the title lines precede rule 000.
                open_block = None
                continue
            column = len(raw) - len(raw.lstrip(" "))
            if (
                open_block is None
                or abs(column - open_block.column) > INDENT_TOLERANCE
                or _ends_paragraph(open_block, text, right_edge)
            ):
                open_block = _Block(column)
                page.blocks.append(open_block)
            open_block.column = column
            open_block.pieces.append((text, line))
    return pages


def _merge_attached(blocks: list[_Block], reader: Reader) -> list[_Block]:
    """`Example:` and `See rule ...` paragraphs belong to the paragraph before them."""
    merged: list[_Block] = []
    for block in blocks:
        first = block.pieces[0][0]
        attached = first.startswith("Example:") or (
            first.startswith("See ") and bool(reader.engine.references.find(first))
        )
        if attached and merged:
            merged[-1].pieces.extend(block.pieces)
        else:
            merged.append(block)
    return merged


def _consistent(numbers: list[str], blocks: list[_Block], numbering: Numbering) -> bool:
    """Neighbouring pairs must indent as their numbers nest, or the pairing is not certain."""
    parent_of, level_of = numbering.parent_of, numbering.level_of
    for (before, b_block), (after, a_block) in pairwise(zip(numbers, blocks, strict=True)):
        delta = a_block.column - b_block.column
        if parent_of(after) == before:
            if delta <= INDENT_TOLERANCE:
                return False
        elif parent_of(after) == parent_of(before):
            # Top-level headings share no indent (`000.` sits closer to its number than `001.`).
            if parent_of(after) is not None and abs(delta) > INDENT_TOLERANCE:
                return False
        elif (level_of(after) or 0) < (level_of(before) or 0) and delta >= -INDENT_TOLERANCE:
            return False
    return True


def parse_layout(lines: list[Line], reader: Reader, _blocks: list[Block]) -> None:
    """Records the dump pairs with certainty, and a warning for each page it could not pair."""
    numbering = reader.numbering
    previous_kept = False
    for page_number, page in enumerate(_split_pages(lines), start=1):
        blocks = page.blocks
        if blocks and blocks[0].pieces[0][0][:1].islower():
            # A paragraph running on from the previous page.
            carried = blocks.pop(0)
            if previous_kept and reader.current is not None:
                for text, line in carried.pieces:
                    reader.continue_draft(reader.current, text, at=line_at(line))
        blocks = _merge_attached(blocks, reader)
        numbers = [n for n, _ in page.numbers]
        if not numbers:
            continue
        if len(numbers) != len(blocks) or not _consistent(numbers, blocks, numbering):
            message = (
                f"page {page_number}: {len(numbers)} numbers and {len(blocks)} paragraphs "
                f"do not pair with certainty; not parsed: {', '.join(numbers)}"
            )
            at = page.numbers[0][1].line
            reader.warnings.append(warn(WarningCode.UNALIGNED_NUMBERS, message, at))
            previous_kept = False
            continue
        for (number, number_line), block in zip(page.numbers, blocks, strict=True):
            if number in reader.seen:
                message = f"{number} appears again; not parsed"
                reader.warnings.append(warn(WarningCode.DUPLICATE_ID, message, number_line.line))
                continue
            level = numbering.level_of(number) or 0
            placed = reader.place(NumberStart(level, number, ""))
            first = block.pieces[0][1]
            draft = reader.open(number, placed[1] if placed else None, level, "", line_at(first))
            draft.mark(first.highlight)
            for text, line in block.pieces:
                reader.continue_draft(draft, text, at=line_at(line))
        previous_kept = True
