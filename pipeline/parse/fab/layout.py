"""FaB CR PDF layout: title page, page furniture, wrapped and hyphenated lines -> blocks.

Everything is learnt from the document's own lines rather than fixed to one
typesetting: the body font size is the most common size; headings are set
larger; each kind of numbered entry starts at its own indentation (the most
common x of lines that look like it); wrapped lines hang by a fixed amount
from the first line of their paragraph (the most common step right from a
paragraph's first line to an unnumbered line). So a line that begins with
something like a number but sits at the hanging indentation is a wrap.

Running heads and page numbers are the first and last line of a page when
they sit at a position shared by other pages and either are set smaller than
the body, repeat (digits aside) on several pages, or are only a number.

A word broken at a line end is rejoined without its hyphen unless the
document shows the hyphen is real: the hyphenated form occurs elsewhere
(`attack-proxy`), or, lacking any evidence, both halves are words the
document uses on their own.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections import Counter
from dataclasses import dataclass

from pipeline.errors import ParseError
from pipeline.models import Line
from pipeline.parse.fab.structure import GLOSSARY_ENTRY_RE, LABEL_RE, RULE_RE, SUBRULE_RE, Block

TITLE_RE = re.compile(r"comprehensive\s+rules", re.IGNORECASE)
VERSION_RE = re.compile(r"(?<![\d.])(\d+\.\d+\.\d+)(?![\d.])")
DATE_RE = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
BULLET_GLYPHS = ("•", "●", "▪", "◦")
TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*-?")
_TOLERANCE = 1.5
_HEADING_STEP = 0.5


@dataclass(frozen=True)
class PdfLayout:
    blocks: list[Block]
    title: str
    version: str
    published: str
    furniture: int  # running heads and page numbers dropped


def read_title_page(lines: list[Line], *, what: str) -> tuple[str, str, str]:
    """(title, version, ISO date) from the first page, or a ParseError saying what it found."""
    if not lines:
        raise ParseError(what, "the PDF has no text")
    first = lines[0].page
    page = [line for line in lines if line.page == first]
    title = next((line.text for line in page if TITLE_RE.search(line.text)), None)
    version = next((m.group(1) for line in page if (m := VERSION_RE.search(line.text))), None)
    date = next((m for line in page if (m := DATE_RE.search(line.text))), None)
    if title is None or version is None or date is None:
        missing = [
            name
            for name, value in (
                ("'Comprehensive Rules'", title),
                ("a version like 2.14.0", version),
                ("a date like 2026-6-10", date),
            )
            if value is None
        ]
        seen = " | ".join(line.text for line in page[:6])
        raise ParseError(
            what,
            f"unrecognised title page: page {first} lacks "
            f"{', '.join(missing)} (it reads: {seen!r})",
            page[0].line,
        )
    try:
        published = datetime.date(int(date.group(1)), int(date.group(2)), int(date.group(3)))
    except ValueError as exc:
        raise ParseError(what, f"title page date {date.group(0)!r} is not a date: {exc}") from exc
    return title, version, published.isoformat()


def _mode(values: list[float]) -> float | None:
    if not values:
        return None
    counts = Counter(values)
    return max(counts, key=lambda value: (counts[value], -value))


def _near(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= _TOLERANCE


def drop_page_furniture(lines: list[Line], body_size: float) -> tuple[list[Line], int]:
    """Lines without running heads and page numbers, and how many were dropped."""
    pages: dict[int | None, list[Line]] = {}
    for line in lines:
        pages.setdefault(line.page, []).append(line)
    ends = [page[0] for page in pages.values()] + [page[-1] for page in pages.values()]
    band_counts = Counter(round(line.top or 0.0) for line in ends)
    text_counts = Counter(re.sub(r"\d+", "#", line.text) for line in ends)
    dropped: set[int] = set()
    for page in pages.values():
        for line in {id(page[0]): page[0], id(page[-1]): page[-1]}.values():
            if band_counts[round(line.top or 0.0)] < 2:
                continue
            smaller = line.size is not None and line.size < body_size - _HEADING_STEP
            repeated = text_counts[re.sub(r"\d+", "#", line.text)] >= 2
            if smaller or repeated or line.text.strip().isdigit():
                dropped.add(line.line)
    return [line for line in lines if line.line not in dropped], len(dropped)


def _start_kind(text: str) -> str | None:
    if SUBRULE_RE.match(text):
        return "subrule"
    if RULE_RE.match(text):
        return "rule"
    if GLOSSARY_ENTRY_RE.match(text):
        return "glossary"
    return None


def _is_marked_start(text: str) -> bool:
    return text.startswith(BULLET_GLYPHS) or LABEL_RE.match(text) is not None


def learn_indents(lines: list[Line], body_size: float) -> dict[str, float]:
    """The x where each kind of numbered entry starts: the most common x of lines like it."""
    xs: dict[str, list[float]] = {}
    for line in lines:
        kind = _start_kind(line.text)
        if kind is not None and line.x0 is not None and not _is_heading(line, body_size):
            xs.setdefault(kind, []).append(round(line.x0, 1))
    return {kind: value for kind, values in xs.items() if (value := _mode(values)) is not None}


def learn_hang(lines: list[Line], body_size: float) -> float | None:
    """How far wrapped lines sit right of their paragraph's first line."""
    steps: list[float] = []
    for prev, line in itertools.pairwise(lines):
        if prev.page != line.page or prev.x0 is None or line.x0 is None:
            continue
        if _is_heading(prev, body_size) or _is_heading(line, body_size):
            continue
        if _start_kind(line.text) or _is_marked_start(line.text):
            continue
        step = round(line.x0 - prev.x0, 1)
        if step > _TOLERANCE:
            steps.append(step)
    return _mode(steps)


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


