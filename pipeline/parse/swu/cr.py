"""Star Wars: Unlimited Comprehensive Rules (Fantasy Flight Games' PDF) -> records.

The numbering is the registry's: `[source.scheme]` of `swu-cr-pdf` declares the
outline (chapters `N.`, sections `N.`, rules `N.`, subrules `a.`, items `i.`,
every level printed with only its own segment), the reference grammar (`See
8.1. Aspect Penalties`, `Sections 11 and 12`, `as specified in 11.3.`), the
title and the statement of version and date (`3/6/26 – V 7.0`). The engine
does the rest: the outline reader builds each id from the open outline
(`cr:8.1`, `cr:8.1.1`, `cr:8.1.1.a`) and checks each label is the next in its
sequence; references, depth, counts and the record contract are its finishing.

What is SWU's own, and why it is code:
- the typesetting (`swu.layout`): which level a label is shows only in its
  indentation, section numbers are set apart from their titles, examples are
  indented paragraphs, icons are layered private-use glyphs;
- the date: the title page prints `3/6/26`, month first with a two-digit year,
  which the engine's date reader (four-digit years only) rightly refuses in general;
- one reviewed publisher slip (`swu.defects`): `See 7.6.3A` for subrule 7.6.3.a;
- chapter 6 numbers the first rule of three sections `0.` (`place_zero`).

Not read: the red the publisher marks changes in (RGB 0.82, 0.14, 0.16). The
extraction's highlight test knows NISEI's orange, and here it fires on orange
aspect icons instead, so no SWU record claims `highlighted`.
"""

from __future__ import annotations

import re

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.records import Document, Location, ParseOptions, Passage, WarningCode
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.common import baseline, warn
from pipeline.parse.numbered.engine import Engine, Reader
from pipeline.parse.numbered.finish import Finish, Parsed, finish_document
from pipeline.parse.numbered.layout import runs, wrap_joiner
from pipeline.parse.numbered.numbers import NumberStart
from pipeline.parse.numbered.records import line_at, lines_span
from pipeline.parse.numbered.statements import find_statement, read_date
from pipeline.parse.swu.defects import DefectReferences, record_defects
from pipeline.parse.swu.layout import Layout, Paragraph, read_layout

FAMILY = "swu-cr"
PARSER_VERSION = "1.0"
# `3/6/26`: Fantasy Flight Games (Roseville, MN) writes dates month first, years in two
# digits; every SWU document is from this century.
SHORT_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2})$")
HEADING_SIZE_STEP = 1.5

# The numbering, as data: what a registry entry's [source.scheme] would hold (the
# registry pairs a scheme with family `numbered` only, whose PDF reader cannot read this
# typesetting; a scheme the caller passes in the options wins over this one).
SCHEME = NumberedScheme(
    levels=[
        LevelScheme(kind="chapter", printed="own", dot="required", title="always"),
        LevelScheme(kind="section", printed="own", dot="required", title="always"),
        LevelScheme(kind="rule", printed="own", dot="required", title="short"),
        LevelScheme(kind="subrule", segment="letter", printed="own", dot="required", title="short"),
        LevelScheme(kind="item", segment="roman", printed="own", dot="required", title="short"),
    ],
    title="Comprehensive Rules",
    statements=["{date} \u2013 V {version}"],
    # a next release may set its version and date apart or word them otherwise
    statement_forms=["version", "v", "updated", "effective"],
    keywords=["see", "section"],
    bare=True,
    hyphens="glued",
)


def read_short_date(text: str) -> str | None:
    """`3/6/26` -> `2026-03-06`; any other written date as the engine reads it. A dash left
    over from the statement (`3/6/27 - V 8.0`, a hyphen for the en dash) is no part of it."""
    text = text.strip().rstrip("-\u2013\u2014 ")
    match = SHORT_US_DATE.match(text)
    if match is None:
        return read_date(text)
    month, day, year = match.groups()
    return read_date(f"20{year}-{month}-{day}")


def read_front(engine: Engine, front: list[Line], parsed: Parsed, finish: Finish) -> None:
    """Title, version and date from the title page; the rest is the introduction."""
    found = find_statement(front, engine.statements)
    if found is None:
        parsed.missing = "the title page states no version (`M/D/YY – V N.N`)"
    else:
        parsed.stated = found.version
        parsed.published = read_short_date(found.date_text or "")
        if parsed.published is None:
            line = found.lines[0]
            message = (
                f"cannot read the date in {found.date_text!r}"
                if found.date_text
                else "the title page states a version but no date"
            )
            parsed.warnings.append(warn(WarningCode.BAD_DATE, message, line.line, line.page))
    used = {ln.line for ln in found.lines} if found is not None else set()
    wanted = (engine.scheme.title or "").lower()
    title = next((ln for ln in front if wanted and wanted in ln.text.lower()), None)
    if title is None:
        message = f"the title page does not state {engine.scheme.title!r}"
        parsed.warnings.append(warn(WarningCode.TITLE_NOT_RECOGNISED, message))
    else:
        parsed.title = title.text.strip()
        used.add(title.line)
    rest = [ln for ln in front if ln.line not in used]
    if rest:
        parsed.front_matter.append(front_passage(rest, finish))


