"""Dates and the sentences that state a document's version: read leniently, rejected loudly.

A person reads `January 16, 2026`, `16 January 2026`, `Jan. 16 2026`,
`2026-01-16` and `2026-1-16` as one date, and `These rules are effective as of`
the same whatever its capitals, spacing or final full stop: all of those are
accepted. A statement whose words are there but whose date is not a date
(`Smarch 16`, `February 30`) is reported (`bad-date`), never guessed.

This is the one month table of the code base.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from pipeline.models import Line

# English month names, spelled out because strptime's %B follows the locale.
_NAMES = "january february march april may june july august september october november december"
MONTHS = {name: number for number, name in enumerate(_NAMES.split(), start=1)}
_ABBREVIATED = {name[:3]: number for name, number in MONTHS.items()} | {"sept": 9}
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?"
_WORDS = re.compile(rf"^([A-Za-z]+)\.?\s+{_ORDINAL},?\s+(\d{{4}})$")
_DAY_FIRST = re.compile(rf"^{_ORDINAL}\s+([A-Za-z]+)\.?,?\s+(\d{{4}})$")
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
# Dates as they stand inside a line, for pages that print one without a sentence around it.
DATE_IN_TEXT = re.compile(r"(?<![\d-])\d{4}-\d{1,2}-\d{1,2}(?![\d-])")


def month_number(word: str) -> int | None:
    word = word.lower()
    return MONTHS.get(word) or _ABBREVIATED.get(word)


def read_date(text: str) -> str | None:
    """An ISO date from one written date, or None when it is not one."""
    text = " ".join(text.strip().rstrip(".").split())
    year = month = day = None
    if match := _WORDS.match(text):
        month, day, year = month_number(match.group(1)), int(match.group(2)), int(match.group(3))
    elif match := _DAY_FIRST.match(text):
        day, month, year = int(match.group(1)), month_number(match.group(2)), int(match.group(3))
    elif match := _ISO.match(text):
        year, month, day = (int(g) for g in match.groups())
    elif match := _SLASHED.match(text):  # the US order, as the publishers who use it write it
        month, day, year = (int(g) for g in match.groups())
    if year is None or month is None or day is None:
        return None
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        return None


def compile_statement(template: str, version_pattern: str = r"\d+(?:\.\d+)*") -> re.Pattern[str]:
    """A template such as `These rules are effective as of {date}.` as a lenient regex.

    Words match whatever their case and the spacing between them; punctuation
    between words and at the end is optional. `{date}` takes the rest of the
    line (then checked by read_date), `{version}` the version pattern.
    """
    parts: list[tuple[str, str]] = []
    for piece in re.split(r"(\{date\}|\{version\})", template.strip()):
        if piece == "{date}":
            parts.append(("slot", r"(?P<date>.+?)"))
        elif piece == "{version}":
            parts.append(("slot", rf"(?P<version>{version_pattern})"))
        else:
            for token in re.findall(r"\w+|[^\w\s]", piece):
                word = token[0].isalnum() or token[0] == "_"
                parts.append(
                    ("word", re.escape(token)) if word else ("mark", f"{re.escape(token)}?")
                )
    out = ""
    for index, (kind, regex) in enumerate(parts):
        if index:
            out += r"\s+" if kind == "word" and parts[index - 1][0] == "word" else r"\s*"
        out += regex
    return re.compile(rf"(?<!\w){out}\s*[.;,]?$", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    """What the statement lines said: the version and the date (ISO; None if unreadable)."""

    lines: list[Line]
    version: str | None
    date: str | None
    date_text: str | None


def find_statement(lines: list[Line], patterns: list[re.Pattern[str]]) -> Statement | None:
    """Version and date from the first line that matches each statement (one may state the
    version, another the date), or None when no line matches any."""
    found: list[Line] = []
    groups: dict[str, str] = {}
    for pattern in patterns:
        for line in lines:
            match = pattern.search(line.text.strip())
            if match is not None:
                found.append(line)
                for key, value in match.groupdict().items():
                    groups.setdefault(key, value)
                break
    if not found:
        return None
    text = groups.get("date")
    date = read_date(text) if text else None
    return Statement(found, groups.get("version"), date, text)
