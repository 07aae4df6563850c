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
