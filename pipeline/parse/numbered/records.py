"""Records being assembled: a draft per number, with its text, examples, notes and bullets.

Readers feed pieces (a line or a paragraph) to the draft they belong to; a
label (`Example:`, `Note:`, `Example 2:`) opens an example or a note, and what
follows continues it until something else opens. The finishing step joins
each part's pieces (`Join`) and turns drafts into records.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.models import Location, NumberedScheme

Join = Callable[[list[str]], str]


def label_pattern(scheme: NumberedScheme) -> re.Pattern[str]:
    """`Example:`, `Example 2:`, `Note:` at the start of a piece: the label and its text."""
    words = "|".join(re.escape(w) for w in [*scheme.example, *scheme.note])
    return re.compile(rf"^(?P<label>{words})(?: \d+)?:\s*(?P<text>.*)$")


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
    part: str = "text"  # which part continuations go to

    def _target(self) -> list[str]:
        if self.part in ("title", "text"):
            return self.title if self.part == "title" else self.text
        opened: list[list[str]] = getattr(self, self.part)
        return opened[-1]

    def add(self, piece: str) -> None:
        """A continuation of whatever is open."""
        self._target().append(piece)

    def open(self, part: str, piece: str | None = None) -> None:
        """Start a new example, note or bullet (or go back to the title or text)."""
        if part not in ("title", "text"):
            getattr(self, part).append([])
        self.part = part
        if piece is not None:
            self.add(piece)

    def label(self, pattern: re.Pattern[str], scheme: NumberedScheme, piece: str) -> bool:
        """Open an example or a note when the piece starts with a label; say whether it did."""
        if (match := pattern.match(piece)) is None:
            return False
        self.open("examples" if match.group("label") in scheme.example else "notes")
        self.add(match.group("text"))
        return True

    def mark(self, highlighted: bool) -> None:
        if highlighted:
            self.highlighted = True
