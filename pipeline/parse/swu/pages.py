"""What is the page's and not the outline's: the footer on every page, and facing pages
set with mirrored margins (left-hand pages brought into the right-hand pages' frame before
the outline levels are learnt from their indentations).

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
        if bands[round(line.top or 0.0)] * 2 >= len(pages) and re.search(r"\d+$", line.text.strip())
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
