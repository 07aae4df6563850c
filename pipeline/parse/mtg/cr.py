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
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions, WarningCode
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.common import warn
from pipeline.parse.mtg.paragraphs import pdf_paragraphs
from pipeline.parse.numbered.engine import Engine, passage, read_statement
from pipeline.parse.numbered.finish import Finish, Parsed, finish_document
from pipeline.parse.numbered.layout import Block, text_blocks
from pipeline.parse.numbered.numbers import NumberStart
from pipeline.parse.numbered.records import Draft, paragraphs, span
from pipeline.parse.numbered.statements import read_date

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
    skip_letters="lo", note=[], bare=True, ranges=True, exclude_self=False, title=SENTINEL,
    statements=["These rules are effective as of {date}.", "These rules are current as of {date}."],
    version_is_date=True,
    date_is="effective", wraps="paragraphs",
)  # fmt: skip
ENGINE = Engine(SCHEME)
_GLOSSARY, _CREDITS, _CONTENTS, _INTRO = "Glossary", "Credits", "Contents", "Introduction"


def read_effective_date(statement: str) -> str | None:
    """`These rules are effective as of January 16, 2026.` -> `2026-01-16`; the exports
    before mid-2009 say `These rules are current as of March 15, 2003.`"""
    for pattern in ENGINE.statements:
        if match := pattern.search(statement.strip()):
            return read_date(match.group("date"))
    return None


def _index_of(paras: list[Block], text: str, start: int) -> int | None:
    return next((i for i in range(start, len(paras)) if paras[i].text == text), None)


def _warn(parsed: Parsed, code: WarningCode, message: str, para: Block | None = None) -> None:
    where = para.location if para is not None else None
    parsed.warnings.append(warn(code, message, where))


def read_front(paras: list[Block], parsed: Parsed) -> list[str]:
    """Title, effective date, the Introduction passage; the contents entries."""
    first = paras[0] if paras else None
    parsed.title = SENTINEL if first is not None and first.text == SENTINEL else None
    if parsed.title is None:
        message = f"the document does not start with {SENTINEL!r}"
        _warn(parsed, WarningCode.TITLE_NOT_RECOGNISED, message, first)
    read_statement(ENGINE, [Line(text=p.text, line=p.line, page=p.page) for p in paras], parsed)
    intro, contents = _index_of(paras, _INTRO, 0), _index_of(paras, _CONTENTS, 0)
    if intro is not None:
        body = paras[intro + 1 : contents]
        parsed.front_matter.append(passage("introduction", _INTRO, body, paragraphs, paras[intro]))
    else:
        _warn(parsed, WarningCode.NO_INTRODUCTION, "no Introduction before the rules", first)
    if contents is None:
        _warn(parsed, WarningCode.NO_CONTENTS, "no Contents list before the rules")
    return [p.text for p in paras[(contents or 0) + 1 :] if ENGINE.numbering.match_start(p.text)]


def read_slipped_start(start: NumberStart, current: Draft | None) -> NumberStart:
    """A heading number whose title begins with the rest of a rule's number, printed with a
    stray space (`606. 8b Players win ...` after 606.8a), is that rule: a heading cannot
    repeat the open section's number, and the joined number is the next rule in order."""
    first, _, rest = start.rest.partition(" ")
    joined = ENGINE.numbering.match_start(f"{start.number}.{first} {rest}")
    if (
        current is None
        or joined is None
        or joined.level < 2
        or not current.number.startswith(start.number)
    ):
        return start
    previous = ENGINE.numbering.segments(current.number) or []
    wanted = ENGINE.numbering.segments(joined.number) or []
    if len(previous) == len(wanted) and wanted[:-1] == previous[:-1]:
        follows = ENGINE.numbering.successor(len(wanted) - 1, previous[-1]) == wanted[-1]
        return joined if follows else start
    return joined if ENGINE.numbering.parent_of(joined.number) == current.number else start


def read_rules(paras: list[Block], parsed: Parsed) -> None:
    """Rules and their paragraphs. A rule whose printed parent is nowhere in the document
    (2006's `432.2b` between 423.2a and 423.3) keeps its printed number and is placed
    under the rule it stands in, as a reader places it."""
    numbers = {s.number for p in paras if (s := ENGINE.numbering.match_start(p.text))}
    open_at: dict[int, str] = {}
    current: Draft | None = None
    for para in paras:
        start = ENGINE.numbering.match_start(para.text) if not para.indented else None
        if start is not None and start.level < 2:
            start = read_slipped_start(start, current)
        if start is not None:
            level, at = start.level, para.location
            parent = ENGINE.numbering.parent_of(start.number)
            if parent is not None and parent not in numbers and level - 1 in open_at:
                parent = open_at[level - 1]
            open_at = {k: v for k, v in open_at.items() if k < level} | {level: start.number}
            current = Draft(start.number, SCHEME.levels[level].kind, parent, at)
            current.open("title" if level < 2 else "text", start.rest)
            parsed.drafts.append(current)
        elif current is None or (current.part == "title" and not ENGINE.labels.match(para.text)):
            where = f"under heading {current.number}" if current else "before the first rule"
            _warn(parsed, WarningCode.UNPLACED_TEXT, f"text {where}: {para.text[:60]!r}", para)
        elif not current.label(ENGINE.labels, para.text, para.location):
            current.add(para.text, para.location)


