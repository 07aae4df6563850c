"""Scheme inference: a numbered rules document's lines -> the `NumberedScheme` a registry
entry declares for it (`rulescorpus scheme FILE`).

The levels come from the numbers printed at the start of lines (`numbering`),
outside the table of contents (`furniture`), away from the page furniture the parse
drops (`numbered.document.find_furniture`);
title, statements, labels and back matter from the words around the rules
(`front`). Pure: lines in, a scheme and what was found out. A document whose
line starts hold no numbering that runs in sequence is no numbered rules
document, and says so.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.scheme import FORMS, NumberedScheme
from pipeline.parse.numbered.document import find_furniture, pdf_blocks
from pipeline.parse.numbered.engine import Engine
from pipeline.parse.numbered.headed import HEADED, headed_blocks, ordered
from pipeline.parse.numbered.layout import Block, text_blocks
from pipeline.parse.scheme_inference.front import (
    BackMatter,
    infer_back_matter,
    infer_bullets,
    infer_date_order,
    infer_front,
    infer_labels,
)
from pipeline.parse.scheme_inference.furniture import (
    Furniture,
    find_contents,
    summarise_furniture,
)
from pipeline.parse.scheme_inference.numbering import infer_levels, read_starts
from pipeline.parse.scheme_inference.references import infer_references

LONG_LINE = 200  # characters: a text whose lines run longer was not wrapped at a width
UNWRAPPED = 0.1  # this share of long lines: each line is a paragraph of its own
MIN_NUMBERS = 5  # fewer numbered lines than this is a list, not a rules document
IN_SEQUENCE = 0.6  # this share of numbers must follow the one before them at their level

__all__ = ["Inference", "infer_scheme"]


@dataclass(frozen=True)
class Inference:
    """The inferred scheme and what the reader found on the way."""

    scheme: NumberedScheme
    contents: list[list[Line]]  # the tables of contents' lines, kept out of the numbering
    furniture: list[Furniture]
    in_sequence: float  # share of the numbered lines that follow their predecessor
    back_matter: BackMatter | None  # the heading the rules end at, declared in `ends` or not
    notes: list[str]  # what the document prints that the scheme cannot declare


def in_sequence(engine: Engine, blocks: Sequence[Block]) -> tuple[int, float]:
    """How many blocks open a number of the scheme, and the share of them that is the first
    or the next one under its parent (a card list's counts, `4 Bolt`, `1 Island`, are not)."""
    numbering = engine.numbering
    last: dict[tuple[int, str | None], int] = defaultdict(int)
    total = following = 0
    for block in blocks:
        start = numbering.match_start(block.text)
        if start is None or start.own:
            continue
        parts = numbering.segments(start.number) or [start.number]
        key = (start.level, numbering.parent_of(start.number))
        ordinal = numbering.ordinal(start.level, parts[-1])
        total += 1
        # the same number again (a heading and its first rule) is no break in the sequence
        following += ordinal in (last[key] + 1, last[key]) or (not last[key] and ordinal <= 1)
        last[key] = max(last[key], ordinal)
    return total, (following / total if total else 0.0)


def check_numbered(engine: Engine, blocks: Sequence[Block], what: str) -> float:
    """The share of numbers in sequence; an error when there are too few numbers, or too few
    of them follow one another, to be the rules of a numbered document."""
    total, share = in_sequence(engine, blocks)
    numbering = engine.numbering
    restarts = sum(1 for b in blocks if (m := numbering.match_start(b.text)) and m.number == "1")
    full = sum(1 for level in engine.scheme.levels if level.printed == "full")
    if full == 1 and restarts >= MIN_NUMBERS and share < IN_SEQUENCE:
        raise ParseError(
            what,
            f"the numbering starts again at 1 under {restarts} headings: an outline whose "
            "levels only the layout shows (`1.`, `a.`, `i.`); declare its scheme by hand",
        )
    if total < MIN_NUMBERS or share < IN_SEQUENCE:
        raise ParseError(
            what,
            f"{total} numbered lines, {share:.0%} of them in sequence; not a numbered rules "
            "document (prose, a list?)",
        )
    return share


def unwrapped(lines: Sequence[Line]) -> bool:
    """A text export that sets each paragraph on one line (no wrapping at a page width): its
    next line is another paragraph, not the rest of a sentence."""
    texts = [line.text for line in lines if line.text.strip()]
    return sum(1 for t in texts if len(t) > LONG_LINE) >= UNWRAPPED * len(texts)


def unread_marks(lines: Sequence[Line], contents: set[int], scheme: NumberedScheme) -> list[str]:
    """Numbers the body closes with `)` where no level reads them (`1) Game Overview` when
    most of that level's numbers are dotted): the entry reads the dotted form only."""
    marked = [
        s for s in read_starts(lines) if s.mark == ")" and s.rest and s.line.line not in contents
    ]
    if len(marked) < MIN_NUMBERS or any(level.dot == "paren" for level in scheme.levels):
        return []
    example = f"{marked[0].number}) {marked[0].rest}"
    return [f"{len(marked)} numbers closed by `)` ({example!r}): not read as numbers"]


# Lines a document may have for its scheme to be inferred: every step reads them all again.
MAX_LINES = 250_000


def check_line_count(count: int, what: str) -> None:
    """A document of more lines than any rules document is refused before it is read."""
    if count > MAX_LINES:
        raise ParseError(
            what,
            f"{count} lines, more than {MAX_LINES} (the longest rules documents have tens "
            "of thousands); not a numbered rules document",
        )


def infer_scheme(lines: list[Line], rendition: str, what: str, prefix: str = "cr") -> Inference:
    """The scheme of a numbered rules document, from its extracted lines."""
    check_line_count(len(lines), what)
    if not any(line.text.strip() for line in lines):
        hint = "a scan without a text layer? OCR it first" if rendition == "pdf" else "empty"
        raise ParseError(what, f"no text to read ({hint}); not a numbered rules document")
    headed = rendition in HEADED
    contents = find_contents(lines)
    in_contents = {line.line for table in contents for line in table}
    # a web page's rules are its numbered headings: a numbered list inside one is its text
    numbered_lines = [line for line in lines if line.heading is not None] if headed else lines
    levels, skipped = infer_levels(numbered_lines, in_contents)
    if not levels:
        raise ParseError(what, "no numbered lines; not a numbered rules document")
    scheme = NumberedScheme(prefix=prefix, levels=levels, skip_letters=skipped)
    engine = Engine(scheme)
    # labels and list glyphs are learnt from the page's body, as the parse reads it
    furniture = set() if headed else find_furniture(engine, lines, rendition)
    body = [line for line in lines if line.line not in furniture]
    examples, notes = infer_labels(body, engine.numbering)
    bullets = infer_bullets(body, engine.numbering) or scheme.bullets
    scheme = scheme.model_copy(update={"example": examples, "note": notes, "bullets": bullets})
    engine = Engine(scheme)
    # as the parse reads them: a page number or a site line is never the back matter's heading
    if headed:
        # a numbered list's items are no rules: they neither open rules nor end them
        blocks = headed_blocks([line for line in body if not ordered(line)])
    else:
        blocks = pdf_blocks(engine, lines) if rendition == "pdf" else text_blocks(body)
    share = check_numbered(engine, blocks, what)
    start = next(i for i, b in enumerate(blocks) if engine.numbering.match_start(b.text))
    # the line just before a table of contents is its heading (`CONTENTS`, `目次 ページ`)
    before_contents = frozenset(
        a.line
        for a, b in itertools.pairwise(blocks)
        if b.line in in_contents and a.line not in in_contents
    )
    front = infer_front(blocks[:start], before_contents)
    printed = {s.number for s in read_starts(numbered_lines) if s.line.line not in in_contents}
    back = infer_back_matter(blocks, engine.numbering, in_contents)
    # how the rules cite each other: a change log after them cites in words of its own
    # (`2-6-3. 与 4-12. 合并`: merged with)
    rules = [ln for ln in lines if back is None or ln.line < back.heading.line]
    keywords, brackets = infer_references(rules, engine.numbering, printed)
    templates = front.statements + [FORMS[name] for name in front.forms]
    scheme = scheme.model_copy(
        update={
            "title": front.title,
            "statements": front.statements,
            "statement_forms": front.forms,
            "date_is": front.date_is,
            "date_order": infer_date_order(lines),
            # a document that states only a date is versioned by it (`Last Updated: …`)
            "version_is_date": bool(templates) and all("{version}" not in s for s in templates),
            "ends": [back.ends] if back is not None and back.declared else [],
            "keywords": keywords,
            "brackets": brackets,
            "wraps": "paragraphs"
            if headed or (rendition != "pdf" and unwrapped(lines))
            else "join",
        }
    )
    notes = unread_marks(lines, in_contents, scheme)
    furnished = summarise_furniture(lines, furniture)
    return Inference(scheme, contents, furnished, share, back, notes)
