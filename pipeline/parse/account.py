"""The account of every number: no rule is lost without a warning that names it.

After a numbered document is parsed, this reads the same extracted lines again, on its
own (never the parser's paragraphs or its splitting), and finds every token of the
document's number shape (its scheme's levels) that stands where a rule could start: at
a line's start, after a sentence's end, or after a heading set on the same line
(`1.1. Players 1.1.1. This game is …`). Each must be a record, a citation, or inside
the document's declared front or back matter or glossary, a list or the page
furniture (a page number alone on its line). Any other is an `unaccounted-number`
warning naming the number and the line.

A gap in a sibling sequence is a warning too when the text holds the missing number
anywhere but in a citation: 6.7 has no 6.7.1, or 6.7.2 is missing between 6.7.1 and
6.7.3, yet a line holds `6.7.1`. A gap the text never holds is the publisher's (counted
as `numbering_gaps` by the parser, never a warning here).

The number shape is the scheme each numbered family declares (its `SCHEME`, or the
registry entry's for family `numbered`): a new family is accounted for by declaring it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.models.content import Line
from pipeline.models.records import Document, Location, ParseWarning, Rule, WarningCode
from pipeline.models.scheme import NumberedScheme
from pipeline.parse.numbered.numbers import CJK, Numbering
from pipeline.parse.numbered.runin import CLOSERS, HEADING_WORDS, MARKS, STOPS

# a heading is a few words, or (Chinese, Japanese: no spaces part them) a few dozen characters
HEADING_CHARACTERS = 72
# What stands before a number that is cited, not a rule: a citing word, a bracket, a list
# separator, a range's dash (`see 6.7.1`, `[1.0.1a]`, `rules 601.2a, 601.2b`, `（10.5.1）`).
CITING_WORDS = (
    "see|rule|rules|section|sections|and|or|to|through|in|under|per|of|with|from|by|at|as|"
    "also|than|following|preceding|step|steps|paragraph|paragraphs|item|items"
)
CITING = re.compile(
    rf"(?:\b(?:{CITING_WORDS})|[(\[（［「『〈《,、，–—\-/&+]|参照|参见|参考|詳細|详细)\s*$",
    re.IGNORECASE,
)


# The parser's warnings that say a printed number was not read as a rule (`… do not pair
# with certainty; not parsed: 103.2, …`): a number they name is not lost in silence. A
# citation of a missing rule (`dangling-reference`) says nothing of where its text went.
SAYS_UNREAD = frozenset(
    {WarningCode.UNALIGNED_NUMBERS, WarningCode.NUMBERING, WarningCode.DUPLICATE_ID}
)


@dataclass(frozen=True)
class Token:
    """A number as it stands in a line: `number` is the whole number, or (`own`) only the
    segment a level printed `own` shows (`a.`); `place` says where it stands."""

    number: str
    line: Line
    column: int
    marked: bool
    place: str  # "line-start", "sentence-end", "heading", "sentence"
    own: bool = False


class Shape:
    """A scheme's numbers, as a reader finds them in running text: with or without the
    mark after them, wherever they stand."""

    def __init__(self, scheme: NumberedScheme) -> None:
        self.numbering = Numbering(scheme)
        cited = self.numbering.cited()
        # A number: not glued to a word, a number or a dot before it; not going on into a
        # longer number (`1.2.3.4` where three levels are all there is) or a word after it.
        # (where numbers start with a digit, only a digit is tried: one character class
        # costs less than the lookbehind at every position)
        lead = r"(?=\d)" if scheme.levels[0].segment == "digits" else ""
        self.full = re.compile(
            rf"{lead}(?<![0-9A-Za-z.．\-_/])(?P<n>{cited})(?![0-9A-Za-z])(?![.．\-]\d)"
            rf"(?P<mark>[{MARKS}](?![0-9]))?"
        )
        owns = [level for level in scheme.levels if level.printed == "own"]
        patterns = {_own_segment(level.segment, level.width) for level in owns}
        own = "|".join(sorted(patterns))
        marks = "".join(sorted({_MARK_OF.get(level.dot, ".．") for level in owns}))
        self.own = re.compile(rf"^\s*(?P<n>{own})[{marks}](?=\s|$|[{CJK}])") if own else None
        # where the first level prints only its own segment, a number alone is an own one
        self.least = 1 if scheme.levels[0].printed == "own" else 0
        # the segments a level starts from (`0` where FaB numbers a chapter's first section)
        self.zero = [False] * len(scheme.levels)
        self.heading = re.compile(rf"^\s*(?:{cited}|{own or '(?!)'})[{MARKS}]?\s+(?P<title>.+)$")

    def tokens(self, lines: Iterable[Line]) -> Iterable[Token]:
        for line in lines:
            text = line.text
            if self.own is not None and (own := self.own.match(text)):
                yield Token(own.group("n"), line, own.start("n"), True, "line-start", own=True)
            for found in self.full.finditer(text):
                segments = self.numbering.segments(found.group("n"))
                if segments is None or len(segments) <= self.least:
                    continue
                if segments[-1] == "0" and not self.zero[len(segments) - 1]:
                    continue  # `Nerine 2.0`: a name's version, where no level counts from 0
                place = self.place_of(text[: found.start()])
                yield Token(found.group("n"), line, found.start(), bool(found.group("mark")), place)

    def place_of(self, before: str) -> str:
        before = before.rstrip()
        if not before:
            return "line-start"
        if before.rstrip(CLOSERS).endswith(STOPS):
            return "sentence-end"
        heading = self.heading.match(before)
        title = heading.group("title") if heading else ""
        short = len(title.split()) <= HEADING_WORDS and len(title) <= HEADING_CHARACTERS
        if heading and short and not any(stop in title for stop in STOPS):
            return "heading"
        return "sentence"


_MARK_OF = {"paren": ")）", "none": ".．)）"}


def _own_segment(segment: str, width: int | None) -> str:
    return {
        "digits": rf"\d{{{width}}}" if width else r"\d{1,3}",
        "letter": "[a-z]",
        "roman": "[ivx]+",
        "upper": "[A-Z]",
        "digits-or-upper": r"(?:\d{1,3}|[A-Z])",
    }[segment]


# Where a line stands: its page (0 without pages) and its line. A rules site numbers each
# page's lines from 1; a PDF's lines are numbered through the document, so page and line
# order them alike.
Spot = tuple[int, int]


def spot(line: Line) -> Spot:
    return (line.page or 0, line.line)


def first_spot(at: Location) -> Spot:
    return (at.page or 0, at.line)


def last_spot(at: Location) -> Spot:
    if at.end_line is None:
        return first_spot(at)
    return (at.end_page or at.page or 0, at.end_line)


@dataclass
class Ledger:
    """What a document accounts for: its records, by number and by first line, and the
    lines of its declared matter."""

    numbers: set[str]
    starts: dict[Spot, set[str]]  # numbers and own segments of the records starting there
    declared: list[tuple[Spot, Spot]]  # spans of front and back matter and glossary
    first_lines: list[Spot]  # records' first lines, in order, with `open` beside them
    open: list[Rule]
    warned: set[str]  # numbers the parser's warnings name

    def is_declared(self, at: Spot) -> bool:
        if not self.first_lines or at < self.first_lines[0]:
            return True  # before the first rule: the title page, statements, contents
        found = bisect_right(self.declared, (at, (at[0], at[1] + 1)))
        return found > 0 and self.declared[found - 1][1] >= at

    def record_at(self, at: Spot) -> Rule | None:
        """The record whose text a line sits in: the last to start at or before it."""
        found = bisect_right(self.first_lines, at)
        return self.open[found - 1] if found else None


def merged(spans: Iterable[tuple[Spot, Spot]]) -> list[tuple[Spot, Spot]]:
    """Spans, overlapping ones joined, in order: searched by bisection."""
    out: list[tuple[Spot, Spot]] = []
    for first, last in sorted(spans):
        if out and first <= (out[-1][1][0], out[-1][1][1] + 1):
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def ledger_of(doc: Document, shape: Shape) -> Ledger:
    numbering = shape.numbering
    starts: dict[Spot, set[str]] = {}
    for record in doc.records:
        segments = numbering.segments(record.number) or [record.number]
        at = first_spot(record.location)
        starts.setdefault(at, set()).update({record.number, segments[-1]})
    spans = [p.location for p in (*doc.front_matter, *doc.back_matter)]
    spans += [term.location for term in doc.glossary]
    ordered = sorted(doc.records, key=lambda r: first_spot(r.location))
    return Ledger(
        numbers={r.number for r in doc.records},
        starts=starts,
        declared=merged((first_spot(at), last_spot(at)) for at in spans),
        first_lines=[first_spot(r.location) for r in ordered],
        open=ordered,
        warned={
            m.group("n")
            for w in doc.warnings
            if w.code in SAYS_UNREAD
            for m in shape.full.finditer(w.message)
        },
    )


def missing_numbers(doc: Document, numbering: Numbering) -> dict[str, str]:
    """Numbers a sibling sequence lacks, each with what it is missing beside: those
    between two siblings or before the first of them, and the first child of a record
    that has none (`6.7.1` where 6.7 has no rule under it)."""
    numbers = {r.number for r in doc.records}
    children: dict[tuple[str | None, int], dict[int, list[str]]] = {}
    for record in doc.records:
        segments = numbering.segments(record.number) or []
        parent, level = numbering.parent_of(record.number), len(segments) - 1
        if segments and (parent is None or parent in numbers):
            position = numbering.ordinal(level, segments[-1])
            children.setdefault((parent, level), {})[position] = segments
    missing: dict[str, str] = {}
    for (_, level), kids in children.items():
        present = sorted(kids)
        for position in range(1, present[-1]):
            if position in kids:
                continue
            after = next(p for p in present if p > position)
            segments = kids[after]
            candidate = _nth(numbering, level, position, segments[-1])
            full = numbering.join([*segments[:-1], candidate]) if candidate else ""
            if full and full not in numbers:
                missing.setdefault(full, f"before {numbering.join(segments)}")
    parents = {parent for parent, _ in children}
    for record in doc.records:
        segments = numbering.segments(record.number) or []
        level = len(segments)
        if level < len(numbering.levels) and record.number not in parents:
            first = numbering.join([*segments, numbering.first(level)])
            if first not in numbers and numbering.levels[level].printed == "full":
                missing.setdefault(first, f"under {record.number}, which has no rule under it")
    return missing


def _nth(numbering: Numbering, level: int, position: int, like: str) -> str:
    if like.isdigit():
        return str(position) if not numbering.levels[level].width else ""
    sequence = numbering.sequence(level)
    return sequence[position - 1] if position <= len(sequence) else ""


def account_numbers(doc: Document, lines: list[Line], scheme: NumberedScheme) -> list[ParseWarning]:
    """The `unaccounted-number` warnings of a parsed document, read from its lines."""
    if not doc.records:
        return []
    shape = Shape(scheme)
    numbering = shape.numbering
    for record in doc.records:
        for level, segment in enumerate(numbering.segments(record.number) or []):
            shape.zero[level] = shape.zero[level] or segment == "0"
    ledger = ledger_of(doc, shape)
    missing = missing_numbers(doc, numbering)
    previous: dict[Spot, str] = {}
    last = ""
    for line in lines:
        previous[spot(line)] = last
        last = line.text.rstrip() or last
    warnings: list[ParseWarning] = []
    steps: dict[str, str] = {}  # the last step of a list in each record
    for token in shape.tokens(lines):
        problem = unaccounted(token, ledger, missing, shape, previous, steps)
        if problem is not None:
            at = Location(line=token.line.line, page=token.line.page)
            code = WarningCode.UNACCOUNTED_NUMBER
            warnings.append(ParseWarning(code=code, message=problem, location=at))
    return warnings


def unaccounted(
    token: Token,
    ledger: Ledger,
    missing: dict[str, str],
    shape: Shape,
    previous: dict[Spot, str],
    steps: dict[str, str],
) -> str | None:
    """Why the token is no record, citation or declared matter, or None when it is one."""
    number, line = token.number, spot(token.line)
    if ledger.is_declared(line) or number in ledger.starts.get(line, ()):
        return None
    if number in ledger.warned:
        return None  # the parser's own warning names it already
    if token.own:
        if number in ledger.numbers or number in ledger.starts.get((line[0], line[1] + 1), ()):
            return None  # a chapter's running head; a number set on a line of its own
        full = lost_own(token, ledger, shape, steps)
        return describe(token, "", full) if full is not None else None
    if number in ledger.numbers:
        return None  # the rule is there: this is a citation or a contents entry of it
    before = token.line.text[: token.column]
    if CITING.search(before) or (token.place == "line-start" and cites(previous[line])):
        return None
    gap = missing.get(number)
    if token.place == "sentence":
        # a bare `2` or `A` in a sentence is a word or a count; a dotted one may be a rule
        dotted = shape.numbering.parent_of(number) is not None
        return describe(token, f"missing {gap}") if gap and dotted else None
    if not plausible(token, ledger, shape, gap):
        return None
    return describe(token, f"missing {gap}" if gap else "")


def cites(previous: str) -> bool:
    """A line start that goes on from a citing word on the line before (`see\n6.7.1`)."""
    return bool(CITING.search(previous))


def plausible(token: Token, ledger: Ledger, shape: Shape, gap: str | None) -> bool:
    """A number a reader takes for a rule's: one whose parent is a rule, a first-level
    number printed with its level's mark or next in its sequence, never a page number
    alone on its line."""
    numbering = shape.numbering
    parent = numbering.parent_of(token.number)
    if parent is not None:
        return parent in ledger.numbers or gap is not None
    if not token.marked:
        # `2 players`, `A constructed format`, a page number alone: words and furniture,
        # unless the number is the missing one and a heading's capital follows it
        after = token.line.text[token.column + len(token.number) :].lstrip()
        return gap is not None and token.number.isdigit() and after[:1].isupper()
    return not in_list(token, ledger)


def in_list(token: Token, ledger: Ledger) -> bool:
    """A first-level number inside a rule's text: a step of a numbered list (`1. If …`)."""
    record = ledger.record_at(spot(token.line))
    return record is not None and record.depth > 1


