"""The reference grammar: how a numbered document cites its own rules, resolved to ids.

Declared per scheme (README, "Adding a game"): `brackets` (`[1.3.2a, 1.3.3]`),
`keywords` that introduce lists of numbers (`rule 702.19c`, `rules 1.15.4a and
1.15.4b`, `section 7`, `See rule 355.6.`), `bare` dotted numbers taken wherever
they stand (`as specified in 101.4a`), `ranges` (`601.2a–h`, `119.7–8`,
`903.6–903.11`: the ends and the existing ids between) and letter
continuations (`rules 9.2.7b, c, and d`). A bare single number (`20 life`,
`layers 2–6`) is never a reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from pipeline.models import NumberedScheme
from pipeline.parse.numbered.numbers import Numbering

_DASH = "[\u2013\u2014-]"
_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+", re.IGNORECASE)
_LETTER = re.compile(r"[a-z]\b(?!\.\d)")


@dataclass(frozen=True)
class _Item:
    start: int
    end: int
    number: str
    tail: str | None  # a range's far end: a full number, or one segment (`h`, `8`)


def _dotted(numbering: Numbering, parts: list[str]) -> bool:
    return numbering.levels[len(parts) - 1].join == "."


class References:
    """Finds the ids a text cites, in order of appearance, without repeats."""

    def __init__(self, scheme: NumberedScheme, numbering: Numbering) -> None:
        self.scheme = scheme
        self.numbering = numbering

    @cached_property
    def _item(self) -> re.Pattern[str]:
        tail = (
            rf"(?:{_DASH}(?P<tail>{self.numbering.cited}|\d+|[a-z]))?" if self.scheme.ranges else ""
        )
        return re.compile(rf"(?<![\d.])(?P<n>{self.numbering.cited}){tail}(?![A-Za-z0-9])")

    @cached_property
    def _bare(self) -> re.Pattern[str] | None:
        if not self.scheme.bare or not self.numbering.dotted:
            return None
        return re.compile(rf"(?<![\d.])(?={self.numbering.dotted})")

    @cached_property
    def _keyword(self) -> re.Pattern[str] | None:
        if not self.scheme.keywords:
            return None
        words = "|".join(re.escape(k) for k in sorted(self.scheme.keywords, key=len, reverse=True))
        return re.compile(rf"\b(?:{words})s?\s+", re.IGNORECASE)

    @cached_property
    def _bracket(self) -> re.Pattern[str]:
        number = self.numbering.cited
        return re.compile(rf"\[(?:{number})(?:\s*,\s*(?:{number}))*\]")

    def _match(self, text: str, pos: int) -> _Item | None:
        match = self._item.match(text, pos)
        if match is None:
            return None
        tail = match.groupdict().get("tail")
        return _Item(match.start(), match.end(), match.group("n"), tail)

    def _items(self, text: str) -> list[tuple[int, list[str]]]:
        found: dict[int, list[str]] = {}
        if self.scheme.brackets:
            for bracket in self._bracket.finditer(text):
                numbers = re.split(r"\s*,\s*", bracket.group(0)[1:-1])
                found.setdefault(bracket.start(), numbers)
        if self._bare is not None:
            for spot in self._bare.finditer(text):
                item = self._match(text, spot.start())
                if item is not None:
                    found.setdefault(item.start, self._expand(item))
        if self._keyword is not None:
            for keyword in self._keyword.finditer(text):
                for start, numbers in self._list_at(text, keyword.end()):
                    found.setdefault(start, numbers)
        return sorted(found.items())

    def _list_at(self, text: str, pos: int) -> list[tuple[int, list[str]]]:
        """`702.19c`, `1.15.4a and 1.15.4b`, `9.2.7b, c, and d` after a keyword."""
        out: list[tuple[int, list[str]]] = []
        stem = ""
        while True:
            item = self._match(text, pos)
            if item is not None:
                out.append((item.start, self._expand(item)))
                parts = self.numbering.segments(item.number) or [item.number]
                stem = item.number[: -len(parts[-1])] if parts[-1].isalpha() else item.number
                end = item.end
            elif self.scheme.letters and stem and (letter := _LETTER.match(text, pos)):
                out.append((letter.start(), [stem + letter.group(0)]))
                end = letter.end()
            else:
                return out
            separator = _SEPARATOR.match(text, end)
            if separator is None:
                return out
            pos = separator.end()

    def _expand(self, item: _Item) -> list[str]:
        """A number, or a range's ends and the numbers between (kept when known)."""
        if item.tail is None:
            return [item.number]
        numbering = self.numbering
        parts = numbering.segments(item.number)
        if not parts or len(parts) < 2 or (parts[-1].isdigit() and not _dotted(numbering, parts)):
            return [item.number]
        stem = numbering.join(parts[:-1])
        last = parts[-1]
        if item.tail.isalpha() and len(item.tail) == 1:
            if not last.isalpha():
                return [item.number]
            return self._between([stem + x for x in numbering.letter_span(last, item.tail)])
        if item.tail.isdigit():
            # `119.7–8`: the tail replaces the last dotted number
            digits = max(i for i, p in enumerate(parts) if p.isdigit())
            end = numbering.join([*parts[:digits], item.tail])
            if digits != len(parts) - 1 or int(item.tail) < int(last):
                return [item.number, end]
            return self._between([f"{stem}.{n}" for n in range(int(last), int(item.tail) + 1)])
        far = numbering.segments(item.tail)
        if (
            far is None
            or numbering.join(far[:-1]) != stem
            or not (last.isdigit() and far[-1].isdigit())
            or int(far[-1]) < int(last)
        ):
            return [item.number, item.tail]
        return self._between([f"{stem}.{n}" for n in range(int(last), int(far[-1]) + 1)])

    @staticmethod
    def _between(numbers: list[str]) -> list[str]:
        """Marked: the ends always stay; the ones between only if the document has them."""
        return (
            [numbers[0], *(f"?{n}" for n in numbers[1:-1]), numbers[-1]]
            if len(numbers) > 1
            else numbers
        )

    def find(self, *texts: str, known: set[str] | None = None, own: str | None = None) -> list[str]:
        """Ids cited by the texts; `known` filters the inside of ranges, `own` is left out."""
        prefix = self.scheme.prefix
        out: list[str] = []
        for text in texts:
            for _, numbers in self._items(text):
                for number in numbers:
                    optional = number.startswith("?")
                    ident = f"{prefix}:{number.lstrip('?')}"
                    if optional and (known is None or ident not in known):
                        continue
                    if ident not in out and not (self.scheme.exclude_self and ident == own):
                        out.append(ident)
        return out
