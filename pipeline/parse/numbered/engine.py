"""The numbered-rules engine: a declared scheme (models.scheme.NumberedScheme) read block by block.

A document the engine reads unaided (family `numbered`) runs: front matter (title, the
version and date statements, the rest kept as a preface), the numbered rules, and after
one of the `ends` headings back matter. A number opens a record under its nearest present
ancestor (a level printed `own` takes its path from the open outline and must be next in
sequence); a label opens an example or note, a glyph a list item; anything else continues.
Game packages reuse the reader, statements, references, layout and finishing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.records import (
    CountKey,
    Location,
    ParseWarning,
    Passage,
    WarningCode,
)
from pipeline.models.scheme import FORMS, NumberedScheme
from pipeline.parse.common import slugify, unplaced, warn
from pipeline.parse.numbered.budget import within_budget
from pipeline.parse.numbered.finish import Finish, Parsed
from pipeline.parse.numbered.layout import (
    Block,
    wrap_joiner,
)
from pipeline.parse.numbered.numbers import Numbering, NumberStart
from pipeline.parse.numbered.records import Draft, Join, label_pattern, line_at, paragraphs, span
from pipeline.parse.numbered.references import References
from pipeline.parse.numbered.runin import following, run_in_at, unmarked_start
from pipeline.parse.numbered.statements import (
    ambiguous_date,
    ambiguous_date_note,
    compile_statement,
    find_statement,
)
from pipeline.parse.numbered.structure import find_contents

SENTENCE_END = (".", ":", ";", "?", "!", ",")
# What ends a sentence or a heading's line before a new rule: a heading ends in a word,
# so only a lower-case start or a step back marks a wrapped citation after one.
SENTENCE_STOPS = (".", ":", ";", "?", "!", ")", "。", "：", "；", "？", "！", "）", "」", "”")
TITLE_WORDS = 6
PARSER_VERSION = "2.1"


def is_title(text: str, words: int = TITLE_WORDS, ends: tuple[str, ...] = SENTENCE_END) -> bool:
    """A heading such as `Channel` or `Golden and Silver Rules`: short, and not a sentence."""
    return bool(text) and not text.endswith(ends) and len(text.split()) <= words


class Engine:
    """One scheme, compiled: its numbering, references, labels and statements. Each part is
    compiled when first used: a game's module builds its engine at import, and a parse
    should pay for its own game's patterns only, not for every game's (the CJK classes in
    them take milliseconds each to compile)."""

    def __init__(self, scheme: NumberedScheme) -> None:
        self.scheme = scheme
        self.join = paragraphs if scheme.wraps == "paragraphs" else wrap_joiner(scheme.hyphens)
        self.end_headings = {e.lower() for e in scheme.ends if "{" not in e}

    @cached_property
    def numbering(self) -> Numbering:
        return Numbering(self.scheme)

    @cached_property
    def references(self) -> References:
        return References(self.scheme, self.numbering)

    @cached_property
    def labels(self) -> re.Pattern[str]:
        return label_pattern(self.scheme)

    @cached_property
    def inline(self) -> re.Pattern[str]:
        """`Example: …` inside a rule's text opens an example; `(Example: …)` in parentheses
        is part of the sentence and stays in the text, as the publisher set it."""
        # no labels: nothing opens an example (an empty alternative would match every colon)
        words = "|".join(map(re.escape, self.scheme.example)) or "(?!)"
        return re.compile(rf"\s*(?<![(（])\b(?:{words})[:：]\s*")

    @cached_property
    def statements(self) -> list[re.Pattern[str]]:
        # the scheme's model refuses a form it does not know
        templates = self.scheme.statements + [FORMS[n] for n in self.scheme.statement_forms]
        return [compile_statement(s, self.scheme.version_pattern) for s in templates]

    @cached_property
    def end_forms(self) -> list[re.Pattern[str]]:
        pattern = self.scheme.version_pattern
        return [compile_statement(e, pattern) for e in self.scheme.ends if "{" in e]

    @cached_property
    def glyph(self) -> re.Pattern[str]:
        return re.compile(rf"^[{re.escape(''.join(self.scheme.bullets))}]\s+")

    def ends(self, text: str) -> bool:
        """The heading after which the rules end: one of the scheme's `ends`, as written or
        (with `{version}` or `{date}` in it) as a statement template."""
        if text.lower() in self.end_headings:
            return True
        if not self.end_forms:
            return False
        with within_budget():  # the registry's version_pattern runs on the document's text
            return any(p.match(text) for p in self.end_forms)

    def finish(self, family: str, version: str = PARSER_VERSION) -> Finish:
        return Finish(family, version, self.references, self.join)

    def kind_of(self, text: str) -> str | None:
        start = self.numbering.match_start(text)
        return self.numbering.levels[start.level].kind if start else None


class Reader:
    """Numbered lines -> drafts, by the scheme's outline."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.numbering = engine.numbering
        self.drafts: list[Draft] = []
        self.seen: set[str] = set()
        self.open_path: list[str | None] = [None] * len(self.numbering.levels)
        self.warnings: list[ParseWarning] = []

    @property
    def current(self) -> Draft | None:
        return self.drafts[-1] if self.drafts else None

    def place(self, start: NumberStart) -> tuple[str, str | None] | None:
        """(number, parent) for a number at the start of a line, or None when it is text: a
        level printed `own` must be the next in its sequence under the open parent."""
        numbering, level = self.numbering, start.level
        if not start.own:
            parent = self.present_parent(start.number)
            if self.wrapped_reference(start, parent):
                return None
            return start.number, parent
        parent, last = self.open_path[level - 1] if level else None, self.open_path[level]
        if level and parent is None:
            return None
        expected = numbering.first(level)
        if last is not None and numbering.parent_of(last) == parent:
            expected = numbering.successor(level, (numbering.segments(last) or [""])[-1])
        if start.number != expected:
            return None
        return (parent or "") + (numbering.levels[level].join if level else "") + expected, parent

    def present_parent(self, number: str) -> str | None:
        """The nearest ancestor that has a record: the publisher may skip a level."""
        parent = self.numbering.parent_of(number)
        while parent is not None and parent not in self.seen:
            parent = self.numbering.parent_of(parent)
        return parent

    def wrapped_reference(self, start: NumberStart, parent: str | None) -> bool:
        """A printed number at a line start that cannot be the next rule: a citation the
        publisher's line breaking put there (`… regarding\n10-2-13-5. the processing`).

        It cannot be when the sentence before it goes on (no full stop) and it sits under
        another chapter than the open one (its chapter has no record yet, though the open
        chapter has one), goes back in the outline, or is followed by a lower-case word."""
        current = self.current
        if current is None:
            return False
        numbering = self.numbering
        key, last = numbering.order_key(start.number), numbering.order_key(current.number)
        pieces = current.text or current.title
        continues = bool(pieces) and not pieces[-1].rstrip().endswith(SENTENCE_STOPS)
        if start.number in self.seen:
            # `(see 9-1-\n7) that …`: the end of a citation, not the publisher's repeat
            return continues and key <= last
        # after a heading (`720. Inactive`), a number out of place is the publisher's slip
        # (`721.1.` for 720.1): kept as a record, and the order check reports it
        sentence = continues and not is_title(pieces[-1])
        if sentence and start.level and parent is None and key[:1] != last[:1]:
            chapter = numbering.join((numbering.segments(current.number) or [])[:1])
            if chapter in self.seen:
                return True
        return continues and (key <= last or start.rest[:1].islower())

    def open(self, number: str, parent: str | None, level: int, rest: str, at: Location) -> Draft:
        draft = Draft(number, self.numbering.levels[level].kind, parent, at)
        if rest:
            draft.add(rest)
        self.drafts.append(draft)
        self.seen.add(number)
        self.open_path[level:] = [number] + [None] * (len(self.open_path) - level - 1)
        return draft

    def feed(self, block: Block) -> None:
        """A block, and the rules run into it (runin.py) after it, each as a block."""
        start = self.numbering.match_start(block.text)
        opened = start.number if start is not None and not start.own else None
        number = opened or (self.current.number if self.current else None)
        at = run_in_at(self.numbering, block.text, number, opened is not None) if number else None
        if at is None:
            return self.feed_block(block, start)
        head = replace(block, text=block.text[:at].rstrip())
        self.feed_block(head, self.numbering.match_start(head.text))
        rest = replace(block, text=block.text[at:], bullet=False, after_gap=False, indented=False)
        self.feed(rest)

    def feed_block(self, block: Block, start: NumberStart | None) -> None:
        at = block.location
        if start is None and (unread := self.next_number_unread(block.text)):
            start = unmarked_start(self.numbering, block.text, unread)  # `6.7.1 Counters`
        if start is not None and (placed := self.place(start)) is not None:
            number, parent = placed
            if number not in self.seen:
                self.open(number, parent, start.level, start.rest, at).mark(block.highlight)
                return
            message = f"{number} appears again; kept as text"
            self.warnings.append(warn(WarningCode.DUPLICATE_ID, message, at))
        draft = self.current
        if draft is None:
            self.warnings.append(unplaced(block.text, at))
            return
        self.continue_draft(draft, block.text, at, block.bullet)
        draft.mark(block.highlight)

    def next_number_unread(self, text: str) -> str | None:
        """The number a reader takes for the next rule (the open record's next sibling or
        first child) where the line starts with it and a mark the scheme does not read
        (`119.1d.` where subrules carry no dot, `6.7.1` where rules carry one)."""
        current = self.current
        word = text.split(maxsplit=1)[0] if text.strip() else ""
        if current is None or not word:
            return None
        bare = word.rstrip(".)")
        nearest = following(self.numbering, current.number)[:2]
        return bare if bare in nearest and bare not in self.seen else None

    def continue_draft(self, draft: Draft, piece: str, at: Location, bullet: bool = False) -> None:
        """A label opens an example or note, a bullet a list item, a `See rule ...` line goes
        back to the rule's own text (even after an example); anything else continues. `at`:
        the lines the piece was read from."""
        piece = piece.strip()
        engine = self.engine
        if draft.label(engine.labels, piece, at):
            return
        if bullet or engine.glyph.match(piece):
            draft.open("bullets", engine.glyph.sub("", piece), at)
        elif piece.startswith("See ") and engine.references.find(piece):
            draft.open("text", piece, at)
        else:
            draft.add(piece, at)

    def settle(self) -> list[Draft]:
        """Inline labels split out, glyphs dropped, short top-level texts made titles."""
        engine = self.engine
        joiner = engine.join
        for draft in self.drafts:
            main, *inline = engine.inline.split(joiner(draft.text))
            inline += [e for block in draft.examples for e in engine.inline.split(joiner(block))]
            examples = [e.strip() for e in inline if e.strip()]
            main = engine.glyph.sub("", main.strip())
            rule = self.numbering.levels[self.numbering.level_of(draft.number) or 0].title
            # a heading's words are its title already (a Markdown or HTML page's)
            if not draft.title and (rule == "always" or (rule == "short" and is_title(main))):
                draft.title, main = [main], ""
            draft.text, draft.examples = ([main] if main else []), [[e] for e in examples]
        return self.drafts


