"""What a reader skips: the table of contents and the page furniture.

A contents entry is a numbered heading the document prints again later with
the same number and title (`1. Game Overview` before `1) Game Overview`), or
one that ends in a dot leader and a page number: found to be reported and kept out
of what the numbering is learnt from. The engine skips contents among paragraphs
(`numbered.structure.find_contents`); the paragraphs of a PDF are joined by the
numbering, which is what this reading of single lines serves to learn. The furniture
is what the parse itself drops (`numbered.document.find_furniture`), summarised here for
the report.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.models.content import Line
from pipeline.parse.numbered.layout import runs
from pipeline.parse.numbered.structure import digitless
from pipeline.parse.scheme_inference.numbering import (
    Numbered,
    is_short_line,
    read_start,
    read_starts,
)

LEADER = re.compile(r"(?:\s*(?:\.\s*){2,}|\s*…+|\s+)\s*\d{1,4}$")
MAX_GAP = 3  # contents entries this many lines apart belong to one table
MIN_ENTRIES = 3  # fewer entries are headings printed twice, not a table
DOTS = re.compile(r"(?:\.\s*){2,}|…")


def heading_text(rest: str) -> str:
    """A heading as a contents line and the body both print it: leaders, page numbers,
    spacing and case aside."""
    return " ".join(LEADER.sub("", rest).split()).casefold()


def is_entry(start: Numbered, later: dict[tuple[str, str], int]) -> bool:
    """A contents entry: the heading is printed again later, or ends in a dot leader and a
    page number."""
    if not start.rest:
        return False
    again = later[(start.number, heading_text(start.rest))] > start.line.line
    return again or (LEADER.search(start.rest) is not None and DOTS.search(start.rest) is not None)


def heading_of(line: Line) -> str:
    """A line's text after its number, if it starts with one."""
    start = read_start(line)
    return start.rest if start is not None else line.text.strip()


def find_contents(lines: Sequence[Line]) -> list[list[Line]]:
    """The tables of contents, each as its lines: runs of at least MIN_ENTRIES entries at
    most MAX_GAP lines or only headings apart, with the lines between them (a heading the
    table lists without a number, `Glossary`). An entry alone is a heading printed twice."""
    starts = read_starts(lines)
    later: dict[tuple[str, str], int] = {}
    for start in starts:
        later[(start.number, heading_text(start.rest))] = start.line.line
    at = {line.line: index for index, line in enumerate(lines)}
    spots = [at[s.line.line] for s in starts if is_entry(s, later)]

    def apart(spot: int, run: list[int]) -> bool:
        """Entries are one table while only short lines stand between them (entries whose
        title the body words otherwise, two columns read as one line, page furniture), not
        the sentences of a body."""
        between = [heading_of(ln) for ln in lines[run[-1] + 1 : spot] if ln.text.strip()]
        return spot - run[-1] > MAX_GAP and not all(map(is_short_line, between))

    tables = runs(spots, apart)
    last_seen = {line.text.strip().casefold(): index for index, line in enumerate(lines)}

    def listed(index: int) -> bool:
        """A heading the contents list without a number (`Glossary`, `Change history`): short,
        and printed again later."""
        text = lines[index].text.strip()
        return bool(text) and is_short_line(text) and last_seen.get(text.casefold(), index) > index

    found = []
    for run in (run for run in tables if len(run) >= MIN_ENTRIES):
        end = run[-1] + 1
        while end < len(lines) and listed(end):
            end += 1
        found.append(list(lines[run[0] : end]))
    return found


@dataclass(frozen=True)
class Furniture:
    """Text set at the top or foot of many pages (digits shown as #) and on how many."""

    text: str
    pages: int


def summarise_furniture(lines: Sequence[Line], furniture: set[int]) -> list[Furniture]:
    """The furniture lines (`numbered.document.find_furniture`, as the parse drops them) by
    their text, digits as #, most repeated first."""
    counts = Counter(digitless(line.text) for line in lines if line.line in furniture)
    return sorted(
        (Furniture(text, n) for text, n in counts.items()), key=lambda f: (-f.pages, f.text)
    )
