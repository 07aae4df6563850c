"""PDF lines -> paragraphs: body font, page furniture, wrapped lines and hyphens.

All learnt from the document's own lines: the body font is the most common size
and headings are larger; each kind of numbered entry starts at its own
indentation (the most common x of lines like it); wraps hang by a fixed step
from their paragraph's first line, so a line that begins like a number but sits
at the hanging indent is a wrap. A line-end hyphen is `glued` (a dash or slash
glued to the word before it was a break inside a word or range: `non-`,
`601.2a–`), `vocabulary` (dropped unless the document shows it is real: the
hyphenated form occurs elsewhere, `attack-proxy`, or both halves are words it
uses) or `space`.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, TypeVar

from pipeline.models.content import Line
from pipeline.models.records import Location
from pipeline.parse.numbered.numbers import CJK
from pipeline.parse.numbered.structure import digitless, pdf_pages, repeated_on_pages

Hyphens = Literal["glued", "vocabulary", "space"]
TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*-?")
CJK_CHAR = re.compile(f"[{CJK}]")
PAGE_NUMBER_RE = re.compile(r"^(?:-\s*)?\d{1,4}(?:\s*-)?$")
TOLERANCE = 1.5
HEADING_STEP = 0.5


@dataclass
class Block:
    """One paragraph: a text line, or PDF lines with their wraps rejoined."""

    text: str
    line: int
    page: int | None = None
    heading: bool | None = None  # PDF: set larger than the body; None when unknown
    bold: bool = False
    bullet: bool = False  # began with a bullet glyph (the glyph is removed)
    after_gap: bool = False  # first paragraph after a blank line or a vertical gap
    indented: bool = False  # indented past its neighbours' wrapped lines
    highlight: bool = False
    end_line: int | None = None  # the last line of a paragraph joined from several
    end_page: int | None = None

    @property
    def location(self) -> Location:
        """The lines the block was read from: its first, and its last when it wraps."""
        if self.end_line is None or self.end_line == self.line:
            return Location(line=self.line, page=self.page)
        return Location(
            line=self.line, page=self.page, end_line=self.end_line, end_page=self.end_page
        )


def text_blocks(lines: list[Line]) -> list[Block]:
    """Text lines as blocks, one per non-blank line (form feeds dropped), each marked when a
    blank line precedes it or it is indented (MTG's TXT: a rule's second paragraph)."""
    blocks: list[Block] = []
    blank = True
    for line in lines:
        if not (text := line.text.strip()):
            blank = True
            continue
        indented = line.text[:1].isspace()
        blocks.append(Block(text, line.line, line.page, after_gap=blank, indented=indented))
        blocks[-1].highlight = line.highlight
        blank = False
    return blocks


def mode(values: list[float]) -> float | None:
    """The most common value; the smaller one on a tie."""
    if not values:
        return None
    counts = Counter(values)
    return max(counts, key=lambda value: (counts[value], -value))


def body_size(lines: list[Line]) -> float | None:
    return mode([round(line.size or 0.0, 1) for line in lines if line.text.strip()])


def near(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= TOLERANCE


def is_heading(line: Line, body: float) -> bool:
    return line.size is not None and line.size > body + HEADING_STEP


def _pages(lines: list[Line]) -> list[list[Line]]:
    pages: dict[int | None, list[Line]] = {}
    for line in lines:
        pages.setdefault(line.page, []).append(line)
    return list(pages.values())


def drop_page_numbers(lines: list[Line]) -> list[Line]:
    """A line that is only a number (`12`, `- 12 -`) at the top or foot of its page is furniture."""
    ends = {ln.line for page in _pages(lines) for ln in (page[0], page[-1])}
    return [ln for ln in lines if not (ln.line in ends and PAGE_NUMBER_RE.match(ln.text.strip()))]


def drop_furniture(
    lines: list[Line], body: float, keep: Callable[[str], bool] = lambda text: False
) -> list[Line]:
    """Lines without running heads and page numbers.

    The first and last line of a page are furniture when they sit at a position
    shared by other pages and are set smaller than the body, repeat (digits
    aside, unless `keep` claims it: then as it is) on several pages, or are only a
    number. Near a page's top or foot, a line whose text (digits aside) stands at the
    same height on many pages is furniture too (structure.repeated_on_pages), unless
    `keep` claims it.
    """
    pages = _pages(lines)
    ends = [page[0] for page in pages] + [page[-1] for page in pages]
    bands = Counter(round(line.top or 0.0) for line in ends)
    texts = Counter(digitless(line.text) for line in ends)
    exact = Counter(line.text for line in ends)
    dropped: set[int] = set()
    for page in pages:
        for line in {id(page[0]): page[0], id(page[-1]): page[-1]}.values():
            if bands[round(line.top or 0.0)] < 2:
                continue
            smaller = line.size is not None and line.size < body - HEADING_STEP
            # a running head that is a numbered heading repeats as it is; two rules that
            # open pages with the same words under other numbers are two rules
            numbered = keep(line.text)
            repeated = (exact[line.text] if numbered else texts[digitless(line.text)]) >= 2
            if smaller or repeated or line.text.strip().isdigit():
                dropped.add(line.line)
    dropped |= repeated_on_pages(pdf_pages(lines), keep)
    return [line for line in lines if line.line not in dropped]


@dataclass(frozen=True)
class Vocabulary:
    """Words as the document prints them away from line ends."""

    words: frozenset[str]  # every token, and every part of a hyphenated token
    compounds: frozenset[str]  # hyphenated tokens (`attack-proxy`) and suspended ones (`hero-`)

    def knows(self, word: str) -> bool:
        """The word, or a plural or verb form of it (`hit` from `hits`), occurs."""
        return any(word + ending in self.words for ending in ("", "s", "es", "ed", "ing"))


def build_vocabulary(lines: list[Line]) -> Vocabulary:
    words: set[str] = set()
    compounds: set[str] = set()
    broken = False
    for line in lines:
        tokens = TOKEN_RE.findall(line.text)
        if broken and tokens:
            tokens = tokens[1:]
        broken = line.text.endswith("-")
        if broken and tokens:
            tokens = tokens[:-1]
        for token in (t.lower() for t in tokens):
            words.add(token)
            if "-" in token:
                compounds.add(token)
                words.update(part for part in token.split("-") if part)
    return Vocabulary(frozenset(words), frozenset(compounds))


def joins_unspaced(left: str, right: str) -> bool:
    """Chinese and Japanese are written without spaces between words: a line that ends and
    a wrap that begins in that script (or with full-width punctuation) join with none. A
    number broken at one of its hyphens (`see 9-1-` + `7)`) joins with none too."""
    if not (left and right):
        return False
    if left[-1] == "-" and left[-2:-1].isdigit() and right[0].isdigit():
        return True
    return bool(CJK_CHAR.match(left[-1]) and CJK_CHAR.match(right[0]))


def join_glued(left: str, right: str) -> str:
    """A dash glued to the word before it (`non-`, `601.2a–`, `Gathering—`) or a slash was a
    break inside a word or range; a spaced dash (`Artifact —`) was a break at a space."""
    glued = len(left) > 1 and not left[-2].isspace()
    if left.endswith("/") or (left.endswith(("-", "\u2013", "\u2014")) and glued):
        return left + right
    return left + ("" if joins_unspaced(left, right) else " ") + right


def join_vocabulary(left: str, right: str, vocabulary: Vocabulary) -> str:
    """Rejoin a line and its wrap, deciding from the document's words what a hyphen was."""
    if joins_unspaced(left, right):
        return left + right
    if not (len(left) >= 2 and left.endswith("-") and left[-2].isalpha() and right[:1].isalpha()):
        return f"{left} {right}"
    head = TOKEN_RE.findall(left)[-1][:-1].lower()
    tail = TOKEN_RE.findall(right)[0].lower()
    if f"{head}-{tail}".rstrip("-") in vocabulary.compounds:
        return left + right
    if f"{head}{tail}".rstrip("-") in vocabulary.words:
        return left[:-1] + right
    if tail.endswith("-") or f"{head}-" in vocabulary.compounds:
        # a suspended hyphen ("hero-, token-, deck-") that happened to fall at the line end
        return f"{left} {right}"
    if vocabulary.knows(head.split("-")[-1]) and vocabulary.knows(tail.split("-")[0]):
        return left + right
    return left[:-1] + right


