"""Magic: The Gathering Comprehensive Rules (`mtg-cr`), TXT and PDF renditions.

The document runs: title, effective date, Introduction, Contents (a list of
chapters and sections, not rules), the rules (`1. Game Concepts`, `100.
General`, `100.1.`, `100.1a`), Glossary, Credits. Both renditions are read
through `mtg.paragraphs` into the same paragraphs, then parsed here. The
numbering (letters skip `l` and `o`; the publisher's slips `606.5 If`,
`901.4.All`, `119.1d. In` are read), the references (`rule 702.19c`, `rules
601.2a–h`, `section 7`, bare `101.4a`) and the effective date are the
engine's; the contents list, the glossary and the credits are MTG's own.
"""

from __future__ import annotations

from pipeline.errors import ParseError
from pipeline.models import (
    Document,
    LevelScheme,
    Line,
    Location,
    NumberedScheme,
    ParseOptions,
    Passage,
    WarningCode,
)
from pipeline.parse.common import options_of, warn
from pipeline.parse.mtg.paragraphs import pdf_paragraphs, txt_paragraphs
from pipeline.parse.numbered.engine import Engine, read_statement
from pipeline.parse.numbered.finish import Finish, Parsed, finish_document
from pipeline.parse.numbered.layout import Block
from pipeline.parse.numbered.records import Draft
from pipeline.parse.numbered.statements import compile_statement, read_date

FAMILY = "mtg-cr"
PARSER_VERSION = "2.0"
SENTINEL = "Magic: The Gathering Comprehensive Rules"
SCHEME = NumberedScheme(
    levels=[
        LevelScheme(kind="chapter", width=1, dot="required", title="always"),
        LevelScheme(kind="section", width=2, join="", dot="required", title="always"),
        LevelScheme(kind="rule", dot="optional"),
        LevelScheme(kind="subrule", segment="letter", join="", dot="optional"),
    ],
    skip_letters="lo",
    note=[],
    bare=True,
    ranges=True,
    exclude_self=False,
    title=SENTINEL,
    statements=["These rules are effective as of {date}."],
    version_is_date=True,
    date_is="effective",
    wraps="paragraphs",
)
ENGINE = Engine(SCHEME)
EFFECTIVE = compile_statement(SCHEME.statements[0])
_GLOSSARY, _CREDITS, _CONTENTS, _INTRO = "Glossary", "Credits", "Contents", "Introduction"


def read_effective_date(statement: str) -> str | None:
    """`These rules are effective as of January 16, 2026.` -> `2026-01-16`."""
    match = EFFECTIVE.search(statement.strip())
    return read_date(match.group("date")) if match else None


def _location(para: Block) -> Location:
    return Location(line=para.line, page=para.page)


def _level(para: Block) -> int | None:
    start = ENGINE.numbering.match_start(para.text)
    return start.level if start else None


def _find_body_start(paras: list[Block]) -> int:
    """Index of the first real heading: the one just above the first numbered rule.

    The table of contents lists the same headings, so the body is found from the
    first `NNN.N` rule upwards, never from the first `1. Game Concepts`.
    """
    start = next((i for i, p in enumerate(paras) if (_level(p) or 0) >= 2), len(paras))
    while start > 0 and _level(paras[start - 1]) in (0, 1):
        start -= 1
    return start


def _index_of(paras: list[Block], text: str, start: int, stop: int | None = None) -> int | None:
    end = len(paras) if stop is None else stop
    return next((i for i in range(start, end) if paras[i].text == text), None)


def _warn(parsed: Parsed, code: WarningCode, message: str, para: Block | None = None) -> None:
    where = _location(para) if para is not None else None
    parsed.warnings.append(warn(code, message, where))


def read_front(paras: list[Block], parsed: Parsed) -> list[str]:
    """Title, effective date, the Introduction passage; the contents entries."""
    first = paras[0] if paras else None
    parsed.title = SENTINEL if first is not None and first.text == SENTINEL else None
    if parsed.title is None:
        message = f"the document does not start with {SENTINEL!r}"
        _warn(parsed, WarningCode.TITLE_NOT_RECOGNISED, message, first)
    lines = [Line(text=p.text, line=p.line, page=p.page) for p in paras]
    read_statement(ENGINE, lines, parsed)
    intro = _index_of(paras, _INTRO, 0)
    contents = _index_of(paras, _CONTENTS, 0)
    if intro is not None:
        body = paras[intro + 1 : contents if contents is not None else len(paras)]
        text = "\n".join(p.text for p in body)
        location = _location(paras[intro])
        parsed.front_matter.append(
            Passage(id="introduction", title=_INTRO, text=text, location=location)
        )
    else:
        _warn(parsed, WarningCode.NO_INTRODUCTION, "no Introduction before the rules", first)
    if contents is None:
        _warn(parsed, WarningCode.NO_CONTENTS, "no Contents list before the rules")
    start = (contents or 0) + 1
    return [p.text for p in paras[start:] if ENGINE.numbering.match_start(p.text)]


