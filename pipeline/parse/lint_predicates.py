"""What the extraction-artefact lint looks for that a regular expression cannot say: brackets
and quotation marks that do not pair up, a heading doubled into its text. Each predicate
takes one text of one record (a LintField) and gives the offending spans."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.models.records import Location

Span = tuple[int, int]


@dataclass(frozen=True)
class LintField:
    """One text of one record: `cr:1.0.2` `examples[0]`, with the record's heading if any."""

    record: str
    name: str
    text: str
    location: Location | None
    title: str | None = None


_PAIRS = {"(": ")", "[": "]", "{": "}", "\u201c": "\u201d"}
_CLOSERS = {v: k for k, v in _PAIRS.items()}
_MARKS = re.compile("[()\\[\\]{}\u201c\u201d]")


def _unbalanced(text: str, openers: str) -> Span | None:
    """The span of the first bracket that closes nothing or is never closed; None when the
    text is balanced."""
    stack: list[int] = []
    for mark in _MARKS.finditer(text):
        index, char = mark.start(), mark.group()
        if char in openers and char in _PAIRS:
            stack.append(index)
        elif char in _CLOSERS and _CLOSERS[char] in openers:
            if not stack or text[stack[-1]] != _CLOSERS[char]:
                return index, index + 1
            stack.pop()
    return (stack[0], stack[0] + 1) if stack else None


# A list item numbered `1)`, `a)` or `ii)` opens no bracket, at the start of a line or inside
# a sentence (`the following criteria: 1) It defines ... 2) It ...`) where no `(` is open.
_LIST_MARKER = re.compile(r"(?m)(?:^|(?<=\s))(?:\d{1,2}|[a-z]|[ivx]{2,4})(\))(?=[ \t])")


def find_unbalanced_brackets(field: LintField) -> list[Span]:
    text = field.text
    for marker in _LIST_MARKER.finditer(text):
        if text.count("(", 0, marker.start(1)) > text.count(")", 0, marker.start(1)):
            continue  # `(see rule 1) ...`: this `)` closes the open `(`
        # blank the marker's `)` in place, so offsets (and the excerpt) stay the original's
        text = text[: marker.start(1)] + " " + text[marker.end(1) :]
    found = _unbalanced(text, "([{")
    return [found] if found else []


def find_unbalanced_quotes(field: LintField) -> list[Span]:
    """Curly double quotes must pair up in order, straight ones be even in number; one
    finding per text (a `"…”` pair fails both tests but is one defect). All paragraphs of
    the text are read together, since a quotation may run over several, and the convention
    of reopening each quoted paragraph is allowed (an opener with no closer directly before
    a paragraph break that starts with another opener)."""
    text = re.sub("\u201c(?=[^\u201c\u201d]*\n\u201c)", " ", field.text)
    if (span := _unbalanced(text, "\u201c")) is not None:
        return [span]
    straight = [m.start() for m in re.finditer('"', field.text)]
    return [(straight[-1], straight[-1] + 1)] if len(straight) % 2 else []


def find_doubled_heading(field: LintField) -> list[Span]:
    """`Dominate Dominate is …`: the keyword heading printed again at the start of its text
    (the record's title twice, or its first one to four words twice over)."""
    text = field.text
    if field.title and text.startswith(f"{field.title} {field.title}"):
        return [(0, 2 * len(field.title) + 1)]
    match = _DOUBLED_START.match(text)
    return [(0, match.end())] if match else []


_DOUBLED_START = re.compile(r"^([A-Z][\w'-]*(?: [\w'-]+){0,3}) \1\b")