def join_spaced(left: str, right: str) -> str:
    return left + ("" if joins_unspaced(left, right) else " ") + right


def wrap_joiner(hyphens: Hyphens) -> Callable[[list[str]], str]:
    """Pieces of one paragraph (its wrapped lines) -> the paragraph, by the hyphen rule."""

    def join(pieces: list[str]) -> str:
        kept = [p.strip() for p in pieces if p.strip()]
        glue = join_glued if hyphens == "glued" else join_spaced
        return functools.reduce(glue, kept) if kept else ""

    return join


StartKind = Callable[[str], str | None]
T = TypeVar("T")


def runs(items: Iterable[T], opens: Callable[[T, list[T]], bool]) -> list[list[T]]:
    """The items in runs: an item opens a new run when `opens(item, the open run)` says so,
    and continues the open run otherwise (the first item always opens one)."""
    out: list[list[T]] = []
    for item in items:
        if out and not opens(item, out[-1]):
            out[-1].append(item)
        else:
            out.append([item])
    return out


def learn_indents(lines: list[Line], body: float, kind_of: StartKind) -> dict[str, float]:
    """The x where each kind of numbered entry starts: the most common x of lines like it."""
    xs: dict[str, list[float]] = {}
    for line in lines:
        kind = kind_of(line.text)
        if kind is not None and line.x0 is not None and not is_heading(line, body):
            xs.setdefault(kind, []).append(round(line.x0, 1))
    return {kind: value for kind, values in xs.items() if (value := mode(values)) is not None}


