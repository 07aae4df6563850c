"""A numbering scheme, interpreted: which line starts a number, its level, parent and successor.

A number is a path of segments, one per level, each printed after its parent's
number with the level's `join` (`1` `.0` `.1` `a` is `1.0.1a`; MTG's section
`100` is chapter `1` + `00` with an empty join). A level printed `full` shows
the whole path at the start of its line; one printed `own` shows only its
segment (`a.`) and takes the rest of the path from the outline position.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.models.scheme import LevelScheme, NumberedScheme

SEGMENT = {
    "digits": r"[0-9]+",
    "letter": r"[a-z]",
    "roman": r"[ivxlcdm]+",
    "upper": r"[A-Z]",
    "digits-or-upper": r"(?:[0-9]+|[A-Z])",
}
_ONES = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"]
ROMANS = [tens + ones for tens in ("", "x", "xx", "xxx") for ones in _ONES][1:]


@dataclass(frozen=True)
class NumberStart:
    """A line that begins with a number: the level (0-based), the number, what follows."""

    level: int
    number: str
    rest: str
    own: bool = False  # only the level's own segment was printed


def _plain(regex: str) -> str:
    """The regex without its named groups, to embed in a larger one."""
    return re.sub(r"\(\?P<s[0-9]+>", "(?:", regex)


def _segment(level: LevelScheme) -> str:
    if level.segment == "digits" and level.width:
        return rf"[0-9]{{{level.width}}}"
    return SEGMENT[level.segment]


# Chinese and Japanese text, and full-width forms: no space need stand between a number and it.
CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"


def _after(level: LevelScheme) -> str:
    """What may follow the number, by the level's dot rule: a dot must be followed by a space,
    the end, a capital (MTG prints `901.4.All`) or a Chinese or Japanese character (`9.攻击`);
    a closing parenthesis (`1) Game Overview`) by a space or the end; without either, a space
    and some text must follow (`102 cards` is text)."""
    dotted, bare = rf"\.(?=\s|$|[A-Z{CJK}])\s*(?P<rest>.*)", r"\s+(?P<rest2>\S.*)"
    paren = r"\)(?=\s|$)\s*(?P<rest>.*)"
    forms = {"required": dotted, "optional": f"(?:{dotted}|{bare})", "paren": paren}
    return forms.get(level.dot, bare)


class Numbering:
    """The numbering of one scheme: matchers built once, then used line by line."""

    def __init__(self, scheme: NumberedScheme) -> None:
        self.levels = scheme.levels
        self.alphabet = "".join(c for c in string.ascii_lowercase if c not in scheme.skip_letters)
        self._full: list[str] = []  # regex of the whole number at each level, a group a segment
        for index, level in enumerate(self.levels):
            own = f"(?P<s{index}>{_segment(level)})"
            self._full.append(own if not index else self._full[-1] + re.escape(level.join) + own)
        self._patterns = [re.compile(full) for full in self._full]
        self._segments: dict[str, tuple[str, ...] | None] = {}
        self._starts = [  # line-start matchers, deepest level first
            (index, re.compile(rf"^(?P<n>{number})(?!\w){_after(level)}$"), level.printed == "own")
            for index, level in reversed(list(enumerate(self.levels)))
            for number in [self._full[index] if level.printed == "full" else _segment(level)]
        ]

    def cited(self) -> str:
        """Regex of a cited number: the first level, then each deeper level or not. Lenient
        on purpose: a slip such as `rule 1.6b` is kept as printed (then warned as dangling)."""
        first, *rest = self.levels
        return _segment(first) + "".join(f"(?:{re.escape(v.join)}{_segment(v)})?" for v in rest)

    def dotted(self) -> str:
        """Numbers with a `.` in them: the ones a document can only mean as a citation."""
        forms = [
            f"(?:{_plain(full)})"
            for index, full in enumerate(self._full)
            if any(level.join == "." for level in self.levels[1 : index + 1])
        ]
        return "|".join(reversed(forms))

    def match_start(self, text: str) -> NumberStart | None:
        """The number a line starts with (deepest reading first), or None."""
        for index, pattern, own in self._starts:
            if match := pattern.match(text):
                groups = match.groupdict()
                rest = groups.get("rest") or groups.get("rest2") or ""
                return NumberStart(index, match.group("n"), rest, own)
        return None

    def segments(self, number: str) -> list[str] | None:
        """The segments of a full number, or None when it is not one of this scheme."""
        # Remembered: a document asks about each of its numbers several times.
        if number not in self._segments:
            found = (m for p in reversed(self._patterns) if (m := p.fullmatch(number)))
            self._segments[number] = next((m.groups() for m in found), None)
        parts = self._segments[number]
        return None if parts is None else list(parts)

    def join(self, parts: list[str]) -> str:
        return "".join((self.levels[i].join if i else "") + part for i, part in enumerate(parts))

    def level_of(self, number: str) -> int | None:
        parts = self.segments(number)
        return None if parts is None else len(parts) - 1

    def parent_of(self, number: str) -> str | None:
        parts = self.segments(number)
        return self.join(parts[:-1]) if parts and len(parts) > 1 else None

    def sequence(self, level: int) -> Sequence[str]:
        """The segments a non-digit level runs through, in order (letters skip l and o)."""
        sequences = {"roman": ROMANS, "letter": self.alphabet}
        return sequences.get(self.levels[level].segment, string.ascii_uppercase)

    def ordinal(self, level: int, segment: str) -> int:
        """Position in the level's sequence (a=1, b=2, ii=2, 12=12); 0 for a skipped letter."""
        if segment.isdigit():
            return int(segment)
        sequence = self.sequence(level)
        return list(sequence).index(segment) + 1 if segment in sequence else 0

    def order_key(self, number: str) -> tuple[int, ...]:
        """The number's place in the outline: the ordinals of its segments."""
        parts = self.segments(number) or []
        return tuple(self.ordinal(level, part) for level, part in enumerate(parts))

    def first(self, level: int) -> str:
        return "1" if self.levels[level].segment == "digits" else self.sequence(level)[0]

    def successor(self, level: int, segment: str) -> str:
        """The segment that follows in the level's sequence (`k` -> `m` when `l` is skipped)."""
        if segment.isdigit():
            return str(int(segment) + 1)
        sequence, at = self.sequence(level), self.ordinal(level, segment)
        return sequence[at] if 0 < at < len(sequence) else ""

    def letter_span(self, first: str, last: str) -> list[str]:
        """`a`..`e` through the alphabet (skipped letters left out); the ends alone otherwise."""
        lo, hi = self.alphabet.find(first), self.alphabet.find(last)
        return list(self.alphabet[lo : hi + 1]) if 0 <= lo <= hi else [first, last]
