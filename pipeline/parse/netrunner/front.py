"""What is Netrunner's own before its rules: the title page and its Summary of Changes.

Headings (font at least the section size) split the pages before the table of
contents into blocks: the first is the title and preface (with the version
statement), "Summary of Changes" holds the publisher's change list, any other
heading ("Summary from 1.0") is kept as a passage.
"""

from __future__ import annotations

import re

from pipeline.models import Line, Location, Passage, PublisherChange
from pipeline.parse.common import slugify
from pipeline.parse.numbered.finish import Parsed
from pipeline.parse.numbered.layout import wrap_joiner
from pipeline.parse.numbered.references import References

BULLET_RE = re.compile(r"^[●•○]\s*(?P<text>.*)$")
join = wrap_joiner("glued")


def split_bullets(lines: list[Line]) -> tuple[list[str], list[list[str]]]:
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


def passage(ident: str, title: str, body: list[Line], heading: Line | None = None) -> Passage:
    intro, bullets = split_bullets(body)
    paragraphs = [join(intro)] if intro else []
    paragraphs += ["● " + join(b) for b in bullets]
    first = heading or (body[0] if body else None)
    location = Location(line=first.line if first else 1, page=first.page if first else None)
    text = "\n".join(p for p in paragraphs if p)
    return Passage(id=ident, title=title, text=text, location=location)


def read_front(
    lines: list[Line], heading_size: float, refs: References, parsed: Parsed
) -> list[Line]:
    """Title, passages and changes into `parsed`; the preface lines (for the statement)."""
    blocks: list[tuple[Line | None, list[Line]]] = [(None, [])]
    parsed.title = lines[0].text if lines else None
    for line in lines[1:]:
        if line.size is not None and line.size >= heading_size:
            blocks.append((line, []))
        else:
            blocks[-1][1].append(line)
    preface: list[Line] = []
    for heading, body in blocks:
        if heading is None:
            preface = body
            if body:
                parsed.front_matter.append(passage("preface", "Preface", body))
            continue
        if heading.text.strip().lower() == "summary of changes":
            for bullet in split_bullets(body)[1]:
                text = join(bullet)
                parsed.publisher_changes.append(PublisherChange(text=text, cites=refs.find(text)))
        parsed.front_matter.append(passage(slugify(heading.text), heading.text, body, heading))
    return preface
