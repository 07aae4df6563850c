"""`netrunner-cr` on a layout of another edition: where rule numbers and lettered subrules
sit is measured from the document, not taken from the 1.1-1.4 page geometry."""

from __future__ import annotations

from functools import cache

import pytest

from pipeline.extract.pdf import extract_pdf_lines
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.netrunner import cr
from tests.support.helpers import SHARED

PDF = "netrunner/comprehensive-rules/1.4/Comprehensive_Rules.pdf"
OPTIONS = ParseOptions(document="netrunner/cr", rendition="pdf")


@cache
def real_lines() -> tuple[Line, ...]:
    data = (SHARED / PDF).read_bytes()
    return tuple(extract_pdf_lines(data, what=PDF, columns=1, engine="pdfium").lines)


def records(doc: Document) -> list[tuple[str, str | None, str]]:
    return [(r.id, r.title, r.text) for r in doc.records]


@pytest.mark.parametrize("shift", [30.0, -20.0])
def test_rules_and_subrules_set_at_other_margins_are_read_alike(shift: float) -> None:
    """With 1.4's indentations written into the code, rule numbers moved 30 pt right fell
    past the rule limit and became text of the rule before: the limits are now half way
    between the measured indentations of rules, subrules and subrule wraps."""
    real = cr.parse(list(real_lines()), {}, OPTIONS)
    moved = [ln.model_copy(update={"x0": (ln.x0 or 0.0) + shift}) for ln in real_lines()]
    doc = cr.parse(moved, {}, OPTIONS)
    assert records(doc) == records(real)
    assert [w.code for w in doc.warnings] == [w.code for w in real.warnings]


def test_the_measured_limits_fall_between_the_indentations() -> None:
    rule_max, subrule_max = cr.indent_limits(list(real_lines()))
    assert 99 < rule_max < 144 and 144 < subrule_max < 168
