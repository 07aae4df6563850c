"""How Fantasy Flight Games typesets the Star Wars: Unlimited Comprehensive Rules (InDesign PDF).

This is the part of SWU the numbered engine cannot read from a scheme, because it
is typesetting rather than numbering:

- every label prints only its own segment (`1.`, `a.`), and which level a label is
  shows only in where it sits: each level has its own indentation (rules ~81 pt,
  subrules ~110 pt in 7.0), learnt here as the most common x of lines that look like
  it, once left-hand pages are brought into the right-hand frame (`swu.pages`);
  so `i.` after `h.` is a subrule letter at the subrule indentation, never a roman
  numeral, and a wrap that begins `8.1. Aspect Penalties` is a wrap;
- a section's number (`1.`, 11 pt) is set on its own line just below and left of
  its title (`GENERAL`), so the two arrive in the wrong order and are paired
  (`swu.pages`);
- examples are paragraphs set at an indentation of their own under their entry
  (`For example, ...`), not labelled `Example:`; a paragraph gap separates two;
- icons (aspects, resources) are composite glyphs from a private-use font: the
  inline layer stays in the text as printed, the second layer lands on a baseline
  of its own as a line of nothing but private-use glyphs, and is dropped (counted);
- a footer on every page (`1. GAME CONCEPTS CONTENTS GLOSSARY 4`), the table of
  contents (pages 2-3, 7 pt) and the copyright lines at the page margin.

The result is a list of paragraphs, each marked with its role and (for entries)
its outline level, for `swu.cr` to place with the engine's outline reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pipeline.models.content import Line
from pipeline.models.scheme import NumberedScheme
from pipeline.parse.common import baseline, leading
from pipeline.parse.numbered.layout import mode
from pipeline.parse.numbered.numbers import SEGMENT
from pipeline.parse.swu.depth import LABEL_START, deeper_level
from pipeline.parse.swu.pages import (
    CHAPTER_RE,
    HEADING_STEP,
    INDENT_TOLERANCE,
    align_facing_pages,
    drop_footers,
    pair_section_numbers,
    split_front,
)

Role = Literal["chapter", "entry", "text", "example", "bullet", "back"]

# A continuation line this far from every indentation its entry knows is not placed.
MAX_DRIFT = 6.0
# A vertical step this many times the usual leading is a paragraph gap.
GAP_FACTOR = 1.25


def is_icon_layer(text: str) -> bool:
    """A line of nothing but private-use glyphs: the second layer of inline icons."""
    glyphs = [c for c in text if not c.isspace()]
    return bool(glyphs) and all(0xE000 <= ord(c) <= 0xF8FF for c in glyphs)


@dataclass
class Paragraph:
    """Lines that belong together, with what they are in the outline."""

    role: Role
    lines: list[Line]
    level: int | None = None  # entries and chapters: the scheme level
    label: str = ""  # entries and chapters: the printed segment (`3`, `a`)
    rest: str = ""  # entries and chapters: the text after the label on the first line

    @property
    def first(self) -> Line:
        return self.lines[0]

    @property
    def pieces(self) -> list[str]:
        """The text of each line; an entry's first piece is what follows its label."""
        texts = [line.text.strip() for line in self.lines]
        if self.role in ("entry", "chapter"):
            texts[0] = self.rest
        return texts


@dataclass
class Layout:
    """What the layout reading found: front lines, outline paragraphs, and what it dropped."""

    front: list[Line]
    body: list[Paragraph]
    notes: dict[str, int] = field(default_factory=dict)
    unplaced: list[Line] = field(default_factory=list)
    scheme: NumberedScheme | None = None  # the scheme with a level the document adds


def label_regex(scheme: NumberedScheme, level: int) -> re.Pattern[str]:
    """`3. text` or `a. text` for an own-printed level: its segment, a dot, then text."""
    segment = SEGMENT[scheme.levels[level].segment]
    return re.compile(rf"^(?P<label>{segment})\.\s+(?P<rest>\S.*)$")


@dataclass
class Bands:
    """Indentations learnt from the document: where each level's labels, wraps and examples sit."""

    entry_size: float
    labels: dict[int, float]  # level -> x of its labels
    wraps: dict[int, float] = field(default_factory=dict)  # level -> x of its wrapped lines
    examples: dict[int, float] = field(default_factory=dict)  # level -> x of its examples
    bullet_wrap: float | None = None
    sections: float | None = None  # x of the section labels


