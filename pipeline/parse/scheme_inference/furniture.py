"""What a reader skips: the table of contents and the page furniture.

A contents entry is a numbered heading the document prints again later with
the same number and title (`1. Game Overview` before `1) Game Overview`), or
one that ends in a dot leader and a page number. Furniture is the same text
(digits aside) at the top or the foot of many pages: running heads, page
numbers, copyright and site lines. Both are found to be reported and kept out
of what the numbering is learnt from.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.models.content import Line
from pipeline.parse.scheme_inference.numbering import Numbered, read_starts

LEADER = re.compile(r"(?:\s*(?:\.\s*){2,}|\s*…+|\s+)\s*\d{1,4}$")
SITE_OR_COPYRIGHT = re.compile(r"©|\(c\)|copyright|https?://|www\.|^\d{1,4}$", re.I)
MIN_PAGES = 3  # furniture repeats on at least this many pages
MAX_GAP = 3  # contents entries this many lines apart belong to one table


def heading_text(rest: str) -> str:
    """A heading as a contents line and the body both print it: leaders, page numbers,
    spacing and case aside."""
    return " ".join(LEADER.sub("", rest).split()).casefold()


def find_contents(lines: Sequence[Line]) -> list[Line]:
    """The lines of the tables of contents: each numbered entry printed again later, or
    ending in a leader and a page number, and the lines between entries of one table."""
    starts = read_starts(lines)
    later: dict[tuple[str, str], int] = {}
    for start in starts:
        later[(start.number, heading_text(start.rest))] = start.line.line
    entries: list[Numbered] = [
        s
        for s in starts
        if s.rest
        and (
            later[(s.number, heading_text(s.rest))] > s.line.line
            or (
                LEADER.search(s.rest) is not None
                and re.search(r"(?:\.\s*){2,}|…", s.rest) is not None
            )
        )
    ]
    if len(entries) < MIN_PAGES:
        return []
    at = {line.line: index for index, line in enumerate(lines)}
    kept: set[int] = set()
    for first, second in itertools.pairwise(entries):
        here, there = at[first.line.line], at[second.line.line]
        kept.add(here)
        if there - here <= MAX_GAP:
            kept.update(range(here, there + 1))
    kept.add(at[entries[-1].line.line])
    return [lines[i] for i in sorted(kept)]


@dataclass(frozen=True)
class Furniture:
    """Text set at the top or foot of many pages (digits shown as #) and on how many."""

    text: str
    pages: int


def find_furniture(lines: Sequence[Line]) -> list[Furniture]:
    """Running heads and feet, page numbers: the first and last lines of pages that repeat,
    digits aside, on several pages. A text without pages repeats its furniture as whole
    lines that are no rule (a copyright line after every page of a PDF's text export)."""
    pages: dict[int | None, list[Line]] = {}
    for line in lines:
        if line.text.strip():
            pages.setdefault(line.page, []).append(line)
    if len(pages) > 1:
        ends = [
            ln
            for page in pages.values()
            for ln in {page[0].line: page[0], page[-1].line: page[-1]}.values()
        ]
        counts = Counter(re.sub(r"\d+", "#", ln.text.strip()) for ln in ends)
    else:
        starts = {s.line.line for s in read_starts(lines) if s.rest}
        # without pages, only what no rule repeats: a copyright or site line, a page number
        texts = [
            ln.text.strip()
            for ln in lines
            if ln.line not in starts and SITE_OR_COPYRIGHT.search(ln.text.strip())
        ]
        counts = Counter(texts)
    found = [Furniture(text, n) for text, n in counts.items() if n >= MIN_PAGES]
    return sorted(found, key=lambda f: (-f.pages, f.text))
