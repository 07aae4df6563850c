"""Magic: The Gathering Comprehensive Rules (`mtg-cr`), TXT and PDF renditions.

The document runs: title, effective date, Introduction, Contents (a list of
chapters and sections, not rules), the rules (`1. Game Concepts`, `100.
General`, `100.1.`, `100.1a`), Glossary, Credits. Both renditions are read
through `mtg_paragraphs` into the same paragraphs, then parsed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from pipeline.models import (
    Document,
    GlossaryTerm,
    Line,
    Location,
    ParserInfo,
    ParseWarning,
    Passage,
    Rule,
)
from pipeline.parse.common import (
    check_references,
    check_tree,
    count_records,
    record_errata,
    unique_slugs,
    warn,
)
from pipeline.parse.mtg.checks import check_contents, check_numbering
from pipeline.parse.mtg.paragraphs import Paragraph, pdf_paragraphs, txt_paragraphs
from pipeline.parse.mtg.refs import find_references

FAMILY = "mtg-cr"
PARSER_VERSION = "1.0"
SENTINEL = "Magic: The Gathering Comprehensive Rules"

_EFFECTIVE = re.compile(
    r"^These rules are effective as of (?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}), (?P<year>\d{4})\.$"
)
_CHAPTER = re.compile(r"^(?P<num>\d)\.\s+(?P<title>\S.*)$")
_SECTION = re.compile(r"^(?P<num>\d{3})\.\s+(?P<title>\S.*)$")
# The publisher's own slips are accepted: `606.5 If` (no dot), `901.4.All` (no
# space), `119.1d. In` (a dot after a subrule letter). The number is unambiguous.
_RULE = re.compile(r"^(?P<num>\d{3}\.\d+)(?:\.\s*|\s+)(?P<text>\S.*)$")
_SUBRULE = re.compile(r"^(?P<num>\d{3}\.\d+[a-z])\.?\s+(?P<text>\S.*)$")
_EXAMPLE = re.compile(r"^Example:\s*(?P<text>.*)$")
_GLOSSARY, _CREDITS, _CONTENTS, _INTRO = "Glossary", "Credits", "Contents", "Introduction"


@dataclass
class _Draft:
    """A rule being assembled: paragraphs arrive one by one."""

    number: str
    kind: str
    parent: str | None
    depth: int
    title: str | None
    para: Paragraph
    text: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)


# English month names, spelled out here because strptime's %B follows the locale.
_MONTHS = {
    "January": 1,
    "February": 2,
    "March": 3,
    "April": 4,
    "May": 5,
    "June": 6,
    "July": 7,
    "August": 8,
    "September": 9,
    "October": 10,
    "November": 11,
    "December": 12,
}


def read_effective_date(statement: str) -> str | None:
    """`These rules are effective as of January 16, 2026.` -> `2026-01-16`."""
    match = _EFFECTIVE.match(statement.strip())
    if match is None or match.group("month") not in _MONTHS:
        return None
    try:
        day = date(int(match.group("year")), _MONTHS[match.group("month")], int(match.group("day")))
    except ValueError:
        return None
    return day.isoformat()


def classify_number(text: str) -> tuple[str, str, str] | None:
    """(kind, number, rest) for a heading or numbered rule paragraph, else None."""
    for kind, pattern, rest in (
        ("subrule", _SUBRULE, "text"),
        ("rule", _RULE, "text"),
        ("section", _SECTION, "title"),
        ("chapter", _CHAPTER, "title"),
    ):
        match = pattern.match(text)
        if match:
            return kind, match.group("num"), match.group(rest)
    return None


def _parent_of(kind: str, number: str) -> str | None:
    if kind == "chapter":
        return None
    if kind == "section":
        return f"cr:{number[0]}"
    if kind == "rule":
        return f"cr:{number.split('.')[0]}"
    return f"cr:{number[:-1]}"


_DEPTH = {"chapter": 0, "section": 1, "rule": 2, "subrule": 3}


def _location(para: Paragraph) -> Location:
    return Location(line=para.line, page=para.page)


def _kind_of(para: Paragraph) -> str | None:
    found = classify_number(para.text)
    return found[0] if found else None


def _find_body_start(paras: list[Paragraph]) -> int:
    """Index of the first real heading: the one just above the first numbered rule.

    The table of contents lists the same headings, so the body is found from the
    first `NNN.N` rule upwards, never from the first `1. Game Concepts`.
    """
    start = next((i for i, p in enumerate(paras) if _kind_of(p) in ("rule", "subrule")), len(paras))
    while start > 0 and _kind_of(paras[start - 1]) in ("chapter", "section"):
        start -= 1
    return start


def _index_of(paras: list[Paragraph], text: str, start: int, stop: int | None = None) -> int | None:
    end = len(paras) if stop is None else stop
    return next((i for i in range(start, end) if paras[i].text == text), None)


class _Parser:
    def __init__(self, paras: list[Paragraph]) -> None:
        self.paras = paras
        self.warnings: list[ParseWarning] = []
        self.drafts: list[_Draft] = []

    def warn(self, code: str, message: str, para: Paragraph | None = None) -> None:
        line = para.line if para else None
        page = para.page if para else None
        self.warnings.append(warn(code, message, line, page))

    # ------------------------------------------------------------------ front matter

    def read_front(self, stop: int) -> tuple[str | None, str | None, list[Passage], list[str]]:
        """Title, effective date, the Introduction passage and the contents entries."""
        paras = self.paras[:stop]
        title = paras[0].text if paras and paras[0].text == SENTINEL else None
        if title is None:
            self.warn(
                "title-not-recognised",
                f"the document does not start with {SENTINEL!r}",
                paras[0] if paras else None,
            )
        effective = next((d for p in paras if (d := read_effective_date(p.text))), None)
        if effective is None:
            self.warn(
                "no-effective-date",
                "no 'These rules are effective as of ...' statement "
                "before the rules; version unknown",
                paras[0] if paras else None,
            )
        front: list[Passage] = []
        intro = _index_of(paras, _INTRO, 0)
        contents = _index_of(paras, _CONTENTS, 0)
        if intro is not None:
            body = paras[intro + 1 : contents if contents is not None else stop]
            front.append(
                Passage(
                    id="introduction",
                    title=_INTRO,
                    text="\n".join(p.text for p in body),
                    location=_location(paras[intro]),
                )
            )
        else:
            self.warn(
                "no-introduction", "no Introduction before the rules", paras[0] if paras else None
            )
        toc = [p.text for p in paras[(contents or 0) + 1 :] if classify_number(p.text)]
        if contents is None:
            self.warn("no-contents", "no Contents list before the rules")
        return title, effective, front, toc

    # ------------------------------------------------------------------ rules

    def read_rules(self, start: int, stop: int) -> None:
        current: _Draft | None = None
        for para in self.paras[start:stop]:
            number = classify_number(para.text) if not para.indented else None
            if number is not None:
                kind, num, rest = number
                heading = kind in ("chapter", "section")
                current = _Draft(
                    num,
                    kind,
                    _parent_of(kind, num),
                    _DEPTH[kind],
                    rest if heading else None,
                    para,
                    [] if heading else [rest],
                )
                self.drafts.append(current)
                continue
            if current is None:
                self.warn("unplaced-text", f"text before the first rule: {para.text[:60]!r}", para)
                continue
            example = _EXAMPLE.match(para.text)
            if example is not None:
                current.examples.append(example.group("text"))
            elif current.examples:
                current.examples[-1] += "\n" + para.text
            elif current.title is not None:
                self.warn(
                    "unplaced-text",
                    f"text under heading {current.number}: {para.text[:60]!r}",
                    para,
                )
            else:
                current.text.append(para.text)

    # ------------------------------------------------------------------ glossary and credits

    def read_glossary(self, start: int, stop: int) -> list[GlossaryTerm]:
        entries: list[list[Paragraph]] = []
        for para in self.paras[start:stop]:
            if para.after_gap or not entries:
                entries.append([para])
            else:
                entries[-1].append(para)
        terms: list[GlossaryTerm] = []
        slugs = unique_slugs(e[0].text for e in entries)
        for slug, entry in zip(slugs, entries, strict=True):
            if len(entry) < 2:
                self.warn(
                    "glossary-entry", f"glossary term {entry[0].text!r} has no definition", entry[0]
                )
            terms.append(
                GlossaryTerm(
                    id=f"glossary:{slug}",
                    term=entry[0].text,
                    definition="\n".join(p.text for p in entry[1:]),
                    location=_location(entry[0]),
                )
            )
        return terms

    def read_back(self, start: int, effective: str | None) -> list[Passage]:
        """Credits, then the closing legal page (which restates the effective date)."""
        paras = self.paras[start + 1 :]
        legal = next((i for i, p in enumerate(paras) if read_effective_date(p.text)), len(paras))
        if legal < len(paras) and read_effective_date(paras[legal].text) != effective:
            self.warn(
                "effective-date-mismatch",
                f"the last page says {paras[legal].text!r}, the first page says {effective}",
                paras[legal],
            )
        back = [
            Passage(
                id="credits",
                title=_CREDITS,
                text="\n".join(p.text for p in paras[:legal]),
                location=_location(self.paras[start]),
            )
        ]
        if legal < len(paras):
            back.append(
                Passage(
                    id="legal",
                    title="Legal",
                    text="\n".join(p.text for p in paras[legal:]),
                    location=_location(paras[legal]),
                )
            )
        return back


def parse(
    lines: list[Line], *, document: str = "mtg/cr", rendition: str, version: str | None = None
) -> Document:
    """Parse the MTG Comprehensive Rules from extracted lines (TXT or PDF rendition).

    `version` is what the caller expects (e.g. from the registry or an archive
    manifest); the document's own effective date always wins, and a different
    expectation is a `version-mismatch` warning, so the run fails as unclean
    (exit 40) without the corpus ever storing a version the document does not state.
    """
    paras = pdf_paragraphs(lines) if rendition == "pdf" else txt_paragraphs(lines)
    parser = _Parser(paras)
    body_start = _find_body_start(paras)
    if body_start == len(paras):
        parser.warn("no-rules", "no numbered rules found")
    title, effective, front, toc = parser.read_front(body_start)
    glossary_at = _index_of(paras, _GLOSSARY, body_start)
    credits_at = _index_of(paras, _CREDITS, glossary_at or body_start)
    if glossary_at is None:
        parser.warn("no-glossary", "no Glossary heading after the rules")
    if credits_at is None:
        parser.warn("no-credits", "no Credits heading after the glossary")
    rules_end = glossary_at if glossary_at is not None else (credits_at or len(paras))
    parser.read_rules(body_start, rules_end)
    glossary = (
        parser.read_glossary(glossary_at + 1, credits_at or len(paras))
        if glossary_at is not None
        else []
    )
    back = parser.read_back(credits_at, effective) if credits_at is not None else []
    known = {f"cr:{d.number}" for d in parser.drafts}
    records = [
        Rule(
            id=f"cr:{d.number}",
            number=d.number,
            kind=d.kind,
            parent=d.parent,
            depth=d.depth,
            title=d.title,
            text="\n".join(d.text),
            examples=d.examples,
            references=find_references("\n".join([*d.text, *d.examples]), known),
            location=_location(d.para),
        )
        for d in parser.drafts
    ]
    glossary = [
        g.model_copy(update={"references": find_references(g.definition, known)}) for g in glossary
    ]
    numbering, gaps = check_numbering(records)
    parser.warnings += numbering + check_contents(toc, records)
    if version is not None and version != effective:
        parser.warn(
            "version-mismatch",
            f"expected version {version}, but the document states "
            f"it is effective as of {effective}",
        )
    doc = Document(
        game=document.split("/")[0],
        document=document,
        title=title,
        version=effective,
        effective=effective,
        parser=ParserInfo(family=FAMILY, version=PARSER_VERSION),
        records=records,
        glossary=glossary,
        front_matter=front,
        back_matter=back,
    )
    counts = count_records(records)
    counts["glossary_terms"] = len(glossary)
    if gaps:
        counts["numbering_gaps"] = gaps
    warnings = parser.warnings + check_tree(records) + check_references(doc)
    return record_errata(doc.model_copy(update={"counts": counts, "warnings": warnings}))