def read_statement(engine: Engine, lines: list[Line], parsed: Parsed) -> list[Line]:
    """The version and date the statement lines state, into `parsed`; those lines."""
    with within_budget():  # the registry's version_pattern runs on the document's text
        found = find_statement(lines, engine.statements, engine.scheme.date_order)
    if found is None:
        return []
    if found.date is None and found.date_text is not None:
        if ambiguous_date(found.date_text):
            parsed.notes.append(ambiguous_date_note(found.date_text, found.lines))
            parsed.missing = f"the date {found.date_text.strip()!r} reads two ways"
        else:
            message = f"cannot read the date in {found.date_text!r}"
            parsed.warnings.append(warn(WarningCode.BAD_DATE, message, line_at(found.lines[0])))
    parsed.stated = found.date if engine.scheme.version_is_date else found.version
    setattr(parsed, engine.scheme.date_is, found.date)
    return found.lines


def read_front(
    engine: Engine, front: list[Block], heading: Block | None = None
) -> tuple[Parsed, list[Block]]:
    """Title and stated version or date from the lines before the rules; the rest is kept.
    `heading`: the heading of a table of contents, the title only when no other line is."""
    lines = [Line(text=b.text, line=b.line, page=b.page) for b in front]
    parsed = Parsed(drafts=[], missing="no version statement before the rules")
    stated = {line.line for line in read_statement(engine, lines, parsed)}
    rest = [b for b in front if b.line not in stated]
    wanted = engine.scheme.title
    named = [b for b in rest if (wanted or b.text).lower() in b.text.lower()]
    title = next((b for b in named if b is not heading), named[0] if named else None)
    parsed.title = title.text if title is not None else None
    if title is None and wanted is not None:
        # `Force of Will Comprehensive Rules ver. 7.0`: the title line states the version
        titled = (b.text for b in front if b.line in stated and wanted.lower() in b.text.lower())
        parsed.title = next((cut_statements(engine, text) for text in titled), None)
    if wanted is not None and parsed.title is None:
        message = f"the document does not state its title {wanted!r} before its rules"
        parsed.warnings.append(warn(WarningCode.TITLE_NOT_RECOGNISED, message))
    return parsed, [b for b in rest if b is not title]


