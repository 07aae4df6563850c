"""Force of Will Comprehensive Rules 7.0 (a text conversion) through its example registry
entry alone: the contents list of section headings is skipped, sections of three and four
digits and subrules with roman tails (`903.2i-i`) are read, version and date come from
the document."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.helpers import parse_example

# A number as a reader counts rules: `100.`, `1009.`, `101.1.`, `105.3a.`, `903.2i-i.` at a
# line's start, or after a sentence's end where the conversion ran a rule into the line
# before (`… the rules below: 1301.1a. If only one player …`).
NUMBERED = re.compile(
    r"(?:^(NUMBER)\. |(?<=[.:] )(NUMBER)\. (?=[A-Z]))".replace(
        "NUMBER", r"\d{3,4}(?:\.\d+(?:[a-z](?:-[ivx]+)?)?)?"
    ),
    re.MULTILINE,
)


@pytest.fixture(scope="module")
def fow() -> tuple[Any, str]:
    doc, data = parse_example("fow")
    return doc, data.decode("utf-8-sig")


def test_every_numbered_line_is_one_record_and_the_contents_none(fow: tuple[Any, str]) -> None:
    doc, text = fow
    printed = [start or run_in for start, run_in in NUMBERED.findall(text)]
    numbers = [r.number for r in doc.records]
    assert len(numbers) == len(set(numbers)) == len(set(printed))
    assert set(numbers) == set(printed)
    # the contents: every line before the first section heads its body for the second time
    contents = printed.index("100", 1)
    assert doc.counts["contents_entries"] == len(printed) - len(set(printed)) == contents


def test_sections_of_four_digits_and_roman_tails_nest(fow: tuple[Any, str]) -> None:
    doc, _ = fow
    by_id = {r.id: r for r in doc.records}
    assert by_id["cr:1009"].title == "Draw"
    assert by_id["cr:903.2i-i"].parent == "cr:903.2i"
    assert by_id["cr:903.2i"].parent == "cr:903.2"
    assert by_id["cr:903.2i-i"].depth == 4
    assert by_id["cr:1415.1d-iii"].kind == "item"


def test_version_date_and_title_are_read_from_the_document(fow: tuple[Any, str]) -> None:
    doc, _ = fow
    assert (doc.version, doc.published) == ("7.0", "2017-08-16")
    assert doc.title == "Force of Will Comprehensive Rules"


def test_nothing_is_misread(fow: tuple[Any, str]) -> None:
    doc, _ = fow
    assert doc.warnings == []


def test_the_conversion_note_after_the_rules_is_no_part_of_the_last_rule(
    fow: tuple[Any, str],
) -> None:
    """`Converted to .txt form by …`, after a blank line past the last rule, was read as
    the end of rule 1416.4a; in this document no rule goes on past a blank line."""
    doc, _ = fow
    assert doc.records[-1].text.endswith("treat it as if that card said “Pay [0]”.")
    (note,) = doc.back_matter
    assert note.text == "Converted to .txt form by Stefan Letica"


def test_regression_a_rule_run_into_the_line_before_was_lost_in_its_text(
    fow: tuple[Any, str],
) -> None:
    """The conversion runs 1301.1a into 1301.1's line (`… the rules below: 1301.1a. If only
    one player …`): it was the end of 1301.1's text, with no warning. It is its own rule."""
    doc, _ = fow
    by_number = {r.number: r for r in doc.records}
    assert by_number["1301.1"].text.endswith("it follows the rules below:")
    assert by_number["1301.1a"].text.startswith("If only one player can stop the loop")
    assert by_number["1301.1a"].parent == "cr:1301.1"
