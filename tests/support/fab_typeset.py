"""A FaB-style PDF typeset (tests/support/pdfgen.py) from slices of the real 2.14.0
text export, with the same slices as the text export prints them: the fab-cr PDF
parse is checked against the text parse of the same content."""

from __future__ import annotations

import functools
import re

from tests.support.helpers import SHARED
from tests.support.pdfgen import SOFT_HYPHEN, Item, Typeset, build_pdf

CR_2_14 = SHARED / "fab" / "comprehensive-rules" / "2.14.0" / "en-fab-cr.txt"

# Slices of the 2.14.0 export (1-based, inclusive): preface and chapter 1 to 1.5, part of the
# inline glossary, chapter 2 to its bulleted rule 2.1.2, part of the acknowledgments, and
# chapter 8's start and label keywords (titled rules, the stray '%' paragraphs).
SLICES = [
    (1, 122),
    (357, 380),
    (978, 999),
    (1110, 1113),
    (1121, 1123),
    (1153, 1153),
    (1744, 1749),
    (1988, 2010),
]
BULLET_LINES = range(996, 999)
GLOSSARY_LINES = range(358, 381)
ACKNOWLEDGMENT_LINES = range(1110, 1154)


def soft_hyphens(text: str) -> str:
    """Let the typesetter break long plain words (not compounds) after their fifth letter."""
    return " ".join(
        w[:5] + SOFT_HYPHEN + w[5:] if w.isalpha() and len(w) >= 10 else w for w in text.split(" ")
    )


@functools.cache
def content() -> tuple[tuple[Item, ...], tuple[str, ...]]:
    """The same content twice: items for the PDF and lines as the text export prints them.

    Runs of spaces are made single, since a PDF carries no double space.
    """
    source = CR_2_14.read_text(encoding="utf-8").split("\n")
    items: list[Item] = []
    lines: list[str] = []
    for first, last in SLICES:
        for number in range(first, last + 1):
            line = re.sub(r" {2,}", " ", source[number - 1].strip())
            lines.append(line)
            numbered = re.match(r"^(\d+(?:\.\d+)*[a-z]?) (.*)$", line)
            term = re.match(r"^\d+\.-1\.\d+ (.*)$", line)
            if term:
                items.append(("term", term.group(1)))
            elif (numbered and numbered.group(2) in ("Preface", "Glossary", "Acknowledgments")) or (
                numbered and number in ACKNOWLEDGMENT_LINES
            ):
                items.append(("heading", numbered.group(2)))
            elif number in GLOSSARY_LINES:
                items.append(("def", line))
            elif (numbered and "." not in numbered.group(1)) or (
                numbered and re.fullmatch(r"\d+\.\d+", numbered.group(1))
            ):
                items.append((numbered.group(1), numbered.group(2)))
            elif numbered:
                items.append((numbered.group(1), soft_hyphens(numbered.group(2))))
            elif number in BULLET_LINES:
                items.append(("•", soft_hyphens(line)))
            else:
                items.append(("", soft_hyphens(line)))
    # Force a wrapped line to begin with a number ("4 categories ..." looks like chapter 4).
    items = [(k, t.replace("There are 4 ", "There are\n4 ")) for k, t in items]
    return tuple(items), tuple(lines)


@functools.cache
def typeset() -> Typeset:
    return build_pdf(list(content()[0]))