def cut_statements(engine: Engine, text: str) -> str:
    """The line without the version or date statement it ends with."""
    for pattern in engine.statements:
        text = pattern.sub("", text).strip()
    return text


def passage(
    ident: str, title: str, blocks: list[Block], join: Join, heading: Block | None = None
) -> Passage:
    """The blocks' text as a passage spanning from its heading (or its first block) to its
    last block."""
    first, last = (heading or blocks[0]).location, blocks[-1].location if blocks else None
    text = join([b.text for b in blocks])
    return Passage(id=ident, title=title, text=text, location=span(first, last))


Body = Callable[["Reader", list[Block]], None]


def read_body(reader: Reader, blocks: list[Block]) -> None:
    for block in blocks:
        reader.feed(block)


def read_document(
    engine: Engine, blocks: list[Block], what: str, body: Body = read_body,
    opens: Callable[[Block], bool] | None = None,
) -> Parsed:  # fmt: skip
    """Front matter, the numbered rules (read by `body`, from the first block that `opens` a
    rule: by default one that starts with a number) and the back matter of the blocks."""
    contents = find_contents([b.text for b in blocks])
    first: int = min(contents, default=0)  # the contents' heading stands just before them
    heading = blocks[first - 1] if first else None
    blocks = [b for i, b in enumerate(blocks) if i not in contents]
    opens = opens or (lambda block: engine.numbering.match_start(block.text) is not None)
    start = next((i for i, b in enumerate(blocks) if opens(b)), None)
    if start is None:
        problem = "no numbered rules found: not a rules document, or the `levels` of its "
        raise ParseError(what, problem + "registry entry's [source.scheme] do not fit it")
    stop = next((i for i in range(start, len(blocks)) if engine.ends(blocks[i].text)), None)
    stop = stop if stop is not None else find_colophon(engine, blocks, start)
    parsed, preface = read_front(engine, blocks[:start], heading)
    reader = Reader(engine)
    body(reader, blocks[start:stop])
    parsed.drafts = reader.settle()
    parsed.warnings += reader.warnings
    parsed.counts.update({CountKey.CONTENTS: len(contents)} if contents else {})
    if preface:
        parsed.front_matter.append(passage("preface", "Preface", preface, engine.join))
    if stop is not None:
        title, back = blocks[stop].text, blocks[stop + 1 :] or blocks[stop:]
        parsed.back_matter.append(passage(slugify(title), title, back, engine.join))
    return parsed


def find_colophon(engine: Engine, blocks: list[Block], start: int) -> int | None:
    """Where text after the last rule begins that is not the rule's: in a text document
    whose rules never go on past a blank line, what stands after a blank line past the
    last rule (`Converted to .txt form by …`) is no part of it. None when there is none."""
    numbered = [
        i for i in range(start, len(blocks)) if engine.numbering.match_start(blocks[i].text)
    ]
    last = numbered[-1]
    if last + 1 >= len(blocks) or not blocks[last + 1].after_gap:
        return None
    rules = set(numbered)
    if any(blocks[i].after_gap for i in range(start, last) if i not in rules):
        return None  # a rule of this document may have a paragraph after a blank line
    return last + 1
