"""A FaB-style Comprehensive Rules PDF, typeset with reportlab, for tests of the PDF path.

It reproduces the features the parser must cope with: a title page, headings
set larger, rules and subrules indented by level with hanging wrapped lines,
examples and notes in italics under their rule, bullets, running heads
(`CHAPTER 1. GAME CONCEPTS`) and page numbers, and words broken at line ends,
both at a soft hyphen (U+00AD: the hyphen is the typesetter's) and at the
hyphen of a compound (`attack-proxy`: the hyphen is the word's). A `\\n` in a
text forces a line break there, so a test can put a number at the start of a
wrapped line. `invariant=1` makes the bytes reproducible.

Content is a list of (marker, text) items:
    "1" / "1.0" / "1.0.1" / "1.0.1a"   chapter / section / rule / subrule (number, then text)
    ""          a paragraph under the current entry ("Example: ..." and "Note: ..." in italics)
    "•"         a bullet under the current entry
    "heading"   an unnumbered heading (front or back matter, or "Glossary")
    "term" / "def"   a glossary term (bold) and its definition
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import registerFont, stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

Item = tuple[str, str]

SOFT_HYPHEN = "\u00ad"
LEFT = 72.0
RIGHT = 540.0
TOP = 72.0
BOTTOM = 720.0
HANG = 16.0
CHILD = 32.0
SUBRULE = 96.0
BODY = 10.0
LEADING = 12.0
GAP = 3.0
HEAD_TOP = 40.0
FOOT_TOP = 752.0

# Bitstream Vera ships with reportlab; as an embedded TrueType font it carries a Unicode
# map, so the bullet and the typographic quotes extract as themselves.
for _name, _file in (
    ("Vera", "Vera.ttf"),
    ("Vera-Bold", "VeraBd.ttf"),
    ("Vera-Italic", "VeraIt.ttf"),
):
    registerFont(TTFont(_name, _file))

_STYLES = {
    "chapter": ("Vera-Bold", 16.0),
    "section": ("Vera-Bold", 12.5),
    "heading": ("Vera-Bold", 16.0),
    "term": ("Vera-Bold", BODY),
    "body": ("Vera", BODY),
    "italic": ("Vera-Italic", BODY),
}


@dataclass
class Typeset:
    pdf: bytes
    pages: int
    breaks: list[tuple[str, str, str]] = field(default_factory=list)  # (word|compound, left, right)


def _kind(marker: str) -> str:
    if re.fullmatch(r"\d+", marker):
        return "chapter"
    if re.fullmatch(r"\d+\.\d+", marker):
        return "section"
    if re.fullmatch(r"\d+\.\d+\.\d+", marker):
        return "rule"
    if re.fullmatch(r"\d+\.\d+\.\d+[a-z]", marker):
        return "subrule"
    return {"": "para", "•": "bullet", "heading": "heading", "term": "term", "def": "def"}[marker]


class _Typesetter:
    def __init__(self, title_lines: list[tuple[str, float]]) -> None:
        self.buffer = io.BytesIO()
        self.canvas = canvas.Canvas(self.buffer, pagesize=letter, invariant=1)
        self.height = letter[1]
        self.breaks: list[tuple[str, str, str]] = []
        self.page = 1
        self.chapter_head = ""
        self.page_head = ""
        self.y = TOP
        self.title_page(title_lines)

    def title_page(self, title_lines: list[tuple[str, float]]) -> None:
        top = 250.0
        for text, size in title_lines:
            width = stringWidth(text, "Vera-Bold", size)
            self.canvas.setFont("Vera-Bold", size)
            self.canvas.drawString((letter[0] - width) / 2, self.height - top, text)
            top += size * 1.8
        self.canvas.showPage()
        self.page += 1
        self.y = TOP

    def finish_page(self) -> None:
        head = self.page_head or self.chapter_head
        if head:
            self.canvas.setFont("Vera", 8)
            self.canvas.drawString(LEFT, self.height - HEAD_TOP, head)
        number = str(self.page)
        self.canvas.setFont("Vera", 8)
        self.canvas.drawString(
            (letter[0] - stringWidth(number, "Vera", 8)) / 2, self.height - FOOT_TOP, number
        )
        self.canvas.showPage()
        self.page += 1
        self.y = TOP
        self.page_head = ""

    def draw(self, x: float, text: str, style: str, leading: float) -> None:
        if self.y + leading > BOTTOM:
            self.finish_page()
        if not self.page_head:
            self.page_head = self.chapter_head
        font, size = _STYLES[style]
        self.canvas.setFont(font, size)
        self.y += leading
        self.canvas.drawString(x, self.height - self.y, text.replace(SOFT_HYPHEN, ""))

    def wrap(self, text: str, x: float, font: str, size: float) -> list[tuple[float, str]]:
        """Greedy lines: first at x, the rest at x + HANG, breaking words where allowed."""
        out: list[tuple[float, str]] = []
        for chunk in text.split("\n"):
            line = ""
            for word in chunk.split(" "):
                indent = x if not out else x + HANG
                width = RIGHT - indent
                candidate = f"{line} {word}" if line else word
                if stringWidth(candidate.replace(SOFT_HYPHEN, ""), font, size) <= width:
                    line = candidate
                    continue
                head, rest, kind = self.split_word(word, line, width, font, size)
                if head:
                    out.append((indent, f"{line} {head}" if line else head))
                    self.breaks.append((kind, head, rest.replace(SOFT_HYPHEN, "")))
                    line = rest
                else:
                    if line:
                        out.append((indent, line))
                    line = word
            out.append((x if not out else x + HANG, line))
        return [(indent, text.replace(SOFT_HYPHEN, "")) for indent, text in out]

    @staticmethod
    def split_word(
        word: str, line: str, width: float, font: str, size: float
    ) -> tuple[str, str, str]:
        """The longest head of `word` (ending in a hyphen) that still fits after `line`."""
        best: tuple[str, str, str] = ("", word, "")
        for index, char in enumerate(word):
            if char == SOFT_HYPHEN:
                head, rest, kind = (
                    word[:index].replace(SOFT_HYPHEN, "") + "-",
                    word[index + 1 :],
                    "word",
                )
            elif char == "-" and 0 < index < len(word) - 1 and word[index + 1].isalpha():
                head, rest, kind = (
                    word[: index + 1].replace(SOFT_HYPHEN, ""),
                    word[index + 1 :],
                    "compound",
                )
            else:
                continue
            candidate = f"{line} {head}" if line else head
            if stringWidth(candidate.replace(SOFT_HYPHEN, ""), font, size) <= width:
                best = (head, rest, kind)
        return best

    def paragraph(self, x: float, text: str, style: str) -> None:
        font, size = _STYLES[style]
        for indent, line in self.wrap(text, x, font, size):
            self.draw(indent, line, style, LEADING)

    def add(self, marker: str, text: str, indent: float) -> float:
        kind = _kind(marker)
        if kind in ("chapter", "section", "heading"):
            size = _STYLES[kind if kind != "heading" else "heading"][1]
            if kind == "chapter":
                self.chapter_head = f"CHAPTER {marker}. {text.upper()}"
            elif kind == "heading":
                self.chapter_head = text.upper()
            self.y += 2 * GAP
            label = f"{marker} {text}" if kind != "heading" else text
            self.draw(LEFT, label, kind, size * 1.3)
            self.y += GAP
            return LEFT
        self.y += GAP
        if kind in ("rule", "subrule"):
            x = LEFT if kind == "rule" else SUBRULE
            self.paragraph(x, f"{marker} {text}", "body")
            return x
        if kind == "term":
            self.paragraph(LEFT, text, "term")
            return indent
        if kind == "def":
            self.paragraph(LEFT, text, "body")
            return indent
        if kind == "bullet":
            self.paragraph(indent + CHILD, f"• {text}", "body")
            return indent
        if text.startswith(("Example:", "Note:")):
            self.paragraph(indent + CHILD, text, "italic")
            return indent
        self.paragraph(indent, text, "body")
        return indent

    def close(self) -> Typeset:
        self.finish_page()
        self.canvas.save()
        return Typeset(self.buffer.getvalue(), self.page - 1, self.breaks)


def build_pdf(items: list[Item], *, title_lines: list[tuple[str, float]] | None = None) -> Typeset:
    """Typeset the items after a title page; the same items always give the same bytes."""
    titles = (
        title_lines
        if title_lines is not None
        else [
            ("Flesh and Blood", 22.0),
            ("Comprehensive Rules", 28.0),
            ("Version 2.14.0", 14.0),
            ("2026-6-10", 12.0),
        ]
    )
    setter = _Typesetter(titles)
    indent = LEFT
    for marker, text in items:
        indent = setter.add(marker, text, indent)
    return setter.close()
