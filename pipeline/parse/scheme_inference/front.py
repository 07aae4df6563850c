"""What a document says around its rules: title, version and date statements, the labels
of examples and notes, the glyphs of list items, and the heading of its back matter.

Each is read from the document's own words: a statement is the line that
prints a version (`Ver. 1.6.0`, `This is version 1.4 of this document`) or
ends in a date (`Last Update: August 16th, 2017`), written back as a template
with `{version}` and `{date}` where the values stand; a label is a word that
opens several paragraphs followed by a colon (`Example:`, `Ex:`, `Note:`); a
list glyph opens several items followed by a space; the back matter starts at
a short heading after which the numbers go back to an earlier chapter (a list
of changes), or at the first heading after the last rule with text under it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.models.content import Line
from pipeline.models.scheme import FORMS
from pipeline.parse.numbered.engine import is_title
from pipeline.parse.numbered.layout import Block
from pipeline.parse.numbered.numbers import CJK, Numbering
from pipeline.parse.numbered.statements import (
    DATE_IN_TEXT,
    compile_statement,
    numeric_order,
    read_date,
)
from pipeline.parse.scheme_inference.numbering import CJK_ENDS

# `ver. 1.2`, `Version 3.1`, `バージョン1.2`, `版本 1.2`: glued to the Chinese or Japanese before
VERSION = re.compile(
    rf"(?<![^\W{CJK}])(?P<word>ver(?:sion)?\.?|バージョン|版本|버전)\s*(?P<v>\d+(?:\.\d+)+)(?![\d.]\d)",
    re.I,
)
LABEL = re.compile(r"^(?P<label>[^\W\d_]+(?: [^\W\d_]+)?)(?: \d+)?[:：]\s*\S")
INLINE_LABEL = re.compile(
    r"(?:(?<=[.!?])\s+|(?<=[。！？])\s*)(?P<label>[^\W\d_]+(?: [^\W\d_]+)?)(?: \d+)?[:：]\s*\S"
)
# The words of examples and notes in scripts whose labels do not start `Ex` or `Note`.
EXAMPLE_WORDS = frozenset({"例", "例示", "示例", "范例", "範例", "예", "예시"})
NOTE_WORDS = frozenset({"注", "注意", "注記", "備考", "补充", "참고"})
MIN_LABELS = 2
MIN_ITEMS = 3
LETTER = re.compile(r"[^\W\d_]")
NUMERIC_DATE = re.compile(r"(?<!\d)\d{4}\s*[/年]\s*\d{1,2}\s*[/月]\s*\d{1,2}(?!\d)")
OPENED = re.compile(r"[(\uff08\[][^)\uff09\]]*$")  # a bracket the line leaves open


CLOSING = ")]）】"


def date_at(text: str) -> tuple[int, int] | None:
    """Where the date a line ends with stands (the longest one; a closing bracket after it
    is not its own: `Version 3.1 (2024.02.16)`), or None."""
    for match in re.finditer(r"(?<!\S)\S|(?<=[(\[（【])\S", text):
        for end in (len(text), len(text.rstrip(CLOSING + " "))):
            if read_date(text[match.start() : end]) is not None:
                return match.start(), end
    return None


def statement_template(text: str) -> tuple[str, str | None] | None:
    """A line as a statement template, and the version it states; None when it states
    neither a version nor a readable date after some words of its own, or holds a brace
    (a template's braces are its slots: `{version}` printed in a line is no template)."""
    if "{" in text or "}" in text:
        return None
    version = VERSION.search(text)
    if version is not None:
        head = text[version.start() : version.start("v")]
        tail = text[version.end() :]
        at = date_at(tail)
        if at is not None:
            tail = tail[: at[0]] + "{date}" + tail[at[1] :]
        elif tail.strip(" .;,"):  # the version is not the end of the statement
            return None
        return head + "{version}" + tail, version.group("v")
    at = date_at(text)
    if at is None or not re.search(r"\w", text[: at[0]]):
        return None  # a date alone would match any line of the front matter
    return text[: at[0]] + "{date}" + text[at[1] :], None


@dataclass(frozen=True)
class Front:
    """The title, the statements (named forms of the engine's table, and templates of
    sentences in no form of it) and whether the date is the effective one."""

    title: str | None
    statements: list[str]
    forms: list[str]
    date_is: str


@dataclass(frozen=True)
class Stated:
    """A line that states the version or the date: its form's name or its template, what it
    states, and where the statement starts in the line."""

    form: str | None
    template: str
    version: bool
    at: int


def read_form(text: str) -> Stated | None:
    """The first statement form of the engine's table the line is written in (`Ver.1.2`,
    `最终更新日：2024/02/16`), when its date, if any, is a date."""
    for name, template in FORMS.items():
        match = compile_statement(template).search(text)
        if match is None or ("{date}" in template and read_date(match["date"]) is None):
            continue
        return Stated(name, template, "{version}" in template, match.start())
    return None


def read_stated(text: str) -> Stated | None:
    """The statement a line makes, in a form of the table, or as a template of its own where
    the line states more than the form reads (`This is version 1.4 of this document,
    effective 20 December 2019.` is more than `Effective: {date}`)."""
    form = read_form(text)
    found = statement_template(text)
    if found is None:
        return form
    states_version, dated = found[1] is not None, "{date}" in found[0]
    if (
        form is not None
        and form.version >= states_version
        and ("{date}" in form.template or not dated)
    ):
        return form
    at = VERSION.search(text)
    return Stated(None, found[0], states_version, at.start() if at is not None else 0)


def states_date(text: str) -> bool:
    """A date stands in the line (`1.2（2024-02-16）`), in a sentence or not."""
    return DATE_IN_TEXT.search(text) is not None or NUMERIC_DATE.search(text) is not None


def join_wrapped(front: Sequence[Block]) -> list[tuple[Block, str]]:
    """Each block with its text, a heading wrapped inside brackets (`… 1.2（2024-` then
    `02-16）`) read as one line, as a person reads it; the blocks it took are dropped."""
    joined: list[tuple[Block, str]] = []
    skip = False
    for index, block in enumerate(front):
        after = front[index + 1] if index + 1 < len(front) else None
        if skip:
            skip = False
            continue
        text = block.text.strip()
        if after is not None and OPENED.search(text):
            text, skip = text + after.text.strip(), True
        joined.append((block, text))
    return joined


def infer_front(front: Sequence[Block], skip: frozenset[int] = frozenset()) -> Front:
    """The statements of the blocks before the rules (the first line that states a version,
    the first that states a date) and the title: the first words a reader meets that are
    neither a statement nor a date, the words before a statement in a form of the table
    included (`Force of Will Comprehensive Rules ver. 7.0`); the heading of a table of
    contents (`skip`: its line numbers) only when nothing else is."""
    statements: list[str] = []
    forms: list[str] = []
    title: str | None = None
    heading: str | None = None  # the contents' heading: the title only if nothing else is
    candidates: list[tuple[Block, Stated]] = []
    for block, text in join_wrapped(front):
        found = read_stated(text)
        if found is None:
            if title is None and LETTER.search(text) and not states_date(text):
                if block.line in skip:
                    heading = heading or text
                else:
                    title = text
            continue
        before = text[: found.at].strip(" -\u2013\u2014:,")
        if title is None and found.form is not None and LETTER.search(before):
            title = before
        candidates.append((block, found))
    # one statement of each kind (the engine reads the first it finds): a form of the table
    # before a sentence of the document's own (`最终更新日：…` before a heading that happens
    # to end in a date)
    chosen = [
        next(iter(sorted((c for c in candidates if c[1].version is kind), key=by_form)), None)
        for kind in (True, False)
    ]
    stated = sorted((c for c in chosen if c is not None), key=lambda c: c[0].line)
    for _, found in stated:
        (forms if found.form is not None else statements).append(found.form or found.template)
    dates = [FORMS.get(s, s) for s in forms + statements if "{date}" in FORMS.get(s, s)]
    date_is = "effective" if dates and "effective" in dates[0].lower() else "published"
    title = title if title is not None else heading
    return Front(title, statements, forms, date_is)


def by_form(candidate: tuple[Block, Stated]) -> tuple[bool, int]:
    """Statements in a form of the table first, then by their place in the document."""
    return candidate[1].form is None, candidate[0].line


def infer_date_order(lines: Sequence[Line]) -> str | None:
    """The order of day and month the document's dates in numbers show (`25/11/2020`: day
    first), when every one that reads one way only agrees; None when none does or they
    disagree."""
    words = (word.strip("()[]（）,.;") for line in lines for word in line.text.split())
    orders = {order for word in words if "/" in word and (order := numeric_order(word))}
    return orders.pop() if len(orders) == 1 else None


def infer_labels(lines: Sequence[Line], numbering: Numbering) -> tuple[list[str], list[str]]:
    """Labels of examples (`Example:`, `Ex:`) and notes (`Note:`) that open paragraphs of
    the rules, as printed, each seen at least twice: at the start of a line, or after a
    sentence inside one (`… an automatic ability. Example: “At end of turn”`)."""
    counts: Counter[str] = Counter()
    for line in lines:
        text = line.text.strip()
        if numbering.match_start(text) is None and (match := LABEL.match(text)):
            counts[match.group("label")] += 1
        counts.update(found.group("label") for found in INLINE_LABEL.finditer(text))
    seen = sorted(label for label, n in counts.items() if n >= MIN_LABELS)
    examples = [lb for lb in seen if lb.casefold().startswith("ex") or lb in EXAMPLE_WORDS]
    notes = [lb for lb in seen if lb.casefold().startswith("note") or lb in NOTE_WORDS]
    return examples, notes


def infer_bullets(lines: Sequence[Line], numbering: Numbering) -> list[str]:
    """Glyphs that open list items: a symbol and a space at the start of a line or of a
    rule's text (`053.1. * Units and legends ...`), seen at least MIN_ITEMS times and
    followed by a space at least as often as not; a list glyph of no script's sentences
    (`・`, `●`), followed by a space or not."""
    spaced: Counter[str] = Counter()
    glued: Counter[str] = Counter()
    for line in lines:
        text = line.text.strip()
        start = numbering.match_start(text)
        text = start.rest if start is not None else text
        if len(text) > 2 and unicodedata.category(text[0])[0] in "PS":
            (spaced if text[1] == " " else glued)[text[0]] += 1
    return sorted(g for g in spaced.keys() | glued.keys() if opens_items(g, spaced[g], glued[g]))


# The punctuation of a sentence in any script: a line it opens is the rest of a sentence.
SENTENCE_MARKS = frozenset(".,;:!?") | frozenset(CJK_ENDS)


def read_as_word(glyph: str) -> bool:
    """A sign a reader reads as a word, never as a list's mark: `©`, `™`, `%`, `+` (their
    Unicode names end in SIGN), a mathematical symbol such as `∞` or `±` (arrows aside,
    which do mark items)."""
    name = unicodedata.name(glyph, "")
    arrow = "ARROW" in name
    return name.endswith(" SIGN") or (unicodedata.category(glyph) == "Sm" and not arrow)


def opens_items(glyph: str, spaced: int, glued: int) -> bool:
    """A glyph opens list items: seen often enough, followed by a space at least as often as
    not; one of no sentence's or number's marks (`・`, `●`) glued to its item too
    (`・5-21. Added`). An opening bracket or quote starts a sentence, not an item; a
    sentence's own punctuation (`、` at the start of a wrapped Japanese line) and a sign
    read as a word open none."""
    if glyph in "([{\"'\u201c\u2018" or glyph in SENTENCE_MARKS or read_as_word(glyph):
        return False
    if spaced >= MIN_ITEMS and spaced >= glued:
        return True
    symbol = not glyph.isascii() and unicodedata.category(glyph) in ("Po", "So")
    return symbol and spaced + glued >= MIN_ITEMS


@dataclass(frozen=True)
class BackMatter:
    """Where the rules end: the heading after them (its block), and whether a scheme can
    declare it (`ends`): the engine looks for it from the first numbered line after the
    contents, so a heading the rules' own text has before it would end the rules there."""

    heading: Block
    declared: bool
    ends: str  # as `ends` declares it: a heading that states a version, as a template


def heading_form(text: str) -> str:
    """A heading as `ends` declares it: one that states a version (a change log's latest
    entry, `Ver. 1.6.0 (April 9, 2026) Update`) as a template with `{version}` and `{date}`,
    so the next release's heading ends its rules too; any other as written."""
    version = VERSION.search(text)
    if version is None:
        return text
    text = text[: version.start("v")] + "{version}" + text[version.end("v") :]
    spans = [m.span() for m in re.finditer(r"[^\s()\[\]\uff08\uff09]+", text)]
    for start, _ in spans:
        for _, end in reversed(spans):
            if end > start and read_date(text[start:end]) is not None:
                return text[:start] + "{date}" + text[end:]
    return text


def states_version(block: Block) -> bool:
    """A line stating a version and a date (`Ver. 1.6.0 (April 9, 2026) Update`): a change
    log entry's heading, whatever the size it is set in."""
    return VERSION.search(block.text) is not None and "{date}" in heading_form(block.text)


def top_ordinal(numbering: Numbering, number: str) -> int:
    parts = numbering.segments(number) or [number]
    return numbering.ordinal(0, parts[0])


def back_heading(blocks: Sequence[Block], numbered: list[int], numbering: Numbering) -> int | None:
    """The heading of the back matter: a short unnumbered line after which the numbers go
    back to an earlier chapter (a list of changes citing rules), or else the first heading
    after the last number with text under it."""
    peak, previous = 0, numbered[0]
    for index in numbered:
        start = numbering.match_start(blocks[index].text)
        ordinal = top_ordinal(numbering, start.number) if start is not None else 0
        # `(see 9-1-` then `7) that can …`: a number broken over the line, no chapter
        broken = index and blocks[index - 1].text.rstrip().endswith(("-", "\u2013"))
        if ordinal < peak - 1 and not broken:
            between = [i for i in range(previous + 1, index) if is_title(blocks[i].text)]
            return between[0] if between else None
        peak, previous = max(peak, ordinal), index
    after = range(numbered[-1] + 1, len(blocks) - 1)
    return next(
        (
            i
            for i in after
            if is_title(blocks[i].text)
            and (blocks[i].heading is not False or states_version(blocks[i]))
        ),
        None,
    )


def infer_back_matter(
    blocks: Sequence[Block], numbering: Numbering, contents: set[int]
) -> BackMatter | None:
    """The back matter's heading, looked for after the tables of contents (`contents`: their
    line numbers)."""
    numbered = [i for i, b in enumerate(blocks) if numbering.match_start(b.text) is not None]
    body = [i for i in numbered if blocks[i].line not in contents]
    if not body or (heading := back_heading(blocks, body, numbering)) is None:
        return None
    if "{" in blocks[heading].text or "}" in blocks[heading].text:
        return None  # braces would read as a template's slots: no `ends` can declare it
    # The engine skips the contents before it looks for `ends`, so a heading the contents
    # list too is declared as well; one the rules' own text repeats before it is not.
    ends = heading_form(blocks[heading].text)
    pattern = compile_statement(ends) if "{" in ends else None
    first = next(
        i
        for i in range(body[0], len(blocks))
        if (pattern.match(blocks[i].text) if pattern else blocks[i].text.lower() == ends.lower())
    )
    return BackMatter(blocks[heading], declared=first == heading, ends=ends)
