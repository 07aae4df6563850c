"""`riftbound-cr` on a next release that words its date otherwise than `Last Updated:`."""

from __future__ import annotations

import pytest

from pipeline.models.content import Line
from pipeline.models.records import ParseOptions
from pipeline.parse.riftbound import cr

BODY = [
    "000. Golden and Silver Rules",
    "001. Cards override rules.",
    "002. Rules and Card Interaction",
    "002.1. A rule about cards.",
]


def parse(statement: str) -> tuple[str | None, list[str]]:
    texts = ["Riftbound Core Rules", statement, *BODY]
    lines = [Line(text=text, line=n) for n, text in enumerate(texts, start=1)]
    doc = cr.parse(lines, {}, ParseOptions("riftbound/cr", "txt"))
    assert [r.id for r in doc.records] == ["cr:000", "cr:001", "cr:002", "cr:002.1"]
    return doc.version, [w.code for w in doc.warnings]


@pytest.mark.parametrize(
    "statement",
    [
        "Last Updated: 2027-01-05",
        "Last Updated 1/5/2027",
        "Updated January 5, 2027",
        "Effective: January 5th, 2027",
    ],
)
def test_the_date_of_a_next_release_is_read_however_it_is_worded(statement: str) -> None:
    assert parse(statement) == ("2027-01-05", [])


def test_a_release_that_states_no_date_has_no_version_and_says_so() -> None:
    version, codes = parse("Read these rules before you play.")
    assert version is None and "no-version" in codes
