"""FaB policy documents (`fab-policy`): Tournament Rules and Policy (TRP), Procedure and
Penalty Guide (PPG). Numbered headings (`1 Tournament Information`, `1.1 ...`, `8.1.1 ...`,
appendix `A.1 ...`), each followed by unnumbered paragraphs, list items and flattened table
cells; each heading is a record `trp:1.1` whose text is every line under it, verbatim.
Table cells such as `9 -- 16` look like chapters, so a chapter must be the next one and
have sections later; sections and subsections must continue the current ones. Bracketed
references cite the document itself, except that the PPG cites the TRP by number (`[6.2]`
Cheating): a PPG number the PPG does not have is `trp:`.
"""

from __future__ import annotations

from pipeline.errors import ParseError
from pipeline.models.content import Line
from pipeline.models.records import Document, Location, ParseOptions
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.common import unplaced
from pipeline.parse.fab.cr import NO_STATED_VERSION, is_title_text
from pipeline.parse.numbered.engine import Engine
from pipeline.parse.numbered.finish import Finish, Parsed, finish_document
from pipeline.parse.numbered.numbers import NumberStart
from pipeline.parse.numbered.records import Draft

FAMILY = "fab-policy"
PARSER_VERSION = "2.0"
COMPANIONS = {"ppg": "trp"}
LEVELS = [
    LevelScheme(kind="chapter", segment="digits-or-upper", title="always"),
    LevelScheme(kind="section", title="always"),
    LevelScheme(kind="subsection", title="always"),
]
SHAPE = NumberedScheme(levels=LEVELS)  # the numbers of either document, for their account


def _heading(
    engine: Engine, start: NumberStart, texts: list[str], index: int, chapter: str, section: str
) -> tuple[str, str | None] | None:
    """(kind, parent) when the line is a heading that continues the outline, else None."""
    if not is_title_text(start.rest):
        return None
    parent = engine.numbering.parent_of(start.number)
    if start.level == 2:
        return ("subsection", section) if parent == section and start.number[0].isdigit() else None
    if start.level == 1 and parent and parent.isupper():
        return "appendix-section", None
    if start.level == 1:
        return ("section", chapter) if parent == chapter else None
    if not start.number.isdigit() or int(start.number) != int(chapter or 0) + 1:
        return None
    later = (engine.numbering.match_start(text.strip()) for text in texts[index + 1 :])
    sections = (s.number.split(".")[0] for s in later if s is not None and s.level == 1)
    return ("chapter", None) if start.number in sections else None


def parse(lines: list[Line], notes: dict[str, int], options: ParseOptions) -> Document:
    """Numbered headings of a TRP or PPG text export as records `<short name>:<number>`."""
    document, rendition = options.document, options.rendition
    if rendition != "txt":
        raise ParseError(document, f"rendition {rendition!r} is not one fab-policy reads (txt)")
    prefix = document.rsplit("/", 1)[-1]
    engine = Engine(
        NumberedScheme(prefix=prefix, levels=LEVELS, brackets=True, keywords=[], wraps="paragraphs")
    )
    texts = [line.text for line in lines]
    parsed = Parsed(drafts=[], missing=NO_STATED_VERSION)
    chapter = section = ""  # the open ones
    for index, text in enumerate(texts):
        if not (stripped := text.strip()):
            continue
        at = Location(line=index + 1)
        start = engine.numbering.match_start(stripped)
        heading = _heading(engine, start, texts, index, chapter, section) if start else None
        if start is None or heading is None:
            if parsed.drafts:
                parsed.drafts[-1].add(text, at)
            else:
                parsed.warnings.append(unplaced(stripped, at))
            continue
        kind, parent = heading
        parsed.drafts.append(Draft(start.number, kind, parent, at, title=[start.rest]))
        if kind == "chapter":
            chapter, section = start.number, ""
        elif kind != "subsection":
            section = start.number
    if not any(d.kind == "chapter" for d in parsed.drafts):
        raise ParseError(document, "no chapter heading found (expected '1 Title' then '1.1 Title')")
    finish = Finish(FAMILY, PARSER_VERSION, engine.references, companion=COMPANIONS.get(prefix))
    return finish_document(parsed, finish, options, notes)
