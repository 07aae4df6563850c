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
from pipeline.models.records import Document, Location, ParseOptions, WarningCode
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.common import warn
from pipeline.parse.fab.cr import is_title_text
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


def _accept(
    engine: Engine, start: NumberStart, texts: list[str], index: int, path: list[str]
) -> str | None:
    """The record kind when the line is a heading that continues the outline, else None."""
    chapter, section = path[0], path[1]
    if not is_title_text(start.rest):
        return None
    parent = engine.numbering.parent_of(start.number)
    if start.level == 2:
        return "subsection" if parent == section and start.number[0].isdigit() else None
    if start.level == 1:
        return (
            "appendix-section"
            if parent and parent.isupper()
            else ("section" if parent == chapter else None)
        )
    if not start.number.isdigit() or int(start.number) != int(chapter or 0) + 1:
        return None
    for text in texts[index + 1 :]:
        later = engine.numbering.match_start(text.strip())
        if later is not None and later.level == 1 and later.number.split(".")[0] == start.number:
            return "chapter"
    return None


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
    parsed = Parsed(
        drafts=[],
        missing="the text export states no version and none was given; "
        "pass the version the source is known to be",
    )
    path: list[str] = ["", ""]  # the open chapter and section
    for index, text in enumerate(texts):
        stripped = text.strip()
        if not stripped:
            continue
        start = engine.numbering.match_start(stripped)
        kind = _accept(engine, start, texts, index, path) if start is not None else None
        if start is None or kind is None:
            if parsed.drafts:
                parsed.drafts[-1].add(text, Location(line=index + 1))
            else:
                message = f"text before the first heading: {stripped[:80]!r}"
                parsed.warnings.append(warn(WarningCode.UNPLACED_TEXT, message, index + 1))
            continue
        parent = None if kind in ("chapter", "appendix-section") else path[kind == "subsection"]
        draft = Draft(start.number, kind, parent, Location(line=index + 1))
        draft.title = [start.rest]
        parsed.drafts.append(draft)
        if kind == "chapter":
            path = [start.number, ""]
        elif kind in ("section", "appendix-section"):
            path[1] = start.number
    if not any(d.kind == "chapter" for d in parsed.drafts):
        raise ParseError(document, "no chapter heading found (expected '1 Title' then '1.1 Title')")
    companion = COMPANIONS.get(prefix)

    def elsewhere(ident: str, known: set[str]) -> str:
        if companion is None or ident in known:
            return ident
        return f"{companion}:{ident.split(':', 1)[1]}"

    finish = Finish(FAMILY, PARSER_VERSION, engine.references, elsewhere=elsewhere)
    return finish_document(parsed, finish, options, notes)
