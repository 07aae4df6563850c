"""Netrunner CR helpers: references in prose, the title page and its Summary of Changes.

The NISEI documents cite rules in prose: `rule 9.11.2c`, `section 6.8.2`,
`step 6.9.3b`, `Rule 1.10.3c`, plural lists such as `rules 1.15.4a and
1.15.4b`, and letter-only continuations such as `rules 9.2.7b, c, and d`
(meaning 9.2.7b, 9.2.7c and 9.2.7d).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from pipeline.models import Line, Location, Passage, PublisherChange
from pipeline.parse.common import slugify

_NUMBER = r"\d+(?:\.\d+)*[a-z]?"
_LETTER = r"[a-z]\b(?!\.\d)"
_SEPARATOR = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s+through\s+)"
REFERENCE_RE = re.compile(
    rf"\b(?:rules?|sections?|steps?)\s+((?:{_NUMBER})(?:{_SEPARATOR}(?:{_NUMBER}|{_LETTER}))*)",
    re.IGNORECASE,
)
_SEPARATOR_RE = re.compile(_SEPARATOR, re.IGNORECASE)
VERSION_RE = re.compile(
    r"This is version (?P<version>\d+(?:\.\d+)*) of this document, effective (?P<date>[^.]+?)\.?$"
)
BULLET_RE = re.compile(r"^[●•○]\s*(?P<text>.*)$")
_MONTHS = {
    name: number
    for number, name in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}


def find_references(text: str) -> list[str]:
    """Citation ids named in prose, in order of first appearance, without duplicates."""
    found: list[str] = []
    for match in REFERENCE_RE.finditer(text):
        stem = ""
        for item in _SEPARATOR_RE.split(match.group(1)):
            item = item.strip()
            if item[0].isdigit():
                number = item
                stem = item[:-1] if item[-1].isalpha() else item
            elif stem:
                number = stem + item
            else:
                continue
            ident = f"cr:{number}"
            if ident not in found:
                found.append(ident)
    return found


def parse_date(text: str) -> str | None:
    """'20 December 2019' or 'November 16, 2018' -> ISO date; None if neither form."""
    words = re.findall(r"[A-Za-z]+|\d+", text)
    if len(words) != 3:
        return None
    if words[0].isdigit():
        day, month, year = words
    else:
        month, day, year = words
    number = _MONTHS.get(month.lower())
    if number is None or not (day.isdigit() and year.isdigit()):
        return None
    try:
        return date(int(year), number, int(day)).isoformat()
    except ValueError:
        return None


def join_wrapped(parts: list[str]) -> str:
    """Soft-wrapped lines joined with a space; a line ending in a hyphen joins without one."""
    out = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if not out:
            out = part
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha():
            out += part
        else:
            out += " " + part
    return out


@dataclass
class FrontMatter:
    title: str | None = None
    version: str | None = None
    effective: str | None = None
    version_line: Line | None = None
    passages: list[Passage] = field(default_factory=list)
    changes: list[PublisherChange] = field(default_factory=list)


def _collect_bullets(lines: list[Line]) -> tuple[list[str], list[list[str]]]:
    """Lines before the first bullet, and each bullet's wrapped lines."""
    intro: list[str] = []
    bullets: list[list[str]] = []
    for line in lines:
        match = BULLET_RE.match(line.text)
        if match:
            bullets.append([match.group("text")])
        elif bullets:
            bullets[-1].append(line.text)
        else:
            intro.append(line.text)
    return intro, bullets


def parse_front(lines: list[Line], heading_size: float) -> FrontMatter:
    """Title page lines (before the table of contents): title, version, change summary.

    Headings (font at least `heading_size`) split the page into blocks: the
    first block is the title and preface, "Summary of Changes" holds the
    publisher's change list, any other heading ("Summary from 1.0") is kept
    as a passage.
    """
    front = FrontMatter()
    blocks: list[tuple[Line | None, list[Line]]] = [(None, [])]
    if lines:
        front.title = lines[0].text
    for line in lines[1:]:
        if line.size is not None and line.size >= heading_size:
            blocks.append((line, []))
        else:
            blocks[-1][1].append(line)
    for heading, body in blocks:
        if heading is None:
            rest = body
            for line in rest:
                match = VERSION_RE.search(line.text)
                if match and front.version is None:
                    front.version = match.group("version")
                    front.effective = parse_date(match.group("date"))
                    front.version_line = line
            if rest:
                front.passages.append(_passage("preface", "Preface", rest))
            continue
        if heading.text.strip().lower() == "summary of changes":
            _, bullets = _collect_bullets(body)
            for bullet in bullets:
                text = join_wrapped(bullet)
                front.changes.append(PublisherChange(text=text, cites=find_references(text)))
        front.passages.append(_passage(slugify(heading.text), heading.text, body, heading))
    return front


def _passage(ident: str, title: str, body: list[Line], heading: Line | None = None) -> Passage:
    intro, bullets = _collect_bullets(body)
    paragraphs = [join_wrapped(intro)] if intro else []
    paragraphs += ["● " + join_wrapped(b) for b in bullets]
    first = heading or (body[0] if body else None)
    location = Location(line=first.line if first else 1, page=first.page if first else None)
    return Passage(
        id=ident, title=title, text="\n".join(p for p in paragraphs if p), location=location
    )
