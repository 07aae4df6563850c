"""Regression tests of the parsers, one per defect, named after it. Each docstring says
what was found."""

from __future__ import annotations

import pytest

from pipeline.runner.request import ParseRequest
from tests.support.helpers import SHARED
from tests.support.mtg_sources import MTG


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


@pytest.mark.parametrize(
    ("path", "family", "anchor"),
    [
        (MTG.format("20251114"), "mtg-cr", "\n100.1. "),
        ("fow/comprehensive-rules/7.0/fow-cr-7.0.txt", "numbered", "\n101.1. "),
    ],
)
def test_arabic_indic_and_full_width_digits_are_not_rule_numbers(
    path: str, family: str, anchor: str
) -> None:
    """Lines numbered in Arabic-Indic or full-width digits were read as rules of their own,
    whose ids then collided with the ASCII ones on the site (full-width folds to ASCII):
    a rule number is ASCII digits."""
    from pipeline.registry.loader import load_registry
    from pipeline.runner.families import parse_bytes
    from pipeline.runner.request import request_for

    text = (SHARED / path).read_text(encoding="utf-8-sig")
    at = text.index(anchor)
    number = anchor.strip()[:-1] + "9"
    planted = "".join(
        f"\n{number.translate(table)}. A line numbered in other digits."
        for table in (ARABIC_INDIC, FULL_WIDTH)
    )
    end = text.index("\n", at + 1)
    data = (text[:end] + planted + text[end:]).encode()
    if family == "numbered":
        (source,) = [s for s in load_registry() if s.id == "fow-cr-txt"]
        request = request_for(source, what=path)
    else:
        request = ParseRequest(family=family, document="mtg/cr", rendition="txt", what=path)
    ids = [r.id for r in parse_bytes(data, request).records]
    assert all(r.isascii() for r in ids), [r for r in ids if not r.isascii()]
    assert len(ids) == len(set(ids))
