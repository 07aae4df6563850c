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
from pipeline.parse.numbered.engine import is_title
from pipeline.parse.numbered.layout import Block
from pipeline.parse.numbered.numbers import Numbering
from pipeline.parse.numbered.statements import read_date

VERSION = re.compile(r"(?<!\w)(?P<word>ver(?:sion)?\.?)\s*(?P<v>\d+(?:\.\d+)+)(?![\d.]\d)", re.I)
LABEL = re.compile(r"^(?P<label>[^\W\d_]+(?: [^\W\d_]+)?)(?: \d+)?:\s*\S")
MIN_LABELS = 2
MIN_ITEMS = 3
MAX_STATEMENTS = 3


def date_at(text: str) -> int | None:
    """Where the date a line ends with starts (the longest one), or None."""
    for match in re.finditer(r"(?<!\S)\S", text):
        if read_date(text[match.start() :]) is not None:
            return match.start()
    return None


def statement_template(text: str) -> tuple[str, str | None] | None:
    """A line as a statement template, and the version it states; None when it states
    neither a version nor a readable date after some words of its own."""
    version = VERSION.search(text)
    if version is not None:
        head = text[version.start() : version.start("v")]
        tail = text[version.end() :]
        at = date_at(tail)
        if at is not None:
            tail = tail[:at] + "{date}"
        elif tail.strip(" .;,"):  # the version is not the end of the statement
            return None
        return head + "{version}" + tail, version.group("v")
    at = date_at(text)
    if at is None or not re.search(r"\w", text[:at]):
        return None  # a date alone would match any line of the front matter
    return text[:at] + "{date}", None


@dataclass(frozen=True)
class Front:
    """The title, the statements and the lines they were read from."""

    title: str | None
    statements: list[str]
    date_is: str
    stated: list[Block]


def infer_front(front: Sequence[Block]) -> Front:
    """Statements from the blocks before the rules (the first that states a version, and the
    lines that end in a date), and the title: the first block that is neither."""
    statements: list[str] = []
    stated: list[Block] = []
    has_version = False
    for block in front:
        found = statement_template(block.text.strip())
        if found is None or (found[1] is not None and has_version):
            continue
        if len(statements) < MAX_STATEMENTS:
            statements.append(found[0])
            stated.append(block)
            has_version = has_version or found[1] is not None
    title = next(
        (b.text.strip() for b in front if b not in stated and re.search(r"[^\W\d_]", b.text)),
        None,
    )
    dates = [s for s in statements if "{date}" in s]
    date_is = "effective" if dates and "effective" in dates[0].lower() else "published"
    return Front(title, statements, date_is, stated)


def infer_labels(lines: Sequence[Line], numbering: Numbering) -> tuple[list[str], list[str]]:
    """Labels of examples (`Example:`, `Ex:`) and notes (`Note:`) that open paragraphs of
    the rules, as printed, each seen at least twice."""
    counts: Counter[str] = Counter()
    for line in lines:
        text = line.text.strip()
        if numbering.match_start(text) is None and (match := LABEL.match(text)):
            counts[match.group("label")] += 1
    seen = sorted(label for label, n in counts.items() if n >= MIN_LABELS)
    examples = [label for label in seen if label.casefold().startswith("ex")]
    notes = [label for label in seen if label.casefold().startswith("note")]
    return examples, notes


def infer_bullets(lines: Sequence[Line], numbering: Numbering) -> list[str]:
    """Glyphs that open list items: a symbol and a space at the start of a line or of a
    rule's text (`053.1. * Units and legends ...`), seen at least MIN_ITEMS times and
    followed by a space at least as often as not (`・5-21. Added` lists a number)."""
    spaced: Counter[str] = Counter()
    glued: Counter[str] = Counter()
    for line in lines:
        text = line.text.strip()
        start = numbering.match_start(text)
        text = start.rest if start is not None else text
        if len(text) > 2 and unicodedata.category(text[0])[0] in "PS":
            (spaced if text[1] == " " else glued)[text[0]] += 1
    # an opening bracket or quote starts a sentence, not an item
    return sorted(
        g
        for g, n in spaced.items()
        if n >= MIN_ITEMS and n >= glued[g] and g not in "([{\"'\u201c\u2018"
    )


@dataclass(frozen=True)
class BackMatter:
    """Where the rules end: the heading after them (its block), and whether a scheme can
    declare it (`ends`): the engine looks for it from the first numbered line after the
    contents, so a heading the rules' own text has before it would end the rules there."""

    heading: Block
    declared: bool


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
        if ordinal < peak - 1:
            between = [i for i in range(previous + 1, index) if is_title(blocks[i].text)]
            return between[0] if between else None
        peak, previous = max(peak, ordinal), index
    after = range(numbered[-1] + 1, len(blocks) - 1)
    return next(
        (i for i in after if is_title(blocks[i].text) and blocks[i].heading is not False), None
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
    # The engine skips the contents before it looks for `ends`, so a heading the contents
    # list too is declared as well; one the rules' own text repeats before it is not.
    text = blocks[heading].text.lower()
    first = next(
        i for i in body_range(numbered, contents, blocks) if blocks[i].text.lower() == text
    )
    return BackMatter(blocks[heading], declared=first == heading)


def body_range(numbered: list[int], contents: set[int], blocks: Sequence[Block]) -> range:
    """The blocks from the first numbered line outside the contents to the end."""
    body = next(i for i in numbered if blocks[i].line not in contents)
    return range(body, len(blocks))
