"""Rules a reader sees where the extraction did not set them apart: run into the line
before (`1.1. Players 1.1.1. This game is …`), or printed without the mark their level
carries (`6.7.1 Counters are …` between `6.7.` and `6.8.`).

Only the number that comes next in the outline (the open rule's first child, its next
sibling, or the next sibling of one of its ancestors) starts a rule there, and only
where a rule can start: after a sentence's end or after a heading set on the same line,
with a capital or a Chinese or Japanese character after it. A citation inside a sentence
(`see 6.7.1`) never does.
"""

from __future__ import annotations

import functools
import re

from pipeline.parse.numbered.numbers import CJK, Numbering, NumberStart

STOPS = tuple(".:;?!。：；？！")
MARKS = ".．)）"
CLOSERS = "\"'”’」』)）"  # a sentence may end inside quotation marks: `“Multiplayer Rules.”`
HEADING_WORDS = 6
HEADING_CHARACTERS = 40


def following(numbering: Numbering, number: str) -> list[str]:
    """The numbers that may come next after `number`, nearest first."""
    parts = numbering.segments(number)
    if not parts:
        return []
    out: list[str] = []
    depth = len(parts)
    if depth < len(numbering.levels) and numbering.levels[depth].printed == "full":
        out.append(numbering.join([*parts, numbering.first(depth)]))
    for level in range(depth - 1, -1, -1):
        if numbering.levels[level].printed != "full":
            continue
        successor = numbering.successor(level, parts[level])
        if successor:
            out.append(numbering.join([*parts[:level], successor]))
    return out


@functools.cache
def token_pattern(cited: str) -> re.Pattern[str]:
    """A number of the scheme (`cited`: Numbering.cited()) with or without its mark, before
    a capital or a Chinese or Japanese character: compiled once per scheme."""
    return re.compile(
        rf"(?<![\w.\-])(?P<n>{cited})(?![\w.\-][0-9A-Za-z])(?P<mark>[{MARKS}])?(?=\s+[A-Z{CJK}]|[{CJK}])"
    )


def run_in_at(numbering: Numbering, text: str, number: str, opens: bool) -> int | None:
    """The column of `text` where the next rule after `number` starts, run into it, or None.
    `opens`: the text begins with `number` itself; what stands between is its heading when
    its level has titles, or when the number after it is its first child."""
    wanted = following(numbering, number)
    if not wanted or not any(c.isdigit() for c in text[1:]):
        return None
    level = numbering.level_of(number)
    titled = opens and level is not None and numbering.levels[level].title != "never"
    child = wanted[0] if numbering.parent_of(wanted[0]) == number else None
    for match in token_pattern(numbering.cited()).finditer(text, 1):
        found = match.group("n")
        # a number of one segment (`2`) is a count in a sentence unless its mark follows
        marked = match.group("mark") or numbering.parent_of(found) is not None
        heading = titled or (opens and found == child)
        if found in wanted and marked and can_start(text[: match.start()], heading):
            return match.start()
    return None


def can_start(before: str, opens: bool) -> bool:
    """A rule can start after a sentence's end, or after the heading the line opened with
    (`1.1. Players`: a few words, no sentence in them)."""
    before = before.rstrip()
    if before.rstrip(CLOSERS).endswith(STOPS):
        return True
    if not opens:
        return False
    title = before.split(maxsplit=1)[1] if len(before.split(maxsplit=1)) > 1 else ""
    short = len(title.split()) <= HEADING_WORDS and len(title) <= HEADING_CHARACTERS
    return bool(title) and short and not any(stop in title for stop in STOPS)


def unmarked_start(numbering: Numbering, text: str, number: str) -> NumberStart | None:
    """A line that starts with `number` printed without the mark its level carries."""
    word, _, rest = text.partition(" ")
    level = numbering.level_of(number)
    if word.rstrip(MARKS) != number or level is None:
        return None
    return NumberStart(level, number, rest.strip())
