"""FaB Comprehensive Rules: blocks (paragraphs) -> rule tree, glossary, front/back matter.

Both renditions end here. The text export gives one block per line; the PDF
layout reader rebuilds the same blocks by joining wrapped lines. Everything
below decides from the publisher's numbering and from what follows a line, so
both renditions give the same records. What is FaB's own:

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

from pipeline.models import LevelScheme, Location, NumberedScheme, Passage, WarningCode
from pipeline.parse.common import slugify, warn
from pipeline.parse.numbered.engine import Engine, is_title
from pipeline.parse.numbered.finish import Parsed
from pipeline.parse.numbered.layout import Block
from pipeline.parse.numbered.numbers import NumberStart
from pipeline.parse.numbered.records import Draft

SCHEME = NumberedScheme(
    levels=[
        LevelScheme(kind="chapter", title="always"),
        LevelScheme(kind="section", title="always"),
        LevelScheme(kind="rule", title="short"),
        LevelScheme(kind="subrule", segment="letter", join=""),
    ],
    brackets=True,
    keywords=[],
    exclude_self=False,
    wraps="paragraphs",
    hyphens="vocabulary",
)
ENGINE = Engine(SCHEME)
GLOSSARY_ENTRY_RE = re.compile(r"^\d+\.-1\.\d+ (\S.*)$")
BRACKET_RE = re.compile(r"\[\d")
_SENTENCE_END = (".", ":", ";", "?", "!", ",", '"', "\u201d")
CHAPTER, SECTION, RULE, SUBRULE = range(4)


def is_title_text(text: str) -> bool:
    """A keyword name such as `Channel` or `Create (token)`, not a sentence."""
    return BRACKET_RE.search(text) is None and is_title(text, 8, _SENTENCE_END)


def number_at(block: Block, level: int) -> NumberStart | None:
    start = ENGINE.numbering.match_start(block.text)
    return start if start is not None and start.level == level else None


def start_kind(text: str) -> str | None:
    """The kinds of entry whose indentation the PDF reader learns."""
    start = ENGINE.numbering.match_start(text)
    if start is not None and start.level >= RULE:
        return SCHEME.levels[start.level].kind
    return "glossary" if GLOSSARY_ENTRY_RE.match(text) else None


@dataclass
class _Draft(Draft):
    pending: list[str] = field(default_factory=list)  # unlabelled paragraphs, not yet placed


@dataclass
class _Matter:
    title: str
    lines: list[str]
    location: Location
    back: bool
    parent: str = ""  # the heading a sub-passage (`2.0 Legend Story Studios`) sits under
    copyright: bool = False


def _location(block: Block) -> Location:
    return Location(line=block.line, page=block.page)


def _opens_chapter(blocks: list[Block], index: int, number: str) -> bool:
    """`N Title` followed by `N.M Title` that opens rules (`N.M.K`) or another section."""
    if index + 2 >= len(blocks):
        return False
    section = number_at(blocks[index + 1], SECTION)
    if section is None or ENGINE.numbering.parent_of(section.number) != number:
        return False
    after = blocks[index + 2]
    rule = number_at(after, RULE)
    if rule is not None:
        return ENGINE.numbering.parent_of(rule.number) == section.number
    other = number_at(after, SECTION)
    return other is not None and ENGINE.numbering.parent_of(other.number) == number


class Builder:
    def __init__(self) -> None:
        self.parsed = Parsed(drafts=[])
        self.matter: list[_Matter] = []
        self.chapter = 0
        self.region = "start"
        self.current: _Draft | None = None

    def resolve_pending(self, draft: _Draft) -> None:
        """Unlabelled paragraphs after a rule: a list when two or more, else kept in the text."""
        if len(draft.pending) >= 2:
            for piece in draft.pending:
                draft.open("bullets", piece)
        elif draft.pending:
            draft.open("text", draft.pending[0])
            message = (
                f"cr:{draft.number} is followed by an unnumbered paragraph that is neither "
                "an example, a note nor part of a list; kept in its text (a rule number or "
                "an 'Example:' label may be missing)"
            )
            self.parsed.warnings.append(
                warn(WarningCode.UNLABELLED_PARAGRAPH, message, draft.location)
            )
        draft.pending = []

    def open_record(self, start: NumberStart, block: Block) -> None:
        self.close_record()
        level = start.level
        parent = ENGINE.numbering.parent_of(start.number)
        draft = _Draft(start.number, SCHEME.levels[level].kind, parent, _location(block))
        if level < RULE or (level == RULE and is_title_text(start.rest)):
            draft.title = [start.rest]
        else:
            draft.add(start.rest)
        self.parsed.drafts.append(draft)
        self.current = draft

    def close_record(self) -> None:
        if self.current is not None:
            self.resolve_pending(self.current)

    def add_plain(self, block: Block) -> None:
        draft = self.current
        if draft is None:
            self.unplaced(block)
            return
        text = block.text
        if draft.title and draft.kind == "rule" and not draft.text and draft.part == "text":
            draft.add(text)
        elif not any(ch.isalnum() for ch in text):
            if draft.pending:
                draft.pending[-1] += "\n" + text
            else:
                draft.add(text)
        elif block.bullet:
            self.resolve_pending(draft)
            draft.open("bullets", text)
        else:
            draft.pending.append(text)

    def unplaced(self, block: Block) -> None:
        message = f"cannot place {block.text[:80]!r}: no rule is open here"
        self.parsed.warnings.append(warn(WarningCode.UNPLACED_TEXT, message, _location(block)))

    def open_matter(self, title: str, block: Block) -> None:
        self.close_record()
        self.current = None
        self.region = "matter"
        self.matter.append(_Matter(title, [], _location(block), back=self.chapter > 0))

    def feed(self, blocks: list[Block], index: int) -> None:
        block = blocks[index]
        chapter = number_at(block, CHAPTER) if block.heading is not False else None
        number = int(chapter.number) if chapter is not None else 0
        if (
            chapter is not None
            and number > self.chapter
            and _opens_chapter(blocks, index, chapter.number)
        ):
            self.chapter = number
            self.region = "rules"
            self.open_record(chapter, block)
            return
        if block.heading is not False and self.is_glossary_heading(blocks, index):
            self.close_record()
            self.current = None
            self.region = "glossary"
            return
        if chapter is not None and is_title_text(chapter.rest) and not block.bullet:
            self.open_matter(chapter.rest, block)
        elif block.heading and not number_at(block, SECTION) and self.region != "matter":
            # An unnumbered heading (PDF) outside the rule tree: front or back matter.
            self.open_matter(block.text, block)
        elif self.region == "glossary":
            self.feed_glossary(block)
        elif self.region == "matter":
            self.feed_matter(block)
        elif self.region == "rules":
            self.feed_rules(block)
        else:
            self.unplaced(block)

    def is_glossary_heading(self, blocks: list[Block], index: int) -> bool:
        chapter = number_at(blocks[index], CHAPTER)
        name = chapter.rest if chapter else blocks[index].text
        if name != "Glossary":
            return False
        if blocks[index].heading:
            return True
        nxt = blocks[index + 1].text if index + 1 < len(blocks) else ""
        return GLOSSARY_ENTRY_RE.match(nxt) is not None

    def feed_rules(self, block: Block) -> None:
        start = ENGINE.numbering.match_start(block.text)
        level = start.level if start is not None else None
        if start is not None and level == SECTION and block.heading is not False:
            chapter = ENGINE.numbering.parent_of(start.number)
            if chapter != str(self.chapter):
                message = f"section {start.number} appears inside chapter {self.chapter}"
                self.parsed.warnings.append(warn(WarningCode.MISPLACED, message, _location(block)))
            self.open_record(start, block)
        elif start is not None and level in (RULE, SUBRULE) and not block.heading:
            self.open_record(start, block)
        elif self.current is not None and ENGINE.labels.match(block.text):
            self.resolve_pending(self.current)
            self.current.label(ENGINE.labels, SCHEME, block.text)
        else:
            self.add_plain(block)

    def feed_glossary(self, block: Block) -> None:
        entry = GLOSSARY_ENTRY_RE.match(block.text)
        glossary = self.parsed.glossary
        if entry is not None or block.bold:
            term = entry.group(1) if entry is not None else block.text
            glossary.append((term, [], _location(block)))
        elif glossary:
            glossary[-1][1].append(block.text)
        else:
            self.unplaced(block)

    def feed_matter(self, block: Block) -> None:
        part = self.matter[-1]
        parent = part.parent or part.title
        sub = number_at(block, SECTION)
        here = _location(block)
        if sub is not None and block.heading is not False and is_title_text(sub.rest):
            self.matter.append(_Matter(sub.rest, [], here, part.back, parent))
        elif block.heading and sub is None:
            self.matter.append(_Matter(block.text, [], here, part.back, parent))
        elif block.text.startswith("©"):
            self.matter.append(_Matter("", [block.text], here, part.back, parent, copyright=True))
        else:
            part.lines.append(block.text)

    def finish(self) -> Parsed:
        self.close_record()
        for part in self.matter:
            prefix = "back" if part.back else "front"
            slug = slugify(f"{part.parent} {part.title}" if part.parent else part.title)
            ident = f"{prefix}:{'copyright' if part.copyright else slug}"
            passage = Passage(
                id=ident, title=part.title, text="\n".join(part.lines), location=part.location
            )
            (self.parsed.back_matter if part.back else self.parsed.front_matter).append(passage)
        return self.parsed


def build_records(blocks: list[Block]) -> Parsed:
    """Rule tree, glossary and front/back matter from a document's blocks, in order."""
    builder = Builder()
    for index in range(len(blocks)):
        builder.feed(blocks, index)
    return builder.finish()
