"""How a numbered rules document is numbered: declared in the registry, read by parse/numbered."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.models.base import Model


class LevelScheme(Model):
    """One level of a numbering scheme: `1.0.1a` is four levels (1, .0, .1, a)."""

    kind: str = Field(description="the level's name: chapter, section, rule, subrule, ...")
    segment: Literal["digits", "letter", "roman", "upper", "digits-or-upper"] = Field(
        default="digits",
        description="what the level adds: digits, a lower-case letter, "
        "a lower-case roman numeral, an upper-case letter, or digits or an upper-case "
        "letter (appendices A, B beside chapters 1, 2)",
    )
    width: int | None = Field(
        default=None, description="exactly this many digits (MTG's section 100 is chapter 1 + 00)"
    )
    join: str = Field(default=".", description="printed between the parent's number and this one")
    printed: Literal["full", "own"] = Field(
        default="full",
        description="full: the whole path is printed (1.0.1a); own: only this level's segment "
        "(a.), the path comes from the outline position",
    )
    dot: Literal["none", "optional", "required", "paren"] = Field(
        default="none",
        description="a dot after the number (1.2.3.); paren: a closing parenthesis (1) Game "
        "Overview), as some documents set their chapters in the body",
    )
    title: Literal["never", "always", "short"] = Field(
        default="never",
        description="what follows the number is a title: never, always, or when it is short "
        "and no sentence (8.4.4 Channel)",
    )


class NumberedScheme(Model):
    """How a numbered rules document is written: read by the `numbered` engine (parse/numbered)."""

    prefix: str = Field(default="cr", description="citation ids are prefix:number")
    levels: list[LevelScheme] = Field(min_length=1)
    skip_letters: str = Field(default="", description="letters the numbering never uses (l, o)")
    example: list[str] = Field(default=["Example"], description="labels of example paragraphs")
    note: list[str] = Field(default=["Note"], description="labels of note paragraphs")
    bullets: list[str] = Field(
        default=["•", "●", "▪", "◦"], description="glyphs that start a list item"
    )
    keywords: list[str] = Field(
        default=["rule", "section"], description="words before a cited number (plural too)"
    )
    brackets: bool = Field(default=False, description="numbers in [brackets] are references")
    bare: bool = Field(
        default=False, description="a dotted number is a reference wherever it stands"
    )
    ranges: bool = Field(default=False, description="601.2a–h and 119.7–8 are ranges")
    letters: bool = Field(default=False, description="9.2.7b, c, and d cites three rules")
    exclude_self: bool = Field(default=True, description="a record never cites itself")
    title: str | None = Field(
        default=None, description="the title the document states before its rules"
    )
    statements: list[str] = Field(
        default_factory=list,
        description="sentences that state the version or date, with {version} and {date}: "
        "'This is version {version} of this document, effective {date}.'",
    )
    statement_forms: list[str] = Field(
        default_factory=list,
        description="statement forms by name, from the engine's table (parse/numbered/"
        "statements.py FORMS): 'ver' (Ver.1.2), 'last-updated' (Last updated: 1/16/2026), "
        "'last-updated-ja' (最終更新日：2024/02/16), 'effective' (Effective: June 16th, 2017), ...",
    )
    version_pattern: str = Field(default=r"\d+(?:\.\d+)*", description="regex of a version")
    version_is_date: bool = Field(
        default=False, description="the version is the stated date (YYYY-MM-DD)"
    )
    date_is: Literal["published", "effective"] = "published"
    date_order: Literal["mdy", "dmy"] | None = Field(
        default=None,
        description="how a date in numbers that reads both ways (06/11/2020) is read: mdy "
        "(month first) or dmy (day first); unset, such a date is a publisher note and is not "
        "read (25/11/2020 and 2020/11/06 read one way only)",
    )
    hyphens: Literal["glued", "vocabulary", "space"] = Field(
        default="glued",
        description="a line ending in a dash: glued (kept, no space: non-/Commander), "
        "vocabulary (dropped unless the document writes the word with it), space",
    )
    wraps: Literal["join", "paragraphs"] = Field(
        default="join",
        description="an unnumbered line continues its paragraph (join) or is a paragraph "
        "of its own (paragraphs)",
    )
    ends: list[str] = Field(
        default_factory=list, description="headings after which the rules end (back matter)"
    )
