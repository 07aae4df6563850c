"""A numbering scheme, interpreted: which line starts a number, its level, parent and successor.

A number is a path of segments, one per level, each printed after its parent's
number with the level's `join` (`1` `.0` `.1` `a` is `1.0.1a`; MTG's section
`100` is chapter `1` + `00` with an empty join). A level printed `full` shows
the whole path at the start of its line; a level printed `own` shows only its
segment (`a.`) and takes the rest of the path from the outline position.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cached_property

from pipeline.models import LevelScheme, NumberedScheme

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
SEGMENT = {
    "digits": r"\d+",
    "letter": r"[a-z]",
    "roman": r"[ivxlcdm]+",
    "upper": r"[A-Z]",
    "digits-or-upper": r"(?:\d+|[A-Z])",
}


@dataclass(frozen=True)
class NumberStart:
    """A line that begins with a number: the level (0-based), the number, what follows."""

    level: int
    number: str
    rest: str
    own: bool = False  # only the level's own segment was printed


def roman_value(text: str) -> int:
    values = [_ROMAN[c] for c in text]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def _plain(regex: str) -> str:
    """The regex without its named groups, to embed in a larger one."""
    return re.sub(r"\(\?P<s\d+>", "(?:", regex)


def _segment(level: LevelScheme) -> str:
    if level.segment == "digits" and level.width:
        return rf"\d{{{level.width}}}"
    return SEGMENT[level.segment]


def _after(level: LevelScheme) -> str:
    """What may follow the number at the start of a line, by the level's dot rule.

    A dot must be followed by a space, the end, or a capital (MTG prints `901.4.All`);
    without a dot, a space and some text must follow (`102 cards` is text).
    """
    dotted = r"\.(?=\s|$|[A-Z])\s*(?P<rest>.*)"
    bare = r"\s+(?P<rest>\S.*)"
    if level.dot == "required":
        return dotted
    if level.dot == "optional":
        return rf"(?:{dotted}|{bare.replace('rest', 'rest2')})"
    return bare


class Numbering:
    """The numbering of one scheme: matchers built once, then used line by line."""

    def __init__(self, scheme: NumberedScheme) -> None:
        self.levels = scheme.levels
        self.alphabet = "".join(c for c in string.ascii_lowercase if c not in scheme.skip_letters)

    @cached_property
    def _full(self) -> list[str]:
        """Regex of the whole number at each level, one group per segment."""
        out: list[str] = []
        for index, level in enumerate(self.levels):
            own = f"(?P<s{index}>{_segment(level)})"
            out.append(own if index == 0 else out[-1] + re.escape(level.join) + own)
        return out

    @cached_property
    def _starts(self) -> list[tuple[int, re.Pattern[str], bool]]:
        """Line-start matchers, deepest level first."""
        found = []
        for index in reversed(range(len(self.levels))):
            level = self.levels[index]
            number = (
                self._full[index] if level.printed == "full" else f"(?P<s{index}>{_segment(level)})"
            )
            pattern = re.compile(rf"^(?P<n>{number})(?![\w]){_after(level)}$")
            found.append((index, pattern, level.printed == "own"))
        return found

    @cached_property
    def cited(self) -> str:
        """Regex of a cited number: the first level, then each deeper level or not.

        Lenient on purpose: a publisher's slip such as `rule 1.6b` (a letter on a
        section number) is kept as printed, and then warned about as dangling.
        """
        first, *rest = self.levels
        deeper = "".join(f"(?:{re.escape(lv.join)}{_segment(lv)})?" for lv in rest)
        return _segment(first) + deeper

    @cached_property
    def dotted(self) -> str:
        """Numbers with a `.` in them: the ones a document can only mean as a citation."""
        forms = [
            _plain(full)
            for index, full in enumerate(self._full)
            if any(level.join == "." for level in self.levels[1 : index + 1])
        ]
        return "|".join(f"(?:{form})" for form in reversed(forms))

    def match_start(self, text: str) -> NumberStart | None:
        """The number a line starts with (deepest reading first), or None."""
        for index, pattern, own in self._starts:
            match = pattern.match(text)
            if match is not None:
                rest = match.group("rest") if match.group("rest") is not None else None
                if rest is None:
                    rest = match.groupdict().get("rest2") or ""
                return NumberStart(index, match.group("n"), rest, own)
        return None

    def segments(self, number: str) -> list[str] | None:
        """The segments of a full number, or None when it is not one of this scheme."""
        for index in reversed(range(len(self.levels))):
            match = re.fullmatch(self._full[index], number)
            if match is not None:
                return [match.group(f"s{i}") for i in range(index + 1)]
        return None

    def join(self, segments: list[str]) -> str:
        return "".join(
            (self.levels[i].join if i else "") + segment for i, segment in enumerate(segments)
        )

    def level_of(self, number: str) -> int | None:
        parts = self.segments(number)
        return None if parts is None else len(parts) - 1

    def parent_of(self, number: str) -> str | None:
        parts = self.segments(number)
        return self.join(parts[:-1]) if parts and len(parts) > 1 else None

    def ordinal(self, level: int, segment: str) -> int:
        """Position of a segment in its level's sequence (a=1, b=2 skipping l and o; ii=2)."""
        kind = self.levels[level].segment
        if segment.isdigit():
            return int(segment)
        if kind == "roman":
            return roman_value(segment)
        if segment.isupper():
            return ord(segment) - ord("A") + 1
        return self.alphabet.index(segment) + 1 if segment in self.alphabet else 0

    def first(self, level: int) -> str:
        kind = self.levels[level].segment
        return {"digits": "1", "roman": "i", "upper": "A"}.get(kind, self.alphabet[:1])

    def successor(self, level: int, segment: str) -> str:
        """The segment that follows in the level's sequence (`k` -> `m` when `l` is skipped)."""
        kind = self.levels[level].segment
        if segment.isdigit():
            return str(int(segment) + 1).zfill(len(segment) if segment.startswith("0") else 0)
        if kind == "letter":
            at = self.alphabet.find(segment)
            return self.alphabet[at + 1] if 0 <= at < len(self.alphabet) - 1 else ""
        if segment.isupper():
            return chr(ord(segment) + 1)
        return to_roman(roman_value(segment) + 1)

    def letter_span(self, first: str, last: str) -> list[str]:
        """`a`..`e` through the alphabet (skipped letters left out); the ends alone otherwise."""
        if first not in self.alphabet or last not in self.alphabet:
            return [first, last]
        lo, hi = self.alphabet.index(first), self.alphabet.index(last)
        return list(self.alphabet[lo : hi + 1]) if lo <= hi else [first, last]


def to_roman(value: int) -> str:
    out = ""
    for number, letters in (
        (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
        (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
    ):  # fmt: skip
        while value >= number:
            out += letters
            value -= number
    return out
