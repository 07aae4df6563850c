"""Dates and the sentences that state a document's version: read leniently, rejected loudly.

A person reads `January 16, 2026`, `16 January 2026`, `Jan. 16 2026`,
`2026-01-16`, `2026-1-16`, `20260116`, `2026/01/16` and `2026年1月16日` as one date, and
`These rules are effective as of` the same whatever its capitals, spacing or final full
stop: all are accepted.
A statement whose words are there but whose date is not a date (`Smarch 16`,
`February 30`) is reported (`bad-date`), never guessed. The one month table of
the code base is here; the statement forms publishers use are `models.scheme.FORMS`, which
a registry entry names (`statement_forms`) instead of writing their templates again.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Literal

from pipeline.models.content import Line
from pipeline.models.records import Location, PublisherNote, WarningCode, text_digest
from pipeline.parse.numbered.numbers import CJK

# English month names, spelled out because strptime's %B follows the locale.
_NAMES = "january february march april may june july august september october november december"
MONTHS = {name: number for number, name in enumerate(_NAMES.split(), start=1)}
_NAMED = MONTHS | {name[:3]: number for name, number in MONTHS.items()} | {"sept": 9}
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_FORMS = [  # (pattern, order of year, month, day in its groups)
    (re.compile(rf"^([A-Za-z]+)\.?\s+{_DAY},?\s+(\d{{4}})$"), (2, 0, 1)),
    (re.compile(rf"^{_DAY}\s+([A-Za-z]+)\.?,?\s+(\d{{4}})$"), (2, 1, 0)),
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$"), (0, 1, 2)),
    (re.compile(r"^(\d{4})(\d{2})(\d{2})$"), (0, 1, 2)),  # ISO's basic form, 20251114
    (re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$"), (0, 1, 2)),  # year first: East Asian
    (re.compile(r"^(\d{4})\.(\d{1,2})\.(\d{1,2})$"), (0, 1, 2)),  # year first, dotted
    (re.compile(r"^(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日$"), (0, 1, 2)),
]
# Day and month as numbers before the year: `25/11/2020` is day first, `11/25/2020` month
# first, and `06/11/2020` either, which only the scheme's `date_order` decides.
NUMERIC_DAY_MONTH = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
DateOrder = Literal["mdy", "dmy"]


# A date standing inside a line, for title pages that print one without a sentence.
DATE_IN_TEXT = re.compile(r"(?<![\d-])\d{4}-\d{1,2}-\d{1,2}(?![\d-])")


def numeric_order(text: str) -> DateOrder | None:
    """The order a date written in numbers day and month first shows by its values: `dmy`
    for `25/11/2020`, `mdy` for `11/25/2020`; None for any other text, and for a date that
    reads either way (`06/11/2020`)."""
    match = NUMERIC_DAY_MONTH.match(" ".join(text.strip().rstrip(".").split()))
    if match is None:
        return None
    first, second = int(match.group(1)), int(match.group(2))
    if first > 12 >= second:
        return "dmy"
    return "mdy" if second > 12 >= first else None


def ambiguous_date(text: str) -> bool:
    """A date that reads as two days (`06/11/2020`: 6 November or 11 June)."""
    match = NUMERIC_DAY_MONTH.match(" ".join(text.strip().rstrip(".").split()))
    return match is not None and match.group(1) != match.group(2) and numeric_order(text) is None


def read_date(text: str, order: DateOrder | None = "mdy") -> str | None:
    """An ISO date from one written date, or None when it is not one. Day and month in
    numbers are read by their values when only one order gives a date, and by `order`
    otherwise (None: such a date is not read)."""
    text = " ".join(text.strip().rstrip(".").split())
    if match := NUMERIC_DAY_MONTH.match(text):
        shown = numeric_order(text) or order
        if shown is None and ambiguous_date(text):
            return None
        day_at, month_at = (1, 2) if shown == "dmy" else (2, 1)
        try:
            return datetime.date(
                int(match.group(3)), int(match.group(month_at)), int(match.group(day_at))
            ).isoformat()
        except ValueError:
            return None
    for pattern, (y, m, d) in _FORMS:
        if match := pattern.match(text):
            year, month, day = match.group(y + 1), match.group(m + 1), match.group(d + 1)
            number = int(month) if month.isdigit() else _NAMED.get(month.lower())
            try:
                return datetime.date(int(year), number or 0, int(day)).isoformat()
            except ValueError:
                return None
    return None


def compile_statement(template: str, version_pattern: str = r"\d+(?:\.\d+)*") -> re.Pattern[str]:
    """A template such as `These rules are effective as of {date}.` as a lenient regex.

    Words match whatever their case and the spacing between them; punctuation is
    optional. `{date}` takes the rest of the line (then checked by read_date),
    `{version}` the version pattern.
    """
    parts: list[tuple[str, str]] = []
    for piece in re.split(r"(\{date\}|\{version\})", template.strip()):
        if piece in ("{date}", "{version}"):
            slot = r".+?" if piece == "{date}" else version_pattern
            parts.append(("slot", f"(?P<{piece[1:-1]}>{slot})"))
        for token in re.findall(r"\w+|[^\w\s]", piece) if piece[:1] != "{" else ():
            word = token[0].isalnum() or token[0] == "_"
            parts.append(("word", re.escape(token)) if word else ("mark", f"{re.escape(token)}?"))
    out = ""
    for index, (kind, regex) in enumerate(parts):
        if index:
            out += r"\s+" if kind == "word" == parts[index - 1][0] else r"\s*"
        out += regex
    # a statement may follow Chinese or Japanese with no space (`総合ルールver.1.24.1`); the
    # class is case-blind already, and compiling it case-insensitively folds each of its
    # 28,000 characters (milliseconds a pattern)
    return re.compile(rf"(?-i:(?<![^\W{CJK}])){out}\s*[.;,]?$", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    """What the statement lines said: the version and the date (ISO; None if unreadable)."""

    lines: list[Line]
    version: str | None
    date: str | None
    date_text: str | None


def find_statement(
    lines: list[Line], patterns: list[re.Pattern[str]], order: DateOrder | None = "mdy"
) -> Statement | None:
    """Version and date from the first line that matches each statement (one may state the
    version, another the date), or None when no line matches any. `order`: how a date
    that reads both ways is read (None: it is not)."""
    found: list[Line] = []
    groups: dict[str, str] = {}
    for pattern in patterns:
        for line in lines:
            if match := pattern.search(line.text.strip()):
                found.append(line)
                groups = match.groupdict() | groups  # a value already stated stays
                break
    text = groups.get("date")
    return (
        Statement(found, groups.get("version"), text and read_date(text, order), text)
        if found
        else None
    )


def ambiguous_date_note(text: str, lines: list[Line]) -> PublisherNote:
    """The publisher's date that reads as two days (`lines`: the statement's): noted, never
    guessed."""
    line = next((ln for ln in lines if text.strip() in ln.text), lines[0])
    message = (
        f"the date {text.strip()!r} may be day/month or month/day and is not read; the "
        'scheme\'s date_order ("dmy" or "mdy") says which'
    )
    location = Location(line=line.line, page=line.page)
    return PublisherNote(
        code=WarningCode.AMBIGUOUS_DATE, record="front_matter", field="statement",
        text=text.strip(), message=message, digest=text_digest(line.text), location=location,
    )  # fmt: skip
