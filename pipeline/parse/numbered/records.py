"""Records being assembled: a draft per number, with its text, examples, notes and bullets.

Readers feed pieces (a line or a paragraph) to the draft they belong to; a
label (`Example:`, `Note:`, `Example 2:`) opens an example or a note, and what
follows continues it until something else opens. The finishing step joins
each part's pieces (`Join`) and turns drafts into records.

Each piece comes with the Location of the lines it was read from, so a draft
knows the last line holding its own text: the record's span runs from where the
draft opened to there (`span`). Lines a reader drops (page furniture) or hands
to the next record never reach a draft, so they never stretch a span.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.models.content import Line
from pipeline.models.records import Location
from pipeline.models.scheme import NumberedScheme

Join = Callable[[list[str]], str]


def label_pattern(scheme: NumberedScheme) -> re.Pattern[str]:
    """`Example:`, `Example 2:`, `Note:`, `例：` at the start of a piece: the label (group `example`
    when it opens an example) and its text."""
    words = ["|".join(map(re.escape, labels)) or "(?!)" for labels in (scheme.example, scheme.note)]
    # the colon may be the full-width one of Chinese and Japanese text (`例：`)
    return re.compile(rf"^(?:(?P<example>{words[0]})|(?:{words[1]}))(?: \d+)?[:：]\s*(?P<text>.*)$")


def span(first: Location, last: Location | None) -> Location:
    """The lines from `first` to the end of `last` (to the end of `first` itself without it):
    first line and page, last line and page."""
    end = last if last is not None and _end(last) >= _end(first) else first
    end_line = end.end_line if end.end_line is not None else end.line
    end_page = end.end_page if end.end_line is not None else end.page
    return Location(line=first.line, page=first.page, end_line=end_line, end_page=end_page)


def line_at(line: Line) -> Location:
    return Location(line=line.line, page=line.page)


def lines_span(lines: list[Line]) -> Location:
    return span(line_at(lines[0]), line_at(lines[-1]))


def _end(at: Location) -> int:
    return at.end_line if at.end_line is not None else at.line


def paragraphs(pieces: list[str]) -> str:
    """Pieces that are paragraphs of their own, one per line."""
    return "\n".join(pieces)


@dataclass
class Draft:
    """A record being assembled. `parent` is the parent's number (None at the top)."""

    number: str
    kind: str
    parent: str | None
    location: Location
    title: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    examples: list[list[str]] = field(default_factory=list)
    notes: list[list[str]] = field(default_factory=list)
    bullets: list[list[str]] = field(default_factory=list)
    highlighted: bool | None = None
    cites: list[str] = field(default_factory=list)  # numbers its links point to (a web page's)
    part: str = "text"  # which part continuations go to
    last: Location | None = None  # the last lines that fed the draft (None: only its first)

    def _target(self) -> list[str]:
        if self.part in ("title", "text"):
            return self.title if self.part == "title" else self.text
        opened: list[list[str]] = getattr(self, self.part)
        return opened[-1]

    @property
    def span(self) -> Location:
        """From the line the draft opened at to the last line that fed it."""
        return span(self.location, self.last)

    def feed(self, at: Location | None) -> None:
        """Lines at `at` hold some of the draft's text (None: where it opened)."""
        if at is not None and (self.last is None or _end(at) >= _end(self.last)):
            self.last = at

    def add(self, piece: str, at: Location | None = None) -> None:
        """A continuation of whatever is open, read from the lines at `at`."""
        self._target().append(piece)
        self.feed(at)

    def open(self, part: str, piece: str | None = None, at: Location | None = None) -> None:
        """Start a new example, note or bullet (or go back to the title or text)."""
        if part not in ("title", "text"):
            getattr(self, part).append([])
        self.part = part
        if piece is not None:
            self.add(piece, at)

    def label(self, pattern: re.Pattern[str], piece: str, at: Location | None = None) -> bool:
        """Open an example or a note when the piece starts with a label; say whether it did."""
        if (match := pattern.match(piece)) is None:
            return False
        self.open("examples" if match.group("example") is not None else "notes")
        self.add(match.group("text"), at)
        return True

    def mark(self, highlighted: bool) -> None:
        if highlighted:
            self.highlighted = True
