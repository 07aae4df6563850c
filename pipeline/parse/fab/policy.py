"""FaB policy documents (family `fab-policy`): Tournament Rules and Policy (TRP),
Procedure and Penalty Guide (PPG).

Their text exports are numbered headings (`1 Tournament Information`,
`1.1 Event and Tournament Types`, `8.1.1 Sealed Deck Registration ...`,
appendix `A.1 Organized Play Programs`), each followed by unnumbered
paragraphs, list items and flattened table cells, one per line. Each heading
becomes a record whose id is the document's short name plus the publisher's
number (`trp:1.1`, `ppg:2.3`, `trp:A.1`) and whose text is every line under it,
verbatim, joined with newlines.

Table cells such as `9 -- 16` or `55 minutes` look like chapter headings, so a
chapter must be the next chapter number and have sections later in the
document; sections and subsections must continue the current chapter and section.

Bracketed references (`[5.1]`, `[A.7]`) cite the document itself. The PPG
also cites the TRP by number (`[6.2]` Cheating, `[6.4]` Bribery are TRP
sections; the PPG has no chapter 6): a PPG reference to a number the PPG does
not have is resolved to `trp:`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.errors import ParseError
from pipeline.models import Document, Line, Location, ParserInfo, ParseWarning, Rule
from pipeline.parse.common import check_tree, count_records, warn
from pipeline.parse.fab.structure import is_title_text

FAMILY = "fab-policy"
PARSER_VERSION = "1.0"

CHAPTER_RE = re.compile(r"^(\d+) (\S.*)$")
SECTION_RE = re.compile(r"^(\d+)\.(\d+) (\S.*)$")
SUBSECTION_RE = re.compile(r"^(\d+)\.(\d+)\.(\d+) (\S.*)$")
APPENDIX_RE = re.compile(r"^([A-Z])\.(\d+) (\S.*)$")
REFERENCE_RE = re.compile(r"\[((?:\d+|[A-Z])(?:\.\d+)*)\]")
COMPANIONS = {"ppg": "trp"}

__all__ = ["FAMILY", "PARSER_VERSION", "parse"]


@dataclass
class _Heading:
    number: str
    kind: str
    parent: str | None
    depth: int
    title: str
    location: Location
    lines: list[str] = field(default_factory=list)


def _heading(
    stripped: str, lines: list[str], index: int, chapter: int, section: str | None, prefix: str
) -> _Heading | None:
    location = Location(line=index + 1)
    m = SUBSECTION_RE.match(stripped)
    if m and f"{m.group(1)}.{m.group(2)}" == section and is_title_text(m.group(4)):
        return _Heading(
            f"{section}.{m.group(3)}",
            "subsection",
            f"{prefix}:{section}",
            3,
            m.group(4),
            location,
        )
    if (
        (m := SECTION_RE.match(stripped))
        and int(m.group(1)) == chapter
        and is_title_text(m.group(3))
    ):
        return _Heading(
            f"{m.group(1)}.{m.group(2)}", "section", f"{prefix}:{chapter}", 2, m.group(3), location
        )
    if (m := APPENDIX_RE.match(stripped)) and is_title_text(m.group(3)):
        return _Heading(
            f"{m.group(1)}.{m.group(2)}", "appendix-section", None, 1, m.group(3), location
        )
    if (m := CHAPTER_RE.match(stripped)) and int(m.group(1)) == chapter + 1:
        later = (SECTION_RE.match(line.strip()) for line in lines[index + 1 :])
        opens = any(s is not None and int(s.group(1)) == chapter + 1 for s in later)
        if opens and is_title_text(m.group(2)):
            return _Heading(m.group(1), "chapter", None, 1, m.group(2), location)
    return None


def _references(text: str, prefix: str, known: set[str]) -> list[str]:
    found: list[str] = []
    for match in REFERENCE_RE.finditer(text):
        number = match.group(1)
        owner = prefix
        if number not in known and prefix in COMPANIONS:
            owner = COMPANIONS[prefix]
        ref = f"{owner}:{number}"
        if ref not in found:
            found.append(ref)
    return found


def parse(
    lines: list[Line], *, document: str, rendition: str = "txt", version: str | None = None
) -> Document:
    """Numbered headings of a TRP or PPG text export as records `<short name>:<number>`."""
    if rendition != "txt":
        raise ParseError(document, f"rendition {rendition!r} is not one fab-policy reads (txt)")
    prefix = document.rsplit("/", 1)[-1]
    texts = [line.text for line in lines]
    warnings: list[ParseWarning] = []
    headings: list[_Heading] = []
    chapter, section = 0, None
    for index, text in enumerate(texts):
        stripped = text.strip()
        if not stripped:
            continue
        heading = _heading(stripped, texts, index, chapter, section, prefix)
        if heading is None:
            if headings:
                headings[-1].lines.append(text)
            else:
                warnings.append(
                    warn(
                        "unplaced-line",
                        f"text before the first heading: {stripped[:80]!r}",
                        index + 1,
                    )
                )
            continue
        headings.append(heading)
        if heading.kind == "chapter":
            chapter, section = int(heading.number), None
        elif heading.kind in ("section", "appendix-section"):
            section = heading.number
    if not any(h.kind == "chapter" for h in headings):
        raise ParseError(document, "no chapter heading found (expected '1 Title' then '1.1 Title')")
    known = {h.number for h in headings}
    records = [
        Rule(
            id=f"{prefix}:{h.number}",
            number=h.number,
            kind=h.kind,
            parent=h.parent,
            depth=h.depth,
            title=h.title,
            text="\n".join(h.lines),
            references=_references("\n".join(h.lines), prefix, known),
            location=h.location,
        )
        for h in headings
    ]
    if version is None:
        warnings.append(
            warn(
                "version-missing",
                "the text export states no version and none "
                "was given; pass the version the source is known to be",
            )
        )
    ids = {r.id for r in records}
    for record in records:
        for ref in record.references:
            if ref.startswith(f"{prefix}:") and ref not in ids:
                warnings.append(
                    warn(
                        "dangling-reference",
                        f"{record.id} cites {ref}, which is not in the document",
                        record.location.line,
                    )
                )
    warnings += check_tree(records)
    return Document(
        game="fab",
        document=document,
        title=None,
        version=version,
        parser=ParserInfo(family=FAMILY, version=PARSER_VERSION),
        counts=count_records(records),
        warnings=warnings,
        records=records,
    )
