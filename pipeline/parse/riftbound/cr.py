"""Riftbound Core Rules -> records: numbers up to five levels, alternating digits and letters,
each with a trailing dot (`383.4.c.2.a.`, id `cr:383.4.c.2.a`); the golden and silver rules
(`000.`-`055.`) are ordinary records; a line without a number continues the record before
it. All of that is the engine's, from the scheme below. Riftbound's own: a `pdftotext
-layout` dump (indented, form-fed pages) where numbers drift away from their text, read by
`riftbound.layout`, which keeps only what it can align with certainty and warns about the
rest.
"""

from __future__ import annotations

from functools import partial

from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.parse.numbered.engine import Engine, read_body, read_document
from pipeline.parse.numbered.finish import finish_document
from pipeline.parse.numbered.layout import text_blocks
from pipeline.parse.riftbound.layout import parse_layout

FAMILY = "riftbound-cr"
PARSER_VERSION = "2.0"

SCHEME = NumberedScheme(
    levels=[
        LevelScheme(kind="rule", width=3, dot="required", title="short"),
        LevelScheme(kind="subrule", dot="optional"),
        LevelScheme(kind="clause", segment="letter", dot="optional"),
        LevelScheme(kind="subclause", dot="optional"),
        LevelScheme(kind="item", segment="letter", dot="optional"),
        # the Tournament Rules go two levels deeper (`602.4.b.2.a.1.`, `602.4.b.2.a.1.a.`)
        LevelScheme(kind="subitem", dot="optional"),
        LevelScheme(kind="point", segment="letter", dot="optional"),
    ],
    keywords=["rule", "see"], bullets=["*", "•", "●"], statements=["Last Updated: {date}"],
    # a next release may word its date otherwise (`Updated January 5, 2027`, `Effective: ...`)
    statement_forms=["updated", "effective"],
    # Riot writes a date in numbers month first (`Last Updated 7/16/2026`)
    version_is_date=True, hyphens="space", date_order="mdy",
)  # fmt: skip
ENGINE = Engine(SCHEME)


def looks_like_layout_dump(lines: list[Line]) -> bool:
    """`pdftotext -layout` output: many indented lines (the clean extractions have none)."""
    nonblank = [ln.text for ln in lines if ln.text.strip()]
    indented = sum(1 for t in nonblank if t.lstrip("\f").startswith("  "))
    return bool(nonblank) and indented * 10 >= len(nonblank)


def parse(lines: list[Line], notes: dict[str, int], options: ParseOptions) -> Document:
    """Parse Riftbound Core Rules lines (text export, layout dump, or two-column PDF lines)."""
    # ids are `cr:` + number, or the registry entry's prefix (`tr:` for the Tournament Rules)
    prefix = options.settings.get("prefix")
    engine = ENGINE if prefix is None else Engine(SCHEME.model_copy(update={"prefix": prefix}))
    body = partial(parse_layout, lines) if looks_like_layout_dump(lines) else read_body
    parsed = read_document(engine, text_blocks(lines), options.document, body)
    parsed.missing = "the document states no date ('Last Updated: YYYY-MM-DD', 'Updated ...')"
    return finish_document(parsed, engine.finish(FAMILY, PARSER_VERSION), options, notes)
