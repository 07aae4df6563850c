"""Consistency checks on a parsed MTG document: numbering and the contents list.

Each returns warnings (never raises): a check that finds nothing is silent, so
a clean document keeps zero warnings.
"""

from __future__ import annotations

from pipeline.models import Location, ParseWarning, Rule
from pipeline.parse.common import warn
from pipeline.parse.mtg.refs import SUBRULE_LETTERS


def _warn_at(code: str, message: str, location: Location) -> ParseWarning:
    return warn(code, message, location.line, location.page)


def check_numbering(records: list[Rule]) -> tuple[list[ParseWarning], int]:
    """Warnings for numbering that goes backwards or uses l/o, and the count of forward gaps.

    Forward gaps are the publisher's (20230414 numbers 712.3d right after
    712.3, fixed in 20240607); they are kept as printed, counted, not warned.
    """
    warnings: list[ParseWarning] = []
    gaps = 0
    last_rule: dict[str, int] = {}
    last_letter: dict[str, str] = {}
    for record in records:
        if record.kind == "rule":
            section, rule = record.number.split(".")
            expected = last_rule.get(section, 0) + 1
            if int(rule) < expected:
                message = f"{record.number} follows {section}.{expected - 1}"
                warnings.append(_warn_at("numbering", message, record.location))
            gaps += int(rule) > expected
            last_rule[section] = int(rule)
        elif record.kind == "subrule":
            base, letter = record.number[:-1], record.number[-1]
            if letter not in SUBRULE_LETTERS:
                message = f"{record.number} uses a letter the rules skip"
                warnings.append(_warn_at("numbering", message, record.location))
                continue
            prev = last_letter.get(base)
            expected_index = SUBRULE_LETTERS.index(prev) + 1 if prev else 0
            index = SUBRULE_LETTERS.index(letter)
            if index < expected_index:
                message = f"{record.number} follows {base}{prev}"
                warnings.append(_warn_at("numbering", message, record.location))
            gaps += index > expected_index
            last_letter[base] = letter
    return warnings, gaps


def check_contents(toc: list[str], records: list[Rule]) -> list[ParseWarning]:
    """The Contents list must name the same chapters and sections, in order, as the body."""
    body = [f"{r.number}. {r.title}" for r in records if r.title is not None]
    if [" ".join(t.split()) for t in toc] == [" ".join(b.split()) for b in body]:
        return []
    missing = [b for b in body if b not in toc][:5]
    extra = [t for t in toc if t not in body][:5]
    message = (
        f"the Contents list and the headings differ: "
        f"headings not listed {missing}, listed but absent {extra}"
    )
    return [warn("contents-mismatch", message)]


