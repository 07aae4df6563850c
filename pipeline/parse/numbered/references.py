"""The reference grammar: how a numbered document cites its own rules, resolved to ids.

Declared per scheme: `brackets` (`[1.3.2a, 1.3.3]`, and the full-width `（10.5.1）` of
Chinese and Japanese text), `keywords` that introduce
lists of numbers (`rule 702.19c`, `rules 1.15.4a and 1.15.4b`, `section 7`,
`See rule 355.6.`), `bare` dotted numbers taken wherever they stand (`as
specified in 101.4a`), `ranges` (`601.2a–h`, `119.7–8`, `903.6–903.11`: the
ends and the existing ids between) and letter continuations (`rules 9.2.7b, c,
and d`). A bare single number (`20 life`, `layers 2–6`) is never a reference.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pipeline.models.scheme import NumberedScheme
from pipeline.parse.numbered.numbers import Numbering

_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+", re.IGNORECASE)
_LETTER = re.compile(r"[a-z]\b(?!\.[0-9])")
_DIGIT = re.compile(r"[0-9]")
LIST = re.compile(r"\s*[,，、]\s*")  # between the numbers in brackets


class References:
    """Finds the ids a text cites, in order of appearance, without repeats."""

    def __init__(self, scheme: NumberedScheme, numbering: Numbering) -> None:
        self.scheme, self.numbering = scheme, numbering
        cited = numbering.cited()
        tail = rf"(?:[\u2013\u2014-](?P<tail>{cited}|[0-9]+|[a-z]))?" if scheme.ranges else ""
        self.item = re.compile(rf"(?<![0-9.])(?P<n>{cited}){tail}(?![A-Za-z0-9])")
        # `[1.3.2a, 1.3.3]`, and in Chinese and Japanese text `（10.5.1）`, `（1.2、1.3）`
        self.bracket = re.compile(rf"[\[（](?:{cited})(?:\s*[,，、]\s*(?:{cited}))*[\]）]")
        # Where every number starts with a digit, a text without one cites nothing (most
        # texts, and the search is a third of a parse), and a bare number is looked for
        # only where a digit stands: the lookbehind and the alternatives of `dotted`
        # cost more than one character class at every position.
        self.needs_digit = scheme.levels[0].segment == "digits"
        lead = r"(?=[0-9])" if self.needs_digit else ""
        dotted = numbering.dotted()
        self.bare = re.compile(rf"{lead}(?<![0-9.])(?={dotted})") if dotted else None
        words = "|".join(re.escape(k) for k in sorted(scheme.keywords, key=len, reverse=True))
        self.keyword = re.compile(rf"\b(?:{words})s?\s+", re.IGNORECASE) if words else None

    def _items(self, text: str) -> list[tuple[int, list[str]]]:
        if self.needs_digit and _DIGIT.search(text) is None:
            return []
        found: dict[int, list[str]] = {}
        if self.scheme.brackets:
            for bracket in self.bracket.finditer(text):
                found.setdefault(bracket.start(), LIST.split(bracket.group(0)[1:-1]))
        if self.scheme.bare and self.bare is not None:
            for spot in self.bare.finditer(text):
                if item := self.item.match(text, spot.start()):
                    found.setdefault(item.start(), self._expand(item))
        for keyword in self.keyword.finditer(text) if self.keyword else ():
            for start, numbers in self._list_at(text, keyword.end()):
                found.setdefault(start, numbers)
        return sorted(found.items())

    def _list_at(self, text: str, pos: int) -> list[tuple[int, list[str]]]:
        """`702.19c`, `1.15.4a and 1.15.4b`, `9.2.7b, c, and d` after a keyword."""
        out: list[tuple[int, list[str]]] = []
        stem = ""
        while True:
            if item := self.item.match(text, pos):
                out.append((item.start(), self._expand(item)))
                number = item.group("n")
                last = (self.numbering.segments(number) or [number])[-1]
                stem = number[: -len(last)] if last.isalpha() else number
            elif self.scheme.letters and stem and (item := _LETTER.match(text, pos)):
                out.append((item.start(), [stem + item.group(0)]))
            else:
                return out
            if not (separator := _SEPARATOR.match(text, item.end())):
                return out
            pos = separator.end()

    def _expand(self, item: re.Match[str]) -> list[str]:
        """A number, or a range's two ends and (marked `?`) the numbers between."""
        number, tail = item.group("n"), item.groupdict().get("tail")
        parts = self.numbering.segments(number)
        if tail is None or not parts or len(parts) < 2:
            return [number]
        last, stem = parts[-1], self.numbering.join(parts[:-1])
        if last.isdigit() and self.numbering.levels[len(parts) - 1].join != ".":
            return [number]  # `119` is MTG's section, not a range of rules
        if tail.isalpha() and len(tail) == 1:
            if not last.isalpha():
                return [number]
            return self._between([stem + x for x in self.numbering.letter_span(last, tail)])
        if tail.isdigit():  # `119.7–8`: the tail replaces the last dotted number
            at = max(i for i, p in enumerate(parts) if p.isdigit())
            end, far = self.numbering.join([*parts[:at], tail]), tail
            if at != len(parts) - 1:
                return [number, end]
        else:
            end, far_parts = tail, self.numbering.segments(tail)
            far = far_parts[-1] if far_parts else ""
            if not far_parts or self.numbering.join(far_parts[:-1]) != stem or not last.isdigit():
                return [number, end]
        if not far.isdigit() or int(far) < int(last):
            return [number, end]
        return self._between([f"{stem}.{n}" for n in range(int(last), int(far) + 1)])

    @staticmethod
    def _between(numbers: list[str]) -> list[str]:
        """The ends always stay; the ones between only if the document has them (`?`)."""
        return [numbers[0], *(f"?{n}" for n in numbers[1:-1]), numbers[-1]][: len(numbers)]

    def cited(self, text: str, known: set[str] | None) -> Iterator[tuple[int, str]]:
        """(position, id) of each citation in the text; `known` filters the inside of ranges."""
        for start, numbers in self._items(text):
            for number in numbers:
                ident = f"{self.scheme.prefix}:{number.lstrip('?')}"
                if not number.startswith("?") or ident in (known or ()):
                    yield start, ident

    def find(self, *texts: str, known: set[str] | None = None, own: str | None = None) -> list[str]:
        """Ids cited by the texts, in order of appearance; `own` is left out."""
        out: list[str] = []
        for text in texts:
            for _, ident in sorted(self.cited(text, known), key=lambda found: found[0]):
                if ident not in out and not (self.scheme.exclude_self and ident == own):
                    out.append(ident)
        return out
