"""How a numbered rules document is numbered: declared in the registry, read by parse/numbered."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from pipeline.models.base import Model
from pipeline.models.path_parts import prefix_problem

MAX_LEVELS = 12
MAX_WIDTH = 9
MAX_LABELS = 50
MAX_PATTERN = 500
# The statements publishers print, by name (the numbered engine's, and a registry's
# `statement_forms`). Case, spacing and punctuation are free (compile_statement in
# parse/numbered/statements.py), so `Ver.1.2`, `ver. 7.0` and `VER 1.2` are one form.
FORMS: dict[str, str] = {
    "ver": "Ver. {version}",
    "version": "Version {version}",
    "v": "V {version}",
    "last-updated": "Last updated: {date}",
    "last-update": "Last update: {date}",
    "updated": "Updated {date}",
    "effective": "Effective: {date}",
    "effective-date": "Effective date: {date}",
    "date": "Date: {date}",
    "current-as-of": "These rules are current as of {date}.",
    "effective-as-of": "These rules are effective as of {date}.",
    "version-ja": "バージョン {version}",
    "version-zh": "版本 {version}",
    "version-ko": "버전 {version}",
    "last-updated-ja": "最終更新日：{date}",
    "last-updated-zh": "最终更新日：{date}",
}
STATEMENT_FORMS = tuple(FORMS)  # named in the registry's model: an unknown one fails at load
SLOTS = ("{version}", "{date}")
# A back-reference (\1, \g<1>, (?P=name)): inside a statement the pattern stands in a
# group of its own, beside others, so the group it names is not the one it meant.
_BACKREFERENCE = re.compile(r"\\\\|(\\[1-9]|\\g<|\(\?P=)")


def pattern_problem(pattern: str, *, groups: bool = True) -> str | None:
    """Why `pattern` is no usable regex (it does not compile, is too long, or names groups
    or refers back to one where a template adds its own groups), or None."""
    if len(pattern) > MAX_PATTERN:
        return f"the pattern is longer than {MAX_PATTERN} characters"
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        return f"not a valid regular expression ({exc})"
    except (OverflowError, RecursionError):
        return "not a valid regular expression (too deeply nested or too large)"
    if not groups and compiled.groupindex:
        return "named groups are not allowed here (the statement adds its own)"
    if not groups and any(m.group(1) for m in _BACKREFERENCE.finditer(pattern)):
        return (
            "back-references (\\1, (?P=name)) are not allowed here (the statement adds its "
            "own groups)"
        )
    return None


def template_problem(template: str) -> str | None:
    """Why a statement or `ends` template cannot be read, or None: each slot at most once
    (a second would be a second group of one name), no brace outside a slot."""
    for slot in SLOTS:
        if template.count(slot) > 1:
            return f"{template!r} holds {slot} more than once"
    rest = template
    for slot in SLOTS:
        rest = rest.replace(slot, "")
    if "{" in rest or "}" in rest:
        return f"{template!r} holds a brace that is neither {{version}} nor {{date}}"
    return None


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

    @field_validator("width")
    @classmethod
    def _check_width(cls, width: int | None) -> int | None:
        if width is not None and not 1 <= width <= MAX_WIDTH:
            raise ValueError(f"between 1 and {MAX_WIDTH}, not {width}")
        return width

    @field_validator("join")
    @classmethod
    def _check_join(cls, join: str) -> str:
        if len(join) > 3 or any(c.isalnum() for c in join):
            raise ValueError("up to 3 punctuation characters")
        return join

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

    # Every value is checked here, at load, so that none fails later inside a parse: each
    # error names the key (the registry loader adds the file and the entry).
    @field_validator("prefix")
    @classmethod
    def _check_prefix(cls, value: str) -> str:
        if problem := prefix_problem(value):
            raise ValueError(problem)
        return value

    @field_validator("levels")
    @classmethod
    def _check_levels(cls, levels: list[LevelScheme]) -> list[LevelScheme]:
        if len(levels) > MAX_LEVELS:
            raise ValueError(f"at most {MAX_LEVELS} levels, not {len(levels)}")
        return levels

    @field_validator("bullets", "example", "note", "keywords", "statements", "ends")
    @classmethod
    def _check_labels(cls, values: list[str]) -> list[str]:
        if len(values) > MAX_LABELS:
            raise ValueError(f"at most {MAX_LABELS} entries")
        if any(not value.strip() for value in values):
            raise ValueError("an entry is empty")
        return values

    @field_validator("statements", "ends")
    @classmethod
    def _check_templates(cls, values: list[str]) -> list[str]:
        for template in values:
            if problem := template_problem(template):
                raise ValueError(problem)
        return values

    @field_validator("statements")
    @classmethod
    def _check_statements(cls, values: list[str]) -> list[str]:
        for template in values:
            if not any(slot in template for slot in SLOTS):
                raise ValueError(f"{template!r} holds neither {{version}} nor {{date}}")
        return values

    @field_validator("statement_forms")
    @classmethod
    def _check_forms(cls, names: list[str]) -> list[str]:
        unknown = [name for name in names if name not in STATEMENT_FORMS]
        if unknown:
            raise ValueError(
                f"unknown statement form {unknown[0]!r}; known: {', '.join(STATEMENT_FORMS)}"
            )
        return names

    @field_validator("skip_letters")
    @classmethod
    def _check_skip_letters(cls, value: str) -> str:
        if any(not c.isalpha() for c in value):
            raise ValueError("letters only")
        return value

    @field_validator("version_pattern")
    @classmethod
    def _check_version_pattern(cls, pattern: str) -> str:
        if problem := pattern_problem(pattern, groups=False):
            raise ValueError(f"{pattern!r}: {problem}")
        return pattern