def glossary_entries(paras: list[Block]) -> list[list[Block]]:
    """The glossary as entries: a term, then its definition's paragraphs.

    Today's exports separate entries by a blank line and keep a definition's paragraphs
    together. Exports before 2009 put a blank line after every paragraph and indent a
    definition's later paragraphs, including the lists inside it, whose unindented
    sub-headings (`Expansions and Editions`, then indented set names) are read as part of
    the list they head. So a paragraph opens an entry when a blank line precedes it, it is
    not indented, the paragraph after it is not indented, and it is not the first
    paragraph of the definition of the term just opened.
    """
    entries: list[list[Block]] = []
    for index, para in enumerate(paras):
        after = paras[index + 1] if index + 1 < len(paras) else None
        opens = (
            para.after_gap
            and not para.indented
            and not (after is not None and after.indented)
            and not (entries and len(entries[-1]) == 1)
        )
        if opens or not entries:
            entries.append([para])
        else:
            entries[-1].append(para)
    return entries


def read_glossary(paras: list[Block], parsed: Parsed) -> None:
    for term, *definition in glossary_entries(paras):
        if not definition:
            message = f"glossary term {term.text!r} has no definition"
            _warn(parsed, WarningCode.EMPTY_DEFINITION, message, term)
        location = span(term.location, definition[-1].location if definition else None)
        parsed.glossary.append((term.text, [p.text for p in definition], location))


def read_back(paras: list[Block], parsed: Parsed) -> None:
    """Credits, then the closing legal page (which restates the effective date)."""
    heading, rest = paras[0], paras[1:]
    legal = next((i for i, p in enumerate(rest) if read_effective_date(p.text)), len(rest))
    parsed.back_matter.append(passage("credits", _CREDITS, rest[:legal], paragraphs, heading))
    if legal < len(rest):
        if read_effective_date(rest[legal].text) != parsed.effective:
            said = rest[legal].text
            message = f"the last page says {said!r}, the first page says {parsed.effective}"
            _warn(parsed, WarningCode.EFFECTIVE_DATE_MISMATCH, message, rest[legal])
        parsed.back_matter.append(passage("legal", "Legal", rest[legal:], paragraphs))


def check_contents(toc: list[str], parsed: Parsed) -> None:
    """The Contents list must name the same chapters and sections, in order, as the body.
    A section that holds no rules (`211. [This section has been intentionally left blank
    ...]`) is a placeholder the Contents may leave out."""
    parents = {d.parent for d in parsed.drafts}
    listed = {" ".join(t.split()) for t in toc}
    body = [
        f"{d.number}. {' '.join(d.title)}"
        for d in parsed.drafts
        if d.title
        and (d.number in parents or " ".join(f"{d.number}. {' '.join(d.title)}".split()) in listed)
    ]
    if [" ".join(t.split()) for t in toc] != [" ".join(b.split()) for b in body]:
        missing = [b for b in body if b not in toc][:5]
        extra = [t for t in toc if t not in body][:5]
        message = f"the Contents list and the headings differ: headings not listed {missing}, "
        _warn(parsed, WarningCode.CONTENTS_MISMATCH, message + f"listed but absent {extra}")


def parse(lines: list[Line], notes: dict[str, int], options: ParseOptions) -> Document:
    """Parse the MTG Comprehensive Rules from extracted lines (TXT or PDF rendition). The
    document's own effective date is the version; a different expectation is warned."""
    pdf = options.rendition == "pdf"
    paras = pdf_paragraphs(lines, ENGINE.numbering.alphabet) if pdf else text_blocks(lines)
    # The contents list the same headings, so the body is found from the first `NNN.N`
    # rule upwards, never from the first `1. Game Concepts`.
    rules = ("rule", "subrule")
    start = next((i for i, p in enumerate(paras) if ENGINE.kind_of(p.text) in rules), len(paras))
    while start > 0 and ENGINE.kind_of(paras[start - 1].text) in ("chapter", "section"):
        start -= 1
    if start == len(paras):
        message = "no numbered rules found; is this the MTG Comprehensive Rules?"
        raise ParseError(options.document, message)
    parsed = Parsed(
        drafts=[], missing="no 'These rules are effective (current) as of ...' statement"
    )
    toc = read_front(paras[:start], parsed)
    glossary_at = _index_of(paras, _GLOSSARY, start)
    credits_at = _index_of(paras, _CREDITS, glossary_at or start)
    if glossary_at is None:
        _warn(parsed, WarningCode.NO_GLOSSARY, "no Glossary heading after the rules")
    if credits_at is None:
        _warn(parsed, WarningCode.NO_CREDITS, "no Credits heading after the glossary")
    read_rules(paras[start : glossary_at or credits_at], parsed)
    if glossary_at is not None:
        read_glossary(paras[glossary_at + 1 : credits_at], parsed)
    if credits_at is not None:
        read_back(paras[credits_at:], parsed)
    check_contents(toc, parsed)
    finish = Finish(FAMILY, PARSER_VERSION, ENGINE.references, order_from=2)
    return finish_document(parsed, finish, options, notes)
