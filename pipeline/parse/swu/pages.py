"""What is the page's and not the outline's: the footer on every page, facing pages set
with mirrored margins (left-hand pages brought into the right-hand pages' frame before
the outline levels are learnt from their indentations), a section's number set beside
its title, and the front matter and contents before the first chapter.

Which outline level a label is shows only in its indentation (`swu.layout`), learnt as the
most common x of each level's labels. A book set with mirrored margins moves every line of
every left-hand page by the same amount, so each level would have two indentations and the
labels of half the pages would fit none. The shift is measured from the document: the
indentations of the even pages taken together, laid over those of the odd pages; it is
applied only when it fits clearly better than no shift, so a document whose pages share
one frame (Star Wars: Unlimited 7.0) is read as it is.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

from pipeline.models.content import Line

# Two x positions closer than this are one indentation: numbers are right-aligned, so
# `10.` starts 3 pt left of `1.`.
INDENT_TOLERANCE = 4.5
# Headings (chapters, INTRODUCTION, CONTENTS) are set this much larger than rule numbers.
HEADING_STEP = 1.5
SECTION_NUMBER_RE = re.compile(r"^([0-9]+)\.$")
CHAPTER_RE = re.compile(r"^([0-9]+)\.\s+(\S.*)$")
TOC_ENTRY_RE = re.compile(r"^[0-9]+\.\s+\S.*\s[0-9]+$")


def _pages(lines: Iterable[Line]) -> dict[int | None, list[Line]]:
    pages: dict[int | None, list[Line]] = {}
    for line in lines:
        pages.setdefault(line.page, []).append(line)
    return pages


def drop_footers(lines: list[Line]) -> tuple[list[Line], int]:
    """The last line of a page is a footer when it sits at a height that most pages share
    for their last line and ends with a number (the page's)."""
    pages = _pages(lines)
    lasts = [page[-1] for page in pages.values()]
    bands = Counter(round(line.top or 0.0) for line in lasts)
    dropped = {
        id(line)
        for line in lasts
        if bands[round(line.top or 0.0)] * 2 >= len(pages)
        and re.search(r"[0-9]+$", line.text.strip())
    }
    return [line for line in lines if id(line) not in dropped], len(dropped)


# How far the two frames may sit apart (points): a margin, not a column.
MAX_SHIFT = 72
# A shift is taken only when its fit beats the unshifted fit by this factor.
CLEAR_GAIN = 1.5


def _fit(profile: Counter[int], reference: Counter[int], shift: int) -> float:
    """How well the indentations of `profile`, moved by `shift`, lie over the reference's:
    each line counts by how common its x (±1 pt) is there, damped so that no single busy
    indentation decides."""
    total = 0.0
    for x, count in profile.items():
        near = sum(reference.get(x + shift + d, 0) for d in (-1, 0, 1))
        total += count * math.sqrt(near)
    return total


def frame_shift(profile: Counter[int], reference: Counter[int]) -> int:
    """The shift that lays `profile` over `reference`; 0 unless another fits clearly better."""
    still = _fit(profile, reference, 0)
    best, fit = 0, still
    for shift in sorted(range(-MAX_SHIFT, MAX_SHIFT + 1), key=abs):
        score = _fit(profile, reference, shift)
        if score > fit:
            best, fit = shift, score
    return best if fit > CLEAR_GAIN * still else 0


def align_facing_pages(lines: list[Line]) -> tuple[list[Line], int]:
    """The lines with the even pages moved into the odd pages' frame, and the shift (points,
    0 when the pages share one frame)."""
    sides: dict[int, Counter[int]] = {0: Counter(), 1: Counter()}
    for line in lines:
        if line.page is not None and line.x0 is not None:
            sides[line.page % 2][round(line.x0)] += 1
    if not sides[0] or not sides[1]:
        return lines, 0
    shift = frame_shift(sides[0], sides[1])
    if not shift:
        return lines, 0
    return [
        line.model_copy(update={"x0": line.x0 + shift})
        if line.page is not None and line.page % 2 == 0 and line.x0 is not None
        else line
        for line in lines
    ], shift


def pair_section_numbers(lines: list[Line]) -> tuple[list[Line], set[int]]:
    """A section number (`1.` alone, set below and left of its title) joined to its title
    line as `1. GENERAL`, at the title's place and the number's indentation; and the line
    numbers of the sections so made."""
    out: list[Line] = []
    sections: set[int] = set()
    for line in lines:
        match = SECTION_NUMBER_RE.match(line.text.strip())
        title = out[-1] if out else None
        if (
            match is not None
            and title is not None
            and title.page == line.page
            and abs((title.top or 0.0) - (line.top or 0.0)) <= INDENT_TOLERANCE
            and (title.x0 or 0.0) > (line.x0 or 0.0)
        ):
            text = f"{match.group(1)}. {title.text.strip()}"
            out[-1] = title.model_copy(update={"text": text, "x0": line.x0, "size": line.size})
            sections.add(title.line)
            continue
        out.append(line)
    return out, sections


def split_front(lines: list[Line], reading_size: float) -> tuple[list[Line], list[Line], int]:
    """(front matter, body, table-of-contents lines dropped): the body starts at the first
    chapter heading; the contents is the heading before it whose lines are `N. TITLE page`."""
    start = next(
        (
            i
            for i, ln in enumerate(lines)
            if (ln.size or 0.0) > reading_size + HEADING_STEP
            and CHAPTER_RE.match(ln.text.strip())
            and not TOC_ENTRY_RE.match(ln.text.strip())
        ),
        len(lines),
    )
    front = lines[:start]
    toc = [i for i, ln in enumerate(front) if TOC_ENTRY_RE.match(ln.text.strip())]
    if not toc:
        return front, lines[start:], 0
    heading = toc[0] - 1  # the CONTENTS heading itself
    kept = front[:heading] if heading >= 0 else []
    return kept, lines[start:], len(front) - len(kept)
