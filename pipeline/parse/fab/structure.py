"""FaB Comprehensive Rules: logical paragraphs ("blocks") -> rule tree, glossary, front/back matter.

Both renditions end here. The text export gives one block per line; the PDF
layout reader (fab_layout) rebuilds the same blocks by joining wrapped lines.
Everything below decides from the publisher's numbering and from what follows
a line, so both renditions give the same records:

- `N Title` is a chapter only when it is the next chapter number and is
  followed by a section `N.M` that itself opens rules or another section.
  The text export prints the glossary (`1 Glossary`, entries `1.-1.K`) and
  the acknowledgments (`2 Acknowledgments`, `2.0 Legend Story Studios`)
  inline with such numbers; they fail that test and become glossary and
  back matter. The preface (`1 Preface`) is front matter.
- A rule whose text is a keyword name (`8.4.4 Channel`) is a heading: the
  name is its title and the paragraph after it is its text.
- Unnumbered, unlabelled paragraphs after a rule are its bullets when there
  are two or more in a row (the publisher's HTML shows them as a list); a lone
  one is kept in the text and warned about (2.10.1 lost a number or an
  `Example:` label there). A line with no letter or digit (the stray `%` the
  publisher leaves inside two keyword paragraphs) continues its paragraph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.models import GlossaryTerm, Location, ParseWarning, Passage, Rule
from pipeline.parse.common import slugify, unique_slugs, warn

CHAPTER_RE = re.compile(r"^(\d+) (\S.*)$")
SECTION_RE = re.compile(r"^(\d+)\.(\d+) (\S.*)$")
RULE_RE = re.compile(r"^(\d+)\.(\d+)\.(\d+) (\S.*)$")
SUBRULE_RE = re.compile(r"^(\d+\.\d+\.\d+)([a-z]) (\S.*)$")
GLOSSARY_ENTRY_RE = re.compile(r"^\d+\.-1\.\d+ (\S.*)$")
LABEL_RE = re.compile(r"^(Example|Note):\s?(.*)$")
REFERENCE_RE = re.compile(r"\[(\d+(?:\.\d+)*[a-z]?(?:\s*,\s*\d+(?:\.\d+)*[a-z]?)*)\]")
_SENTENCE_END = (".", ":", ";", "?", "!", ",", '."', '"', "”")
_MAX_TITLE_WORDS = 8


@dataclass(frozen=True)
class Block:
    """One logical paragraph: a text-export line, or PDF lines with wraps rejoined."""

    text: str
    line: int
    page: int | None = None
    heading: bool | None = None  # PDF: set larger than body text; None when unknown
    bold: bool = False
    bullet: bool = False  # PDF: began with a bullet glyph (the glyph is removed)


@dataclass
class _Draft:
    number: str
    kind: str
    parent: str | None
    depth: int
    location: Location
    title: str | None = None
    text: str = ""
    examples: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    last: str = "text"


@dataclass
class _Matter:
    title: str
    lines: list[str]
    location: Location
    back: bool
    parent: str = ""  # the heading a sub-passage (`2.0 Legend Story Studios`) sits under
    copyright: bool = False


@dataclass
class Parsed:
    records: list[Rule]
    glossary: list[GlossaryTerm]
    front_matter: list[Passage]
    back_matter: list[Passage]
    warnings: list[ParseWarning]


def find_references(*texts: str, prefix: str = "cr") -> list[str]:
    """Citation ids of the bracketed markers, in order of appearance, without repeats."""
    found: list[str] = []
    for text in texts:
        for match in REFERENCE_RE.finditer(text):
            for number in re.split(r"\s*,\s*", match.group(1)):
                ref = f"{prefix}:{number}"
                if ref not in found:
                    found.append(ref)
    return found


def is_title_text(text: str) -> bool:
    """A keyword name such as `Channel` or `Create (token)`, not a sentence."""
    if REFERENCE_RE.search(text) or text.endswith(_SENTENCE_END):
        return False
    return len(text.split()) <= _MAX_TITLE_WORDS


def _location(block: Block) -> Location:
    return Location(line=block.line, page=block.page)


def _opens_chapter(blocks: list[Block], index: int, number: int) -> bool:
    """`N Title` followed by `N.M Title` that opens rules (`N.M.K`) or another section."""
    if index + 2 >= len(blocks):
        return False
    section = SECTION_RE.match(blocks[index + 1].text)
    if section is None or int(section.group(1)) != number:
        return False
    after = blocks[index + 2].text
    rule = RULE_RE.match(after)
    if rule is not None:
        return rule.group(1) == section.group(1) and rule.group(2) == section.group(2)
    other = SECTION_RE.match(after)
    return other is not None and int(other.group(1)) == number


class _Builder:
    def __init__(self) -> None:
        self.records: list[_Draft] = []
        self.warnings: list[ParseWarning] = []
        self.terms: list[tuple[str, list[str], Location]] = []
        self.matter: list[_Matter] = []
        self.chapter = 0
        self.region = "start"
        self.current: _Draft | None = None

    # ------------------------------------------------------------------ records

    def close_record(self) -> None:
        if self.current is not None:
            self.resolve_pending(self.current)

    def resolve_pending(self, draft: _Draft) -> None:
        """Unlabelled paragraphs after a rule: a list when two or more, else kept in the text."""
        if len(draft.pending) >= 2:
            draft.bullets.extend(draft.pending)
            draft.last = "bullets"
        elif draft.pending:
            draft.text = f"{draft.text}\n{draft.pending[0]}" if draft.text else draft.pending[0]
            draft.last = "text"
            self.warnings.append(
                warn(
                    "unlabelled-paragraph",
                    f"cr:{draft.number} is followed by an unnumbered paragraph that is neither "
                    "an example, a note nor part of a list; kept in its text (a rule number or "
                    "an 'Example:' label may be missing)",
                    draft.location.line,
                    draft.location.page,
                )
            )
        draft.pending = []

    def open_record(self, draft: _Draft) -> None:
        self.close_record()
        self.records.append(draft)
        self.current = draft

    def add_plain(self, block: Block) -> None:
        draft = self.current
        if draft is None:
            self.unplaced(block)
            return
        text = block.text
        if (
            draft.title is not None
            and draft.kind == "rule"
            and not draft.text
            and draft.last == "text"
        ):
            draft.text = text
        elif not any(ch.isalnum() for ch in text):
            self.continue_last(draft, text)
        elif block.bullet:
            self.resolve_pending(draft)
            draft.bullets.append(text)
            draft.last = "bullets"
        else:
            draft.pending.append(text)

    @staticmethod
    def continue_last(draft: _Draft, text: str) -> None:
        if draft.pending:
            draft.pending[-1] += "\n" + text
        elif draft.last == "examples" and draft.examples:
            draft.examples[-1] += "\n" + text
        elif draft.last == "notes" and draft.notes:
            draft.notes[-1] += "\n" + text
        elif draft.last == "bullets" and draft.bullets:
            draft.bullets[-1] += "\n" + text
        else:
            draft.text = f"{draft.text}\n{text}" if draft.text else text

    def add_label(self, block: Block, label: str, body: str) -> None:
        draft = self.current
        if draft is None:
            self.unplaced(block)
            return
        self.resolve_pending(draft)
        if label == "Example":
            draft.examples.append(body)
            draft.last = "examples"
        else:
            draft.notes.append(body)
            draft.last = "notes"

    def unplaced(self, block: Block) -> None:
        self.warnings.append(
            warn(
                "unplaced-line",
                f"cannot place {block.text[:80]!r}: no rule is open here",
                block.line,
                block.page,
            )
        )

    # ------------------------------------------------------------------ matter

    def open_matter(self, title: str, block: Block) -> None:
        self.close_record()
        self.current = None
        self.region = "matter"
        self.matter.append(_Matter(title, [], _location(block), back=self.chapter > 0))

    # ------------------------------------------------------------------ dispatch

    def feed(self, blocks: list[Block], index: int) -> None:
        block = blocks[index]
        text = block.text
        chapter = CHAPTER_RE.match(text) if block.heading is not False else None
        if chapter is not None:
            number = int(chapter.group(1))
            if number > self.chapter and _opens_chapter(blocks, index, number):
                self.open_chapter(number, chapter.group(2), block)
                return
        if block.heading is not False and self.is_glossary_heading(blocks, index):
            self.close_record()
            self.current = None
            self.region = "glossary"
            return
        if chapter is not None and is_title_text(chapter.group(2)) and not block.bullet:
            self.open_matter(chapter.group(2), block)
            return
        if block.heading and not SECTION_RE.match(text) and self.region != "matter":
            # An unnumbered heading (PDF) outside the rule tree: front or back matter.
            self.open_matter(text, block)
            return
        if self.region == "glossary":
            self.feed_glossary(block)
        elif self.region == "matter":
            self.feed_matter(block)
        elif self.region == "rules":
            self.feed_rules(block)
        else:
            self.unplaced(block)

    def is_glossary_heading(self, blocks: list[Block], index: int) -> bool:
        chapter = CHAPTER_RE.match(blocks[index].text)
        name = chapter.group(2) if chapter else blocks[index].text
        if name != "Glossary":
            return False
        if blocks[index].heading:
            return True
        nxt = blocks[index + 1].text if index + 1 < len(blocks) else ""
        return GLOSSARY_ENTRY_RE.match(nxt) is not None

    def open_chapter(self, number: int, title: str, block: Block) -> None:
        self.chapter = number
        self.region = "rules"
        self.open_record(_Draft(str(number), "chapter", None, 1, _location(block), title=title))

    def feed_rules(self, block: Block) -> None:
        text = block.text
        if (section := SECTION_RE.match(text)) and block.heading is not False:
            if int(section.group(1)) != self.chapter:
                self.warnings.append(
                    warn(
                        "out-of-chapter",
                        f"section {section.group(1)}.{section.group(2)} "
                        f"appears inside chapter {self.chapter}",
                        block.line,
                        block.page,
                    )
                )
            number = f"{section.group(1)}.{section.group(2)}"
            self.open_record(
                _Draft(
                    number,
                    "section",
                    f"cr:{section.group(1)}",
                    2,
                    _location(block),
                    title=section.group(3),
                )
            )
        elif (rule := RULE_RE.match(text)) and not block.heading:
            number = f"{rule.group(1)}.{rule.group(2)}.{rule.group(3)}"
            body = rule.group(4)
            draft = _Draft(
                number, "rule", f"cr:{rule.group(1)}.{rule.group(2)}", 3, _location(block)
            )
            if is_title_text(body):
                draft.title = body
            else:
                draft.text = body
            self.open_record(draft)
        elif (subrule := SUBRULE_RE.match(text)) and not block.heading:
            number = subrule.group(1) + subrule.group(2)
            self.open_record(
                _Draft(
                    number,
                    "subrule",
                    f"cr:{subrule.group(1)}",
                    4,
                    _location(block),
                    text=subrule.group(3),
                )
            )
        elif label := LABEL_RE.match(text):
            self.add_label(block, label.group(1), label.group(2))
        else:
            self.add_plain(block)

    def feed_glossary(self, block: Block) -> None:
        entry = GLOSSARY_ENTRY_RE.match(block.text)
        if entry is not None or block.bold:
            term = entry.group(1) if entry is not None else block.text
            self.terms.append((term, [], _location(block)))
        elif self.terms:
            self.terms[-1][1].append(block.text)
        else:
            self.unplaced(block)

    def feed_matter(self, block: Block) -> None:
        part = self.matter[-1]
        parent = part.parent or part.title
        sub = SECTION_RE.match(block.text)
        if sub is not None and block.heading is not False and is_title_text(sub.group(3)):
            self.matter.append(_Matter(sub.group(3), [], _location(block), part.back, parent))
        elif block.heading and sub is None:
            self.matter.append(_Matter(block.text, [], _location(block), part.back, parent))
        elif block.text.startswith("©"):
            self.matter.append(
                _Matter("", [block.text], _location(block), part.back, parent, copyright=True)
            )
        else:
            part.lines.append(block.text)

    # ------------------------------------------------------------------ output

    def finish(self) -> Parsed:
        self.close_record()
        records = [
            Rule(
                id=f"cr:{d.number}",
                number=d.number,
                kind=d.kind,
                parent=d.parent,
                depth=d.depth,
                title=d.title,
                text=d.text,
                examples=d.examples,
                notes=d.notes,
                bullets=d.bullets,
                references=find_references(d.text, *d.examples, *d.notes, *d.bullets),
                location=d.location,
            )
            for d in self.records
        ]
        slugs = unique_slugs(term for term, _, _ in self.terms)
        glossary = [
            GlossaryTerm(
                id=f"glossary:{slug}",
                term=term,
                definition="\n".join(lines),
                references=find_references(*lines),
                location=location,
            )
            for slug, (term, lines, location) in zip(slugs, self.terms, strict=True)
        ]
        front: list[Passage] = []
        back: list[Passage] = []
        for part in self.matter:
            prefix = "back" if part.back else "front"
            if part.copyright:
                slug = "copyright"
            else:
                slug = slugify(f"{part.parent} {part.title}" if part.parent else part.title)
            passage = Passage(
                id=f"{prefix}:{slug}",
                title=part.title,
                text="\n".join(part.lines),
                location=part.location,
            )
            (back if part.back else front).append(passage)
        return Parsed(records, glossary, front, back, self.warnings)


def build_records(blocks: list[Block]) -> Parsed:
    """Rule tree, glossary and front/back matter from a document's blocks, in order."""
    builder = _Builder()
    for index in range(len(blocks)):
        builder.feed(blocks, index)
    return builder.finish()