def join_wrapped(left: str, right: str, vocabulary: Vocabulary) -> str:
    """Rejoin a line and its wrap, deciding what a hyphen at the break was."""
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


def _is_heading(line: Line, body_size: float) -> bool:
    return line.size is not None and line.size > body_size + _HEADING_STEP


def _starts_block(
    line: Line, first: Line, indents: dict[str, float], hang: float | None, body_size: float
) -> bool:
    if _is_heading(line, body_size) or _is_heading(first, body_size):
        return True
    if _is_marked_start(line.text):
        return True
    kind = _start_kind(line.text)
    if kind is not None and _near(line.x0, indents.get(kind)):
        return True
    # at the hanging indentation: a wrap, whatever it begins with
    return not (hang is not None and first.x0 is not None and _near(line.x0, first.x0 + hang))


def _block(first: Line, text: str, body_size: float) -> Block:
    bullet = text.startswith(BULLET_GLYPHS)
    if bullet:
        text = text[1:].lstrip()
    return Block(
        text=text,
        line=first.line,
        page=first.page,
        heading=_is_heading(first, body_size),
        bold=first.bold,
        bullet=bullet,
    )


def join_blocks(lines: list[Line], body_size: float) -> list[Block]:
    """Paragraphs from body lines: wraps joined to the line they continue."""
    indents = learn_indents(lines, body_size)
    hang = learn_hang(lines, body_size)
    vocabulary = build_vocabulary(lines)
    blocks: list[Block] = []
    first: Line | None = None
    text = ""
    for line in lines:
        if first is not None and not _starts_block(line, first, indents, hang, body_size):
            text = join_wrapped(text, line.text, vocabulary)
            continue
        if first is not None:
            blocks.append(_block(first, text, body_size))
        first, text = line, line.text
    if first is not None:
        blocks.append(_block(first, text, body_size))
    return blocks


def read_pdf_blocks(lines: list[Line], *, what: str) -> PdfLayout:
    """Title-page facts and the body's blocks of a FaB CR PDF's extracted lines."""
    if any(line.x0 is None or line.size is None for line in lines):
        raise ParseError(what, "the lines carry no positions; pass extract_pdf_lines(...).lines")
    title, version, published = read_title_page(lines, what=what)
    first_page = lines[0].page
    body = [line for line in lines if line.page != first_page and line.text.strip()]
    body_size = _mode([round(line.size or 0.0, 1) for line in body])
    if body_size is None:
        raise ParseError(what, "the PDF has a title page but no body text")
    body, furniture = drop_page_furniture(body, body_size)
    return PdfLayout(join_blocks(body, body_size), title, version, published, furniture)
