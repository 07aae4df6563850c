"""The outline's depth, read from the document: a level below the deepest one the document
uses, set at an indentation of its own and labelled in a style the scheme does not expect.

The scheme (`swu.cr.SCHEME`) declares five levels, the last `i.` items. A next edition may
label the level under its deepest rules otherwise (`1.`, `A.`), or go one level deeper. Such
labels are lines that no level reads, that start with a label and a dot, and that sit
together at one indentation right of every level's labels that is neither the wraps' nor
the examples' of the level above. They are a level when they form a sequence a reader
sees: more than one of them, and among them the first of a sequence (`1.`, `A.`, `a.`,
`i.`). The level then takes the place below the deepest level in use, with the segment
its labels are written in; nothing else of the scheme changes.
"""

from __future__ import annotations

import re

from pipeline.models.content import Line
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.numbered.layout import mode
from pipeline.parse.numbered.numbers import SEGMENT

# A line that starts like an outline label of any style (`1.`, `A.`, `a.`, `ii.`).
LABEL_START = re.compile(r"^(?P<label>[0-9]+|[A-Za-z]|[ivx]+)\.\s+\S")
_FIRSTS = {"1", "A", "a", "i"}
# Tried in this order: `i.` alone is read as roman only when no letter fits all labels.
_SEGMENTS = ("digits", "upper", "letter", "roman")


def segment_of(labels: list[str]) -> str | None:
    """The one segment style every label is written in, or None."""
    for name in _SEGMENTS:
        if all(re.fullmatch(SEGMENT[name], label) for label in labels):
            return name
    return None


def deeper_level(
    scheme: NumberedScheme,
    unread: list[Line],
    labels: dict[int, float],
    beside: list[float | None],
    tolerance: float,
) -> NumberedScheme | None:
    """The scheme with the level the document sets below its deepest one in use, or None.

    `unread`: body lines no level reads; `labels`: each level's label x; `beside`: the x of
    the deepest level's wraps and examples."""
    if not labels:
        return None
    deepest = max(labels)
    rightmost = max(labels.values())
    found = [
        (round(line.x0 or 0.0, 1), match.group("label"))
        for line in unread
        if (match := LABEL_START.match(line.text.strip()))
        and (line.x0 or 0.0) > rightmost + tolerance
        and not any(x is not None and abs((line.x0 or 0.0) - x) <= tolerance for x in beside)
    ]
    at = mode([x for x, _ in found])
    if at is None:
        return None
    level_labels = [label for x, label in found if abs(x - at) <= tolerance]
    segment = segment_of(level_labels)
    if len(level_labels) < 2 or not _FIRSTS & set(level_labels) or segment is None:
        return None
    below = scheme.levels[deepest + 1] if deepest + 1 < len(scheme.levels) else None
    if below is not None and below.segment == segment:
        return None  # the scheme expects this level as it is written: nothing to learn
    kind = below.kind if below is not None else "subitem"
    level = LevelScheme(
        kind=kind,
        segment=segment,
        printed="own",
        dot="required",
        title="short",
    )
    return scheme.model_copy(update={"levels": [*scheme.levels[: deepest + 1], level]})