def front_passage(lines: list[Line], finish: Finish) -> Passage:
    """The introduction: its heading as the title, paragraphs split at vertical gaps."""
    body_size = min(ln.size or 0.0 for ln in lines)
    heading = lines[0] if (lines[0].size or 0.0) > body_size + HEADING_SIZE_STEP else None
    text_lines = lines[1:] if heading is not None else lines
    title = heading.text.strip() if heading is not None else "Preface"
    return Passage(
        id=re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-"),
        title=title,
        text=join_paragraphs(text_lines, finish),
        location=lines_span(lines),
    )


def join_paragraphs(lines: list[Line], finish: Finish) -> str:
    """Lines joined as the document sets them: wraps rejoined, paragraphs on lines of their own."""

    def opens(line: Line, paragraph: list[Line]) -> bool:
        previous = paragraph[-1]
        step = baseline(line) - baseline(previous)
        return previous.page != line.page or step > 1.25 * (line.size or 10)

    paragraphs = runs(lines, opens)
    return "\n".join(finish.join([line.text.strip() for line in p]) for p in paragraphs)


def read_body(reader: Reader, layout: Layout, parsed: Parsed, finish: Finish) -> None:
    """Place each paragraph with the engine's outline reader."""
    back: list[Line] = []
    for paragraph in layout.body:
        at = Location(line=paragraph.first.line, page=paragraph.first.page)
        if paragraph.role == "back":
            back.extend(paragraph.lines)
        elif paragraph.role in ("chapter", "entry"):
            open_entry(reader, paragraph, at)
        elif (draft := reader.current) is None:
            message = f"cannot place {paragraph.first.text[:80]!r}: no rule is open here"
            reader.warnings.append(warn(WarningCode.UNPLACED_TEXT, message, at))
        else:
            pieces, wheres = paragraph.pieces, [line_at(line) for line in paragraph.lines]
            if paragraph.role == "example":
                draft.open("examples", pieces[0], wheres[0])
            elif paragraph.role == "bullet":
                draft.open("bullets", reader.engine.glyph.sub("", pieces[0]), wheres[0])
            elif draft.part != "text":
                draft.open("text", pieces[0], wheres[0])
            else:
                draft.add(pieces[0], wheres[0])
            for piece, where in zip(pieces[1:], wheres[1:], strict=True):
                draft.add(piece, where)
    for line in layout.unplaced:
        message = f"a line at x={line.x0} fits no indentation of its rule: {line.text[:80]!r}"
        parsed.warnings.append(warn(WarningCode.UNPLACED_TEXT, message, line.line, line.page))
    if back:
        text = join_paragraphs(back, finish)
        parsed.back_matter.append(
            Passage(id="copyright", title="Copyright", text=text, location=lines_span(back))
        )


def open_entry(reader: Reader, paragraph: Paragraph, at: Location) -> None:
    """An outline label: placed under the open outline, or a warning when it does not follow."""
    level = paragraph.level or 0
    start = NumberStart(level, paragraph.label, paragraph.rest, own=True)
    placed = reader.place(start) or place_zero(reader, start)
    if placed is None or placed[0] in reader.seen:
        kind = reader.numbering.levels[level].kind
        message = f"{kind} label {paragraph.label!r} does not follow the open outline"
        reader.warnings.append(warn(WarningCode.NUMBERING, message, at))
        if reader.current is not None:
            reader.current.add(paragraph.first.text.strip(), line_at(paragraph.first))
        return
    draft = reader.open(placed[0], placed[1], level, paragraph.rest, at)
    for piece, line in zip(paragraph.pieces[1:], paragraph.lines[1:], strict=True):
        draft.add(piece, line_at(line))


def place_zero(reader: Reader, start: NumberStart) -> tuple[str, str | None] | None:
    """A first rule numbered `0.`: chapter 6 says 'subheadings begin with 0 in this section
    for clarity when referring to the steps of an action' (6.2.0 General, 6.2.1 Declare
    intent, ...). The engine's sequences start at 1, so a `0.` is accepted here, and only as
    the first entry of its parent."""
    level = start.level
    if start.number != "0" or not level or reader.numbering.levels[level].segment != "digits":
        return None
    parent = reader.open_path[level - 1]
    last = reader.open_path[level]
    if parent is None or (last is not None and reader.numbering.parent_of(last) == parent):
        return None
    return parent + reader.numbering.levels[level].join + start.number, parent


def parse(lines: list[Line], notes: dict[str, int], options: ParseOptions) -> Document:
    """SWU Comprehensive Rules PDF lines -> Document, by its numbering scheme."""
    scheme = options.scheme or SCHEME
    if options.rendition != "pdf":
        raise ParseError(options.document, f"swu-cr reads the PDF, not {options.rendition!r}")
    layout = read_layout(scheme, lines)
    scheme = layout.scheme or scheme  # with the level the document sets below its deepest
    engine = Engine(scheme)
    references = DefectReferences(scheme, engine.numbering)
    finish = Finish(FAMILY, PARSER_VERSION, references, wrap_joiner(scheme.hyphens), order_from=0)
    if not any(p.role == "chapter" for p in layout.body):
        raise ParseError(options.document, "no chapter heading (`1. GAME CONCEPTS`) found")
    parsed = Parsed(drafts=[])
    read_front(engine, layout.front, parsed, finish)
    reader = Reader(engine)
    read_body(reader, layout, parsed, finish)
    parsed.drafts = reader.settle()
    parsed.warnings += reader.warnings
    extraction = dict(notes or {}) | layout.notes
    doc = finish_document(parsed, finish, options, extraction)
    return record_defects(doc)