def lost_own(token: Token, ledger: Ledger, shape: Shape, steps: dict[str, str]) -> str | None:
    """The whole number a segment printed alone (`c.`) that opens no record stands for,
    when it is a rule lost: the open record's first child, its next sibling or a sibling
    further on (`c.` after `a.` where `b.` is gone). None when it is a step of a list
    inside the record it stands in (`1.`, then `2.`, ...: `steps` holds each record's
    last step), or stands before the first rule."""
    record = ledger.record_at(spot(token.line))
    if record is None:
        return None
    numbering = shape.numbering
    segments = numbering.segments(record.number) or []
    step = steps.get(record.number)
    level = len(segments) - 1
    if level + 1 < len(numbering.levels) and token.number == numbering.first(level + 1):
        return numbering.join([*segments, token.number])
    if token.number == (numbering.successor(level, step) if step else None) or (
        step is None and token.number in ("1", "a", "i", "A")
    ):
        steps[record.number] = token.number
        return None
    own = segments[-1] if segments else ""
    same_kind = own.isdigit() == token.number.isdigit()
    ahead = numbering.ordinal(level, token.number) > numbering.ordinal(level, own)
    return numbering.join([*segments[:-1], token.number]) if own and same_kind and ahead else None


def describe(token: Token, why: str, full: str | None = None) -> str:
    where = {
        "line-start": "at the start of the line",
        "sentence-end": "after a sentence's end",
        "heading": "after a heading on the same line",
        "sentence": "inside a sentence",
    }[token.place]
    text = token.line.text.strip()
    context = text if len(text) <= 80 else text[:77] + "..."
    reason = f" ({why})" if why else ""
    return (
        f"{full or token.number}{f' (printed {token.number}.)' if full else ''} stands {where} "
        f"on line {token.line.line}{reason} but is no rule, "
        f"citation or declared matter: a rule may be lost in {context!r}"
    )


def account_document(doc: Document, lines: list[Line], scheme: NumberedScheme) -> Document:
    """The document with the account's warnings after its own."""
    found = account_numbers(doc, lines, scheme)
    return doc.model_copy(update={"warnings": [*doc.warnings, *found]}) if found else doc