def read_rules(paras: list[Block], parsed: Parsed) -> None:
    current: Draft | None = None
    for para in paras:
        start = ENGINE.numbering.match_start(para.text) if not para.indented else None
        if start is not None:
            level = start.level
            parent = ENGINE.numbering.parent_of(start.number)
            current = Draft(start.number, SCHEME.levels[level].kind, parent, _location(para))
            current.open("title" if level < 2 else "text", start.rest)
            parsed.drafts.append(current)
        elif current is None:
            message = f"text before the first rule: {para.text[:60]!r}"
            _warn(parsed, WarningCode.UNPLACED_TEXT, message, para)
        elif current.label(ENGINE.labels, SCHEME, para.text):
            continue
        elif current.part == "title":
            message = f"text under heading {current.number}: {para.text[:60]!r}"
            _warn(parsed, WarningCode.UNPLACED_TEXT, message, para)
        else:
            current.add(para.text)


def read_glossary(paras: list[Block], parsed: Parsed) -> None:
    entries: list[list[Block]] = []
    for para in paras:
        if para.after_gap or not entries:
            entries.append([para])
        else:
            entries[-1].append(para)
    for entry in entries:
        if len(entry) < 2:
            message = f"glossary term {entry[0].text!r} has no definition"
            _warn(parsed, WarningCode.EMPTY_DEFINITION, message, entry[0])
        parsed.glossary.append((entry[0].text, [p.text for p in entry[1:]], _location(entry[0])))


def read_back(paras: list[Block], parsed: Parsed) -> None:
    """Credits, then the closing legal page (which restates the effective date)."""
    rest = paras[1:]
    legal = next((i for i, p in enumerate(rest) if read_effective_date(p.text)), len(rest))
    if legal < len(rest) and read_effective_date(rest[legal].text) != parsed.effective:
        message = f"the last page says {rest[legal].text!r}, the first page says {parsed.effective}"
        _warn(parsed, WarningCode.EFFECTIVE_DATE_MISMATCH, message, rest[legal])
    text = "\n".join(p.text for p in rest[:legal])
    location = _location(paras[0])
    parsed.back_matter.append(Passage(id="credits", title=_CREDITS, text=text, location=location))
    if legal < len(rest):
        text = "\n".join(p.text for p in rest[legal:])
        location = _location(rest[legal])
        parsed.back_matter.append(Passage(id="legal", title="Legal", text=text, location=location))


def check_contents(toc: list[str], parsed: Parsed) -> None:
    """The Contents list must name the same chapters and sections, in order, as the body."""
    body = []
    for draft in parsed.drafts:
        if draft.title:
            body.append(f"{draft.number}. {' '.join(draft.title)}")
    if [" ".join(t.split()) for t in toc] == [" ".join(b.split()) for b in body]:
        return
    missing = [b for b in body if b not in toc][:5]
    extra = [t for t in toc if t not in body][:5]
    message = (
        f"the Contents list and the headings differ: "
        f"headings not listed {missing}, listed but absent {extra}"
    )
    _warn(parsed, WarningCode.CONTENTS_MISMATCH, message)


def parse(
    lines: list[Line],
    notes: dict[str, int] | None = None,
    options: ParseOptions | None = None,
    *,
    document: str = "mtg/cr",
    rendition: str = "txt",
    version: str | None = None,
) -> Document:
    """Parse the MTG Comprehensive Rules from extracted lines (TXT or PDF rendition).

    `version` is what the caller expects (e.g. from the registry or an archive
    manifest); the document's own effective date always wins, and a different
    expectation is a `version-mismatch` warning, so the run fails as unclean
    (exit 40) without the corpus ever storing a version the document does not state.
    """
    options = options_of(options, document, rendition, version)
    document, rendition = options.document, options.rendition
    alphabet = ENGINE.numbering.alphabet
    paras = pdf_paragraphs(lines, alphabet) if rendition == "pdf" else txt_paragraphs(lines)
    body_start = _find_body_start(paras)
    if body_start == len(paras):
        raise ParseError(document, "no numbered rules found; is this the MTG Comprehensive Rules?")
    parsed = Parsed(
        drafts=[],
        missing="no 'These rules are effective as of ...' statement before the rules",
    )
    toc = read_front(paras[:body_start], parsed)
    glossary_at = _index_of(paras, _GLOSSARY, body_start)
    credits_at = _index_of(paras, _CREDITS, glossary_at or body_start)
    if glossary_at is None:
        _warn(parsed, WarningCode.NO_GLOSSARY, "no Glossary heading after the rules")
    if credits_at is None:
        _warn(parsed, WarningCode.NO_CREDITS, "no Credits heading after the glossary")
    rules_end = glossary_at if glossary_at is not None else (credits_at or len(paras))
    read_rules(paras[body_start:rules_end], parsed)
    if glossary_at is not None:
        read_glossary(paras[glossary_at + 1 : credits_at or len(paras)], parsed)
    if credits_at is not None:
        read_back(paras[credits_at:], parsed)
    check_contents(toc, parsed)
    finish = Finish(FAMILY, PARSER_VERSION, ENGINE.references, order_from=2)
    return finish_document(parsed, finish, options, notes)
