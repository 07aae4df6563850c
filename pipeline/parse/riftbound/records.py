"""Riftbound numbers, references and the record draft shared by the clean and layout readers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.models import Line, Location, Rule

NUMBER_RE = re.compile(r"^(?P<n>\d{3}(?:\.(?:\d+|[a-z]))*)(?P<dot>\.)?(?:\s+(?P<text>.*))?$")
EXAMPLE_SPLIT_RE = re.compile(r"\s*\bExample:\s*")
# A leading list glyph some extractions keep ("053.1. * Units and legends ...").
GLYPH_RE = re.compile(r"^[*•●]\s+")
_REF_NUMBER = r"\d{3}(?:\.(?:\d+|[a-z])(?![0-9A-Za-z]))*"
REFERENCE_RE = re.compile(
    rf"\b(?:[Rr]ules?|See)\s+(?P<list>{_REF_NUMBER}(?:(?:\s*,\s*|\s+and\s+|\s+or\s+){_REF_NUMBER})*)"
)
_REF_ITEM_RE = re.compile(_REF_NUMBER)
KINDS = ("rule", "subrule", "clause", "subclause", "item")
_SENTENCE_END = (".", "!", "?", ":", ";", ",")


def match_number(text: str) -> tuple[str, str] | None:
    """('383.4.a.1', rest) when a line starts with a rule number, else None.

    Levels alternate digits and letters (`383.4.c.2.a`). The trailing dot is
    required for top-level numbers (`102 cards` is text) but tolerated after
    deeper ones: 2025-12-01 prints `419.2 Doubling is a Limited Action.`
    """
    match = NUMBER_RE.match(text)
    if match is None:
        return None
    parts = match["n"].split(".")
    if len(parts) > 5:
        return None
    for index, part in enumerate(parts[1:], start=1):
        if part.isdigit() != (index % 2 == 1):
            return None
    if match["dot"] is None and (len(parts) == 1 or not match["text"]):
        return None
    return match["n"], match["text"] or ""


def nearest_parent(ident: str, seen: set[str]) -> str | None:
    """The closest ancestor present.

    The publisher sometimes skips a level (`450.3.d.1.` with no `450.3.d.`).
    """
    parent = parent_of(ident)
    while parent is not None and parent not in seen:
        parent = parent_of(parent)
    return parent


def parent_of(ident: str) -> str | None:
    parts = ident[3:].split(".")
    return "cr:" + ".".join(parts[:-1]) if len(parts) > 1 else None


def depth_of(ident: str) -> int:
    return ident.count(".") + 1


def find_references(text: str) -> list[str]:
    """Ids cited as `See rule 355.6.`, `rule 353.2,`, `See 108.6.`, in order, unique."""
    found: list[str] = []
    for match in REFERENCE_RE.finditer(text):
        for item in _REF_ITEM_RE.findall(match.group("list")):
            ident = "cr:" + item
            if ident not in found:
                found.append(ident)
    return found


def join_parts(parts: list[str]) -> str:
    return " ".join(p.strip() for p in parts if p.strip())


def split_examples(text: str) -> tuple[str, list[str]]:
    """'Rule text. Example: one. Example: two.' -> ('Rule text.', ['one.', 'two.'])."""
    pieces = EXAMPLE_SPLIT_RE.split(text)
    return pieces[0].strip(), [p.strip() for p in pieces[1:] if p.strip()]


@dataclass
class Draft:
    """A record being assembled: main text and example lines kept apart."""

    ident: str
    line: Line
    parent: str | None = None
    text: list[str] = field(default_factory=list)
    examples: list[list[str]] = field(default_factory=list)
    in_example: bool = False

    def add(self, text: str) -> None:
        stripped = text.strip()
        if stripped.startswith("Example:"):
            self.examples.append([stripped])
            self.in_example = True
        elif stripped.startswith("See ") and find_references(stripped):
            # "See rule 318. Cleanups for more information." belongs to the rule,
            # even after an example.
            self.text.append(stripped)
            self.in_example = False
        elif self.in_example:
            self.examples[-1].append(stripped)
        else:
            self.text.append(stripped)

    def to_rule(self) -> Rule:
        main, examples = split_examples(GLYPH_RE.sub("", join_parts(self.text)))
        for block in self.examples:
            examples += split_examples(join_parts(block))[1]
        depth = depth_of(self.ident)
        title = None
        if depth == 1 and main and not main.endswith(_SENTENCE_END) and len(main.split()) <= 6:
            title, main = main, ""
        refs = [r for r in find_references(" ".join([main, *examples])) if r != self.ident]
        return Rule(
            id=self.ident,
            number=self.ident[3:],
            kind=KINDS[depth - 1],
            parent=self.parent,
            depth=depth,
            title=title,
            text=main,
            examples=examples,
            references=refs,
            location=Location(line=self.line.line, page=self.line.page),
            highlighted=True if self.line.highlight else None,
        )
