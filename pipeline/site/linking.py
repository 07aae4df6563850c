"""Rule numbers in a text made links: the numbers a record cites, the numbers a reader is
sent to in words ("See 718", "see rule 1.1.a"), and both ends of a range (`601.2a–h`,
`119.7–8`). A number the document does not have is left as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

# How a text sends its reader to a rule by number: "See 718", "rules 603.2", "see rule
# 1.1.a." (a sentence's full stop is not part of the number).
MENTION = re.compile(r"\b(?:see(?:\s+rules?)?|rules?)\s+(\d+(?:\.?[0-9a-z]+)*)", re.IGNORECASE)
# The end of a range after a linked number: `–h`, `–8`, `–903.11` (en dash or hyphen).
_RANGE_END = re.compile(r"([–-])(\d+(?:\.\d+)*[a-z]?|[a-z])(?![\w])")
_TAIL = re.compile(r"(\d+|[a-z]+)$")


@dataclass(frozen=True)
class Segment:
    """A run of a record's text; `page` is set where the run is a cited rule's number."""

    text: str
    page: str | None = None


@dataclass
class Linker:
    """The numbers of one version of one document, and the page each is read on.

    `others` are the linkers of the same game's other documents: a citation id this
    document does not hold (`cr:601.2` in a tournament document) resolves there."""

    numbers: dict[str, str]  # citation id -> number
    page_of_number: Callable[[str], str]
    others: list[Linker] = field(default_factory=list)
    _pages: dict[str, str] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._pages = {n: self.page_of_number(n) for n in self.numbers.values() if n}

    def _held(self, citation: str) -> tuple[str, str] | None:
        """(number, page) of the record this document, or another of the game, holds."""
        for linker in (self, *self.others):
            number = linker.numbers.get(citation)
            if number:
                return number, linker._pages[number]
        return None

    def cited(self, references: Iterable[str]) -> dict[str, str]:
        """number -> page of each cited record this document (or another) holds."""
        return dict(held for ref in references if (held := self._held(ref)) is not None)

    def range_end(self, start: str, end: str) -> str | None:
        """The number `end` stands for after `start`: `601.2a`+`h` is 601.2h, `119.7`+`8`
        is 119.8, a whole number is itself; None when the document has no such rule."""
        if end in self._pages and "." in end:
            return end
        tail = _TAIL.search(start)
        if tail is None or tail.group(1)[0].isdigit() != end[0].isdigit():
            return None
        candidate = start[: tail.start()] + end
        return candidate if candidate in self._pages else None

    def segments(self, text: str, references: Iterable[str] = ()) -> list[Segment]:
        """The text, each cited or mentioned rule's number (and a range's end) a link."""
        if not text:
            return [Segment(text)]
        cited = self.cited(references)
        for match in MENTION.finditer(text):
            number = match.group(1)
            page = next(
                (o._pages[number] for o in (self, *self.others) if number in o._pages), None
            )
            if number not in cited and page is not None:
                cited[number] = page
        if not cited:
            return [Segment(text)]
        names = "|".join(re.escape(n) for n in sorted(cited, key=len, reverse=True))
        # A number is cited where it stands alone: not inside a longer number (702.19c in
        # 702.19ca) and not followed by another of its parts.
        pattern = re.compile(rf"(?<![\w.])(?:{names})(?![\w]|\.\w)")
        out: list[Segment] = []
        last = 0
        for match in pattern.finditer(text):
            if match.start() < last:
                continue
            if match.start() > last:
                out.append(Segment(text[last : match.start()]))
            number = match.group(0)
            out.append(Segment(number, cited[number]))
            last = match.end()
            after = _RANGE_END.match(text, last)
            end = self.range_end(number, after.group(2)) if after else None
            if after is not None and end is not None and end in self._pages:
                out += [Segment(after.group(1)), Segment(after.group(2), self._pages[end])]
                last = after.end()
        if last < len(text):
            out.append(Segment(text[last:]))
        return out