def near(a: float | None, b: float | None, tolerance: float = INDENT_TOLERANCE) -> bool:
    return a is not None and b is not None and abs(a - b) <= tolerance


class Reading:
    """One pass over the body lines with the scheme's label patterns and the learnt bands."""

    def __init__(self, scheme: NumberedScheme, body: list[Line], sections: set[int]) -> None:
        self.scheme = scheme
        self.body = body
        self.sections = sections
        self.patterns = {lv: label_regex(scheme, lv) for lv in range(2, len(scheme.levels))}
        self.glyphs = tuple(scheme.bullets)
        sizes = [
            round(ln.size or 0.0, 1)
            for ln in body
            if self.patterns[2].match(ln.text) and ln.line not in sections
        ]
        self.bands = Bands(entry_size=mode(sizes) or 0.0, labels={})
        self.leading = leading(body) or 10.0
        self._learn_labels()
        self._learn_sections()
        self._learn_continuations()

    def is_chapter(self, line: Line) -> re.Match[str] | None:
        heading = (line.size or 0.0) > self.bands.entry_size + HEADING_STEP
        return CHAPTER_RE.match(line.text.strip()) if heading else None

    def _learn_labels(self) -> None:
        """Each level's label x: the most common x of its label lines, deeper levels only
        where they do not sit at a shallower level's x (`i.` after `h.` is a letter)."""
        for level, pattern in self.patterns.items():
            xs = [
                round(ln.x0 or 0.0, 1)
                for ln in self.body
                if pattern.match(ln.text.strip())
                and not self.is_chapter(ln)
                and ln.line not in self.sections
                and not any(near(ln.x0, x) for x in self.bands.labels.values())
            ]
            found = mode(xs)
            if found is not None:
                self.bands.labels[level] = found

    def _learn_sections(self) -> None:
        """The sections' label x: where the paired section numbers sit; or, in a document that
        sets `1. GENERAL` on one line, the most common x of such lines left of the rules'."""
        rules = self.bands.labels.get(2)
        if self.sections:
            xs = [round(ln.x0 or 0.0, 1) for ln in self.body if ln.line in self.sections]
        else:
            section = label_regex(self.scheme, 1)
            xs = [
                round(ln.x0 or 0.0, 1)
                for ln in self.body
                if section.match(ln.text.strip())
                and not self.is_chapter(ln)
                and rules is not None
                and (ln.x0 or 0.0) < rules - INDENT_TOLERANCE
            ]
        found = mode(xs)
        if found is not None:
            self.bands.sections = found

    def entry_level(self, line: Line) -> tuple[int, re.Match[str]] | None:
        """The level whose label this line starts with, at that level's indentation (a
        paired section: level 1)."""
        text = line.text.strip()
        if line.line in self.sections or (
            not self.sections and near(line.x0, self.bands.sections) and not self.is_chapter(line)
        ):
            section = label_regex(self.scheme, 1).match(text)
            return (1, section) if section is not None else None
        best: tuple[float, int, re.Match[str]] | None = None
        for level, pattern in self.patterns.items():
            x = self.bands.labels.get(level)
            match = pattern.match(text)
            if match is None or x is None or not near(line.x0, x):
                continue
            distance = abs((line.x0 or 0.0) - x)
            if best is None or distance < best[0]:
                best = (distance, level, match)
        return (best[1], best[2]) if best is not None else None

    def is_gap(self, previous: Line, line: Line) -> bool:
        return previous.page != line.page or (
            baseline(line) - baseline(previous) > GAP_FACTOR * self.leading
        )

    def _learn_continuations(self) -> None:
        """Per level: the x of the lines that directly continue a label line (wraps) and of
        the lines under it that start after a paragraph gap elsewhere (examples)."""
        wraps: dict[int, list[float]] = {}
        examples: dict[int, list[float]] = {}
        bullet_wraps: list[float] = []
        level: int | None = None
        previous: Line | None = None
        for line in self.body:
            entry = self.entry_level(line)
            text = line.text.strip()
            if entry is not None:
                level = entry[0]
            elif self.is_chapter(line):
                level = None
            elif text.startswith(self.glyphs):
                pass
            elif previous is not None and previous.text.strip().startswith(self.glyphs):
                bullet_wraps.append(round(line.x0 or 0.0, 1))
            elif level is not None and previous is not None and not LABEL_START.match(text):
                # a line that starts like a label may be a level below (swu.depth): not a wrap
                if self.entry_level(previous) is not None and not self.is_gap(previous, line):
                    wraps.setdefault(level, []).append(round(line.x0 or 0.0, 1))
                elif self.is_gap(previous, line) and previous.page == line.page:
                    examples.setdefault(level, []).append(round(line.x0 or 0.0, 1))
            previous = line
        for lv, xs in wraps.items():
            if (found := mode(xs)) is not None:
                self.bands.wraps[lv] = found
        for lv, xs in examples.items():
            found = mode([x for x in xs if not near(x, self.bands.wraps.get(lv))])
            if found is not None:
                self.bands.examples[lv] = found
        self.bands.bullet_wrap = mode(bullet_wraps)


