"""Netrunner Comprehensive Rules (NISEI / Null Signal Games PDFs) -> records.

Layout of the PDFs, as pdfplumber lines:
- page 1 (and 2-3): title, preface with `This is version 1.4 of this document,
  effective 20 December 2019.`, then "Summary of Changes" bullets;
- a table of contents in two columns, which the parser skips entirely: the
  body starts at the first chapter heading in the chapter font after it;
- chapters `1. Game Concepts` and sections `1.2. The Golden Rules` as
  headings in larger fonts; rules `1.2.3. text` in the body font; lettered
  subrules `a. text` indented under a rule, wrapped lines indented further;
- `Example:` / `Example 2:` paragraphs, kept apart from the rule text;
- the timing appendix uses `1)`, `a)`, `i)` list items: kept as bullets;
- "Appendix: Previous Revision" and "Acknowledgements" are back matter.

Ids: `cr:1`, `cr:1.2`, `cr:1.2.3`, `cr:1.2.3a` (the document cites `rule 1.5.4d`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline.models import Document, Line, Location, ParserInfo, ParseWarning, Passage, Rule
from pipeline.parse.common import (
    check_references,
    check_tree,
    count_records,
    record_errata,
    slugify,
    warn,
)
from pipeline.parse.netrunner.front import find_references, join_wrapped, parse_front

FAMILY = "netrunner-cr"
PARSER_VERSION = "1.0"

CHAPTER_RE = re.compile(r"^(?P<n>\d+)\.\s+(?P<text>\S.*)$")
SECTION_RE = re.compile(r"^(?P<n>\d+\.\d+)\.\s+(?P<text>\S.*)$")
RULE_RE = re.compile(r"^(?P<n>\d+\.\d+\.\d+)\.\s+(?P<text>.*)$")
SUBRULE_RE = re.compile(r"^(?P<n>[a-z])\.\s+(?P<text>.*)$")
EXAMPLE_RE = re.compile(r"^Example(?: \d+)?:\s*(?P<text>.*)$")
LIST_ITEM_RE = re.compile(r"^(?:\d+|[a-z]|[ivx]+)\)\s+\S")
PAGE_NUMBER_RE = re.compile(r"^-\s*\d+\s*-$")
# Lettered subrules start at the item indent (144 pt); their wrapped lines sit
# at 168 pt, and a wrapped line that happens to begin "a. " must not open a subrule.
SUBRULE_MAX_X = 156.0
# Rule numbers sit left of the item indent (86-99 pt); wrapped rule text at 144 pt.
RULE_MAX_X = 120.0
# Heading fonts relative to the body font (10.99 pt): chapters 20 pt, sections 16 pt.
CHAPTER_SCALE = 1.7
SECTION_SCALE = 1.35
BACK_MATTER_CHAPTER = "appendix: previous revision"


@dataclass
class _Draft:
    number: str
    kind: str
    depth: int
    parent: str | None
    line: Line
    title: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    examples: list[list[str]] = field(default_factory=list)
    bullets: list[list[str]] = field(default_factory=list)
    highlighted: bool = False

    @property
    def id(self) -> str:
        return f"cr:{self.number}"

    def to_rule(self) -> Rule:
        text = join_wrapped(self.text)
        examples = [join_wrapped(e) for e in self.examples]
        bullets = [join_wrapped(b) for b in self.bullets]
        refs = [r for r in find_references(" ".join([text, *examples, *bullets])) if r != self.id]
        return Rule(
            id=self.id,
            number=self.number,
            kind=self.kind,
            parent=self.parent,
            depth=self.depth,
            title=join_wrapped(self.title) or None,
            text=text,
            examples=examples,
            bullets=bullets,
            references=refs,
            location=Location(line=self.line.line, page=self.line.page),
            highlighted=self.highlighted,
        )


@dataclass
class _State:
    drafts: list[_Draft] = field(default_factory=list)
    target: list[str] | None = None
    target_is_title: bool = False
    chapter: _Draft | None = None
    section: _Draft | None = None
    rule: _Draft | None = None
    back: list[tuple[Line, list[Line]]] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)

    @property
    def current(self) -> _Draft | None:
        return self.drafts[-1] if self.drafts else None

    def open(self, draft: _Draft, text: str, as_title: bool) -> None:
        self.drafts.append(draft)
        draft.highlighted = draft.line.highlight
        self.target = draft.title if as_title else draft.text
        self.target_is_title = as_title
        self.target.append(text)


def body_font_size(lines: list[Line]) -> float:
    sizes = Counter(line.size for line in lines if line.size is not None)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _find_body_start(lines: list[Line], chapter_size: float) -> int | None:
    """Index of the first chapter heading after the table of contents heading."""
    toc = next(
        (
            i
            for i, ln in enumerate(lines)
            if ln.text.strip().lower() == "table of contents" and (ln.size or 0) >= chapter_size
        ),
        None,
    )
    start = 0 if toc is None else toc + 1
    for index in range(start, len(lines)):
        line = lines[index]
        if (line.size or 0) >= chapter_size and CHAPTER_RE.match(line.text):
            return index
    return None


def _handle_heading(state: _State, line: Line, chapter_size: float, section_size: float) -> bool:
    size = line.size or 0.0
    if size >= chapter_size and (m := CHAPTER_RE.match(line.text)):
        draft = _Draft(m["n"], "chapter", 1, None, line)
        state.open(draft, m["text"], as_title=True)
        state.chapter, state.section, state.rule = draft, None, None
        if m["text"].strip().lower().startswith(BACK_MATTER_CHAPTER):
            state.back.append((line, []))
        return True
    if size >= section_size and (m := SECTION_RE.match(line.text)):
        chapter = state.chapter
        if chapter is None or not m["n"].startswith(chapter.number + "."):
            state.warnings.append(
                warn(
                    "misplaced-section",
                    f"section {m['n']} outside its chapter",
                    line.line,
                    line.page,
                )
            )
        draft = _Draft(m["n"], "section", 2, chapter.id if chapter else None, line)
        state.open(draft, m["text"], as_title=True)
        state.section, state.rule = draft, None
        return True
    if size >= chapter_size and state.back:
        # An unnumbered heading after the revision appendix (Acknowledgements).
        state.back.append((line, []))
        return True
    current = state.current
    if state.target_is_title and current is not None and size >= section_size and not state.back:
        current.title.append(line.text)
        return True
    return False


def _handle_item(state: _State, line: Line) -> bool:
    x = line.x0 if line.x0 is not None else 0.0
    if x < RULE_MAX_X and (m := RULE_RE.match(line.text)):
        section = state.section
        if section is None or not m["n"].startswith(section.number + "."):
            state.warnings.append(
                warn("misplaced-rule", f"rule {m['n']} outside its section", line.line, line.page)
            )
        draft = _Draft(m["n"], "rule", 3, section.id if section else None, line)
        state.open(draft, m["text"], as_title=False)
        state.rule = draft
        return True
    rule = state.rule
    if rule is not None and x < SUBRULE_MAX_X and (m := SUBRULE_RE.match(line.text)):
        last = state.current
        expected = "a"
        if last is not None and last.kind == "subrule" and last.parent == rule.id:
            expected = chr(ord(last.number[-1]) + 1)
        if m["n"] == expected:
            draft = _Draft(rule.number + m["n"], "subrule", 4, rule.id, line)
            state.open(draft, m["text"], as_title=False)
            return True
    current = state.current
    if current is None:
        return False
    if m := EXAMPLE_RE.match(line.text):
        current.examples.append([m["text"]])
        state.target, state.target_is_title = current.examples[-1], False
        current.highlighted = current.highlighted or line.highlight
        return True
    if LIST_ITEM_RE.match(line.text):
        current.bullets.append([line.text])
        state.target, state.target_is_title = current.bullets[-1], False
        current.highlighted = current.highlighted or line.highlight
        return True
    return False


def parse_body(lines: list[Line], chapter_size: float, section_size: float) -> _State:
    state = _State()
    for line in lines:
        if PAGE_NUMBER_RE.match(line.text.strip()):
            continue
        if _handle_heading(state, line, chapter_size, section_size):
            continue
        if state.back:
            state.back[-1][1].append(line)
            continue
        if _handle_item(state, line):
            continue
        current = state.current
        if current is None or state.target is None:
            state.warnings.append(
                warn(
                    "unplaced-text",
                    f"text before any heading: {line.text[:60]!r}",
                    line.line,
                    line.page,
                )
            )
            continue
        if state.target_is_title:
            # The first body line after a heading is the section's own prose.
            state.target, state.target_is_title = current.text, False
        state.target.append(line.text)
        current.highlighted = current.highlighted or line.highlight
    return state


def _back_matter(back: list[tuple[Line, list[Line]]]) -> list[Passage]:
    passages = []
    for heading, body in back:
        title = heading.text
        if (
            CHAPTER_RE.match(title)
            and body
            and (body[0].bold or (body[0].size or 0) > (heading.size or 0) * 0.7)
        ):
            title = body[0].text
            body = body[1:]
        text = "\n".join(join_wrapped(block) for block in _split_bullets(body) if block)
        passages.append(
            Passage(
                id=slugify(title),
                title=title,
                text=text,
                location=Location(line=heading.line, page=heading.page),
            )
        )
    return passages


def _split_bullets(body: list[Line]) -> list[list[str]]:
    blocks: list[list[str]] = []
    for line in body:
        if line.text.startswith(("●", "○", "•")) or not blocks:
            blocks.append([line.text])
        else:
            blocks[-1].append(line.text)
    return blocks


def parse(
    lines: list[Line],
    *,
    document: str,
    rendition: str,
    version: str | None = None,
    extraction: dict[str, int] | None = None,
) -> Document:
    """Parse the extracted lines of a Netrunner CR PDF into a Document."""
    warnings: list[ParseWarning] = []
    body_size = body_font_size(lines)
    chapter_size = body_size * CHAPTER_SCALE
    section_size = body_size * SECTION_SCALE
    start = _find_body_start(lines, chapter_size)
    if start is None:
        warnings.append(warn("no-body", "no chapter heading found after the table of contents"))
        start = len(lines)
    toc = next(
        (i for i, ln in enumerate(lines[:start]) if ln.text.strip().lower() == "table of contents"),
        start,
    )
    front_lines = [ln for ln in lines[:toc] if not PAGE_NUMBER_RE.match(ln.text.strip())]
    front = parse_front(front_lines, section_size)
    if front.version is None:
        warnings.append(
            warn("no-version", "page 1 states no 'This is version ... effective ...' line")
        )
    elif front.effective is None and front.version_line is not None:
        warnings.append(
            warn(
                "bad-date",
                f"cannot read the effective date in {front.version_line.text!r}",
                front.version_line.line,
                front.version_line.page,
            )
        )
    if version is not None and front.version is not None and version != front.version:
        warnings.append(
            warn(
                "version-mismatch",
                f"the caller says version {version}, the document says {front.version}",
            )
        )
    state = parse_body(lines[start:], chapter_size, section_size)
    records = [d.to_rule() for d in state.drafts]
    doc = Document(
        game=document.split("/")[0],
        document=document,
        title=front.title,
        version=front.version or version,
        effective=front.effective,
        parser=ParserInfo(family=FAMILY, version=PARSER_VERSION),
        records=records,
        front_matter=front.passages,
        back_matter=_back_matter(state.back),
        publisher_changes=front.changes,
        extraction=dict(sorted((extraction or {}).items())),
    )
    warnings += state.warnings + check_tree(records) + check_references(doc)
    doc.warnings = warnings
    doc.counts = count_records(records)
    doc.counts["examples"] = sum(len(r.examples) for r in records)
    doc.counts["highlighted"] = sum(1 for r in records if r.highlighted)
    doc.counts["publisher_changes"] = len(front.changes)
    return record_errata(doc)