def learn_hang(lines: list[Line], body: float, starts: Callable[[str], bool]) -> float | None:
    """How far wrapped lines sit right of their paragraph's first line."""
    steps: list[float] = []
    for prev, line in itertools.pairwise(lines):
        if prev.page != line.page or prev.x0 is None or line.x0 is None:
            continue
        if is_heading(prev, body) or is_heading(line, body) or starts(line.text):
            continue
        step = round(line.x0 - prev.x0, 1)
        if step > TOLERANCE:
            steps.append(step)
    return mode(steps)


def join_indented(
    lines: list[Line], body: float, kind_of: StartKind, marked: Callable[[str], bool],
    bullets: tuple[str, ...],
) -> list[Block]:  # fmt: skip
    """Paragraphs from body lines, each wrap joined to the line it continues.

    A line starts a paragraph when it is a heading, follows one, is marked (a
    label or a bullet), or is a numbered entry at its kind's indentation;
    otherwise it continues the paragraph unless it sits off the hanging indent.
    """
    indents = learn_indents(lines, body, kind_of)
    hang = learn_hang(lines, body, lambda text: kind_of(text) is not None or marked(text))
    vocabulary = build_vocabulary(lines)

    def starts(line: Line, first: Line) -> bool:
        if is_heading(line, body) or is_heading(first, body) or marked(line.text):
            return True
        kind = kind_of(line.text)
        if kind is not None and near(line.x0, indents.get(kind)):
            return True
        # at the hanging indentation: a wrap, whatever it begins with
        return not (hang is not None and first.x0 is not None and near(line.x0, first.x0 + hang))

    blocks = []
    for first, *wraps in runs(lines, lambda line, paragraph: starts(line, paragraph[0])):
        text = functools.reduce(
            lambda a, b: join_vocabulary(a, b.text, vocabulary), wraps, first.text
        )
        bullet = text.startswith(bullets)
        text = text[1:].lstrip() if bullet else text
        last = wraps[-1] if wraps else first
        block = Block(text, first.line, first.page, is_heading(first, body), first.bold, bullet)
        block.end_line, block.end_page = last.line, last.page
        blocks.append(block)
    return blocks
