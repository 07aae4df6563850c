"""Regression tests of the parsers, one per defect, named after it. Each docstring says
what was found."""

from __future__ import annotations

import pytest
from helpers import SHARED
from mtg_sources import MTG

from pipeline.runner.request import ParseRequest


@pytest.mark.parametrize(
    ("path", "family", "code"),
    [
        ("fab/comprehensive-rules/2.14.0/en-fab-cr.txt", "fab-cr", "unexpected-end"),
        (MTG.format("20251114"), "mtg-cr", "no-credits"),
    ],
)
def test_a_document_that_stops_short_is_never_clean(path: str, family: str, code: str) -> None:
    """A text export cut off before its end parsed with no warning."""
    from pipeline.runner.families import parse_bytes

    data = (SHARED / path).read_bytes()
    request = ParseRequest(
        family=family, document=family[:-3] + "/cr", rendition="txt", what=path, version="v"
    )
    assert code not in {w.code for w in parse_bytes(data, request).warnings}
    cut = parse_bytes(data[: int(len(data) * 0.97)], request)
    assert code in {w.code for w in cut.warnings}, "a truncated file must not parse clean"


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def test_arabic_indic_and_full_width_digits_are_not_rule_numbers() -> None:
    """Lines numbered in Arabic-Indic or full-width digits were read as rules of their own,
    whose ids then collided with the ASCII ones on the site (full-width folds to ASCII):
    a rule number is ASCII digits."""
    from pipeline.runner.families import parse_bytes

    path = MTG.format("20251114")
    text = (SHARED / path).read_text(encoding="utf-8-sig")
    at = text.index("\n100.1. ")
    planted = "".join(
        f"\n{'100.7a'.translate(table)} A line numbered in other digits."
        for table in (ARABIC_INDIC, FULL_WIDTH)
    )
    end = text.index("\n", at + 1)
    data = (text[:end] + planted + text[end:]).encode()
    request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="txt", what=path)
    ids = [r.id for r in parse_bytes(data, request).records]
    assert all(r.isascii() for r in ids), [r for r in ids if not r.isascii()]
    assert len(ids) == len(set(ids))
