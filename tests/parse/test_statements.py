"""Version and date statements read as a person reads them (issue: robust statement reading).

Releases of one document write the same sentence with other punctuation, spacing and
capitalisation; every variation a reader takes for the same statement is accepted, and
anything else is refused (None: the parser then warns `no-version` or `bad-date`,
never guesses).
"""

from __future__ import annotations

import pytest

from pipeline.parse.mtg.cr import SCHEME as MTG
from pipeline.parse.netrunner.cr import SCHEME as NISEI
from pipeline.parse.numbered.statements import (
    DateOrder,
    ambiguous_date,
    compile_statement,
    read_date,
)
from pipeline.parse.riftbound.cr import SCHEME as RIFTBOUND


@pytest.mark.parametrize(
    "written",
    [
        "20 December 2019",
        "20 december 2019",
        "20 DECEMBER 2019",
        "20th December 2019",
        "20  December  2019",
        "December 20, 2019",
        "December 20 2019",
        "December 20th, 2019",
        "Dec 20, 2019",
        "Dec. 20, 2019",
        "20 Dec 2019",
        "2019-12-20",
        "20191220",
        "12/20/2019",
        " December 20, 2019. ",
    ],
)
def test_every_way_of_writing_one_date_reads_the_same(written: str) -> None:
    assert read_date(written) == "2019-12-20"


@pytest.mark.parametrize(
    "written",
    [
        "31 February 2019",  # no such day
        "2019-13-01",
        "20 Decembr 2019",  # not a month a reader knows
        "December 2019",  # no day: not a date of the document
        "the 20th of December, 2019",
        "20.12.2019",
        "",
    ],
)
def test_anything_else_is_refused_not_guessed(written: str) -> None:
    assert read_date(written) is None


@pytest.mark.parametrize(
    ("template", "line", "version", "date"),
    [
        (
            MTG.statements[0],
            "These rules are effective as of November 14, 2025.",
            None,
            "2025-11-14",
        ),
        (
            MTG.statements[0],
            "These rules are effective as of November 14, 2025",
            None,
            "2025-11-14",
        ),
        (
            MTG.statements[0],
            "These Rules Are Effective As Of November 14, 2025.",
            None,
            "2025-11-14",
        ),
        (MTG.statements[0], "These rules are  effective as of  Nov. 14, 2025.", None, "2025-11-14"),
        (
            NISEI.statements[0],
            "This is version 1.4 of this document, effective 20 December 2019.",
            "1.4",
            "2019-12-20",
        ),
        (
            NISEI.statements[0],
            "This is version 1.4 of this document effective 20 December 2019",
            "1.4",
            "2019-12-20",
        ),
        (
            NISEI.statements[0],
            "this is Version 1.4 of this document , effective December 20, 2019.",
            "1.4",
            "2019-12-20",
        ),
        (RIFTBOUND.statements[0], "Last Updated: 2025-10-01", None, "2025-10-01"),
        (RIFTBOUND.statements[0], "Last updated 2025-10-01", None, "2025-10-01"),
        (RIFTBOUND.statements[0], "LAST UPDATED : October 1, 2025", None, "2025-10-01"),
    ],
)
def test_a_statement_is_read_whatever_its_punctuation_spacing_and_case(
    template: str, line: str, version: str | None, date: str
) -> None:
    match = compile_statement(template).search(line)
    assert match is not None, line
    groups = match.groupdict()
    assert groups.get("version") == version
    assert read_date(groups["date"]) == date


@pytest.mark.parametrize(
    ("template", "line"),
    [
        (MTG.statements[0], "These rules were effective as of November 14, 2025."),
        (MTG.statements[0], "Rules effective as of November 14, 2025."),
        (
            NISEI.statements[0],
            "This is version 1.4 of the tournament rules, effective 20 December 2019.",
        ),
        (RIFTBOUND.statements[0], "Last Played: 2025-10-01"),
    ],
)
def test_another_sentence_is_not_the_statement(template: str, line: str) -> None:
    assert compile_statement(template).search(line) is None


@pytest.mark.parametrize(
    ("written", "order", "date"),
    [
        ("06/11/2020", None, None),  # 6 November or 11 June: not read without an order
        ("06/11/2020", "dmy", "2020-11-06"),
        ("06/11/2020", "mdy", "2020-06-11"),
        ("25/11/2020", None, "2020-11-25"),  # only day first gives a date
        ("11/25/2020", "dmy", "2020-11-25"),  # only month first does, whatever the order
        ("06/06/2020", None, "2020-06-06"),  # the same day either way
        ("2024/02/16", None, "2024-02-16"),  # year first reads one way
        ("2024.02.16", None, "2024-02-16"),
    ],
)
def test_a_date_in_numbers_is_read_by_its_values_or_by_the_stated_order(
    written: str, order: DateOrder | None, date: str | None
) -> None:
    assert read_date(written, order) == date
    assert ambiguous_date(written) is (written == "06/11/2020")