def read_layout(scheme: NumberedScheme, lines: list[Line]) -> Layout:
    """The document's lines as front matter and outline paragraphs."""
    lines, footers = drop_footers([ln for ln in lines if ln.text.strip()])
    icons = [ln for ln in lines if is_icon_layer(ln.text)]
    lines = [ln for ln in lines if not is_icon_layer(ln.text)]
    lines, realigned = align_facing_pages(lines)
    lines, sections = pair_section_numbers(lines)
    probe = Reading(scheme, lines, sections)
    front, body, toc = split_front(lines, probe.bands.entry_size)
    reading = Reading(scheme, body, sections)
    deeper = deeper_level(
        scheme,
        [ln for ln in body if reading.entry_level(ln) is None and not reading.is_chapter(ln)],
        reading.bands.labels,
        [
            f(max(reading.bands.labels, default=0))
            for f in (reading.bands.wraps.get, reading.bands.examples.get)
        ],
        INDENT_TOLERANCE,
    )
    if deeper is not None:
        reading = Reading(deeper, body, sections)
    layout = Layout(
        front=front,
        body=[],
        scheme=deeper,
        notes={
            "footers_dropped": footers,
            "icon_layers_dropped": len(icons),
            "section_numbers_paired": len(sections),
            "contents_lines_skipped": toc,
        }
        | ({"facing_pages_shift": realigned} if realigned else {}),
    )
    assemble(reading, layout)
    return layout


def assemble(reading: Reading, layout: Layout) -> None:
    """Body lines -> paragraphs, each continuation placed by its entry's indentations."""
    bands = reading.bands
    level: int | None = None
    current: Paragraph | None = None
    previous: Line | None = None
    out = layout.body
    for line in reading.body:
        text = line.text.strip()
        gap = previous is None or reading.is_gap(previous, line)
        chapter = reading.is_chapter(line)
        entry = reading.entry_level(line)
        back = current is not None and current.role == "back"
        if chapter is not None and not back:
            level = 0
            current = Paragraph("chapter", [line], 0, chapter.group(1), chapter.group(2))
            out.append(current)
        elif entry is not None and not back:
            level = entry[0]
            match = entry[1]
            current = Paragraph("entry", [line], level, match.group("label"), match.group("rest"))
            out.append(current)
        elif current is None or back or level is None:
            if current is None or not back:
                current = Paragraph("back", [line])
                out.append(current)
            else:
                current.lines.append(line)
        elif text.startswith(reading.glyphs):
            current = Paragraph("bullet", [line], level)
            out.append(current)
        elif current.role == "bullet" and near(line.x0, bands.bullet_wrap) and not gap:
            current.lines.append(line)
        else:
            current = place_continuation(reading, layout, current, line, level, gap)
        previous = line


def place_continuation(
    reading: Reading, layout: Layout, current: Paragraph, line: Line, level: int, gap: bool
) -> Paragraph:
    """A line under an entry: a wrap of its text, an example, or (left of every outline
    indentation) the back matter; anything else is kept with the paragraph and reported."""
    bands = reading.bands
    candidates = {
        role: x
        for role, x in (("text", bands.wraps.get(level)), ("example", bands.examples.get(level)))
        if x is not None
    }
    x = line.x0 or 0.0
    leftmost = min(bands.labels.values(), default=0.0)
    if level > 0 and x < leftmost - 2 * MAX_DRIFT:
        paragraph = Paragraph("back", [line])
        layout.body.append(paragraph)
        return paragraph
    role, at = min(candidates.items(), key=lambda item: abs(item[1] - x), default=("", 0.0))
    if not role or abs(at - x) > MAX_DRIFT:
        layout.unplaced.append(line)
        current.lines.append(line)
        return current
    continues = current.role == role or (role == "text" and current.role == "entry")
    if continues and not gap:
        current.lines.append(line)
        return current
    paragraph = Paragraph("example" if role == "example" else "text", [line], level)
    layout.body.append(paragraph)
    return paragraph
