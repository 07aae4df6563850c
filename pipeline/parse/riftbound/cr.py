"""Riftbound Core Rules -> records.

Numbers go up to five levels, alternating digits and letters, each with a
trailing dot: `383.`, `383.4.`, `383.4.a.`, `383.4.a.1.`, `383.4.c.2.a.`;
ids drop the final dot (`cr:383.4.a.1`). The golden and silver rules
(`000.`-`055.`) are ordinary records. A line that does not start with a
number continues the record before it (soft wraps, tables, numbered steps
`1. Identify ...` inside a rule). `Example:` passages go to `examples`.

Two inputs look different:
- clean text (the text extractions, or PDF lines read with `columns=2`):
  every record starts at the beginning of a line;
- a `pdftotext -layout` dump (indented, form-fed pages) where numbers drift
  away from their text: handled by `riftbound_layout`, which only keeps what
  it can align with certainty and warns about the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.models import Document, Line, Location, ParserInfo, ParseWarning, Passage
from pipeline.parse.common import check_references, check_tree, count_records, record_errata, warn
from pipeline.parse.riftbound.layout import parse_layout
from pipeline.parse.riftbound.records import Draft, join_parts, match_number, nearest_parent

FAMILY = "riftbound-cr"
PARSER_VERSION = "1.0"

UPDATED_RE = re.compile(r"Last Updated:\s*(?P<date>\d{4}-\d{2}-\d{2})")


@dataclass
class Header:
    title: str | None = None
    version: str | None = None
    lines: list[Line] = field(default_factory=list)


def read_header(lines: list[Line]) -> Header:
    """Title (first non-empty line) and `Last Updated:` date, from the lines before rule 000."""
    header = Header()
    for line in lines:
        text = line.text.strip().lstrip("\f").strip()
        if not text:
            continue
        if match_number(text):
            break
        match = UPDATED_RE.search(text)
        if match and header.version is None:
            header.version = match.group("date")
        elif header.title is None:
            header.title = text
        else:
            header.lines.append(line)
    return header


def parse_clean(lines: list[Line]) -> tuple[list[Draft], list[ParseWarning]]:
    """Records from lines where every number starts its own line."""
    drafts: list[Draft] = []
    seen: set[str] = set()
    warnings: list[ParseWarning] = []
    started = False
    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        match = match_number(text)
        if match:
            ident = "cr:" + match[0]
            if ident not in seen:
                draft = Draft(ident, line, parent=nearest_parent(ident, seen))
                if match[1]:
                    draft.add(match[1])
                drafts.append(draft)
                seen.add(ident)
                started = True
                continue
            warnings.append(
                warn(
                    "duplicate-number",
                    f"{match[0]} appears again; kept as text",
                    line.line,
                    line.page,
                )
            )
        if not started:
            continue
        drafts[-1].add(text)
        if line.highlight:
            drafts[-1].line = drafts[-1].line.model_copy(update={"highlight": True})
    return drafts, warnings


def looks_like_layout_dump(lines: list[Line]) -> bool:
    """`pdftotext -layout` output: many indented lines (the clean extractions have none)."""
    nonblank = [ln.text for ln in lines if ln.text.strip()]
    indented = sum(1 for t in nonblank if t.lstrip("\f").startswith("  "))
    return bool(nonblank) and indented * 10 >= len(nonblank)


def parse(
    lines: list[Line],
    *,
    document: str,
    rendition: str,
    version: str | None = None,
    extraction: dict[str, int] | None = None,
) -> Document:
    """Parse Riftbound Core Rules lines (text export, layout dump, or two-column PDF lines)."""
    warnings: list[ParseWarning] = []
    header = read_header(lines)
    if header.version is None:
        warnings.append(
            warn("no-version", "the document states no 'Last Updated: YYYY-MM-DD' date")
        )
    elif version is not None and version != header.version:
        warnings.append(
            warn(
                "version-mismatch",
                f"the caller says version {version}, the document says {header.version}",
            )
        )
    if looks_like_layout_dump(lines):
        drafts, more = parse_layout(lines)
    else:
        drafts, more = parse_clean(lines)
    warnings += more
    records = [d.to_rule() for d in drafts]
    front = []
    if header.lines:
        first = header.lines[0]
        front.append(
            Passage(
                id="preface",
                title="Preface",
                text=join_parts([ln.text for ln in header.lines]),
                location=Location(line=first.line, page=first.page),
            )
        )
    doc = Document(
        game=document.split("/")[0],
        document=document,
        title=header.title,
        version=header.version or version,
        published=header.version,
        parser=ParserInfo(family=FAMILY, version=PARSER_VERSION),
        records=records,
        front_matter=front,
        extraction=dict(sorted((extraction or {}).items())),
    )
    warnings += check_tree(records) + check_references(doc)
    doc.warnings = warnings
    doc.counts = count_records(records)
    doc.counts["examples"] = sum(len(r.examples) for r in records)
    return record_errata(doc)
