"""`swu-cr` on layouts of a next release: the outline levels are read from where this
document sets its labels, not from where 7.0 set them. Each variant moves the real 7.0
lines the way a new edition's typesetting would (other margins, mirrored margins on facing
pages, wider indents) and must read to exactly the records of 7.0."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

import pytest

from pipeline.extract.pdf import extract_pdf_lines
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.swu import cr
from pipeline.parse.swu.pages import pair_section_numbers
from tests.support.helpers import SHARED

PDF = "swu/comprehensive-rules/7.0/SWU-comprehensive-rules.pdf"
OPTIONS = ParseOptions(document="swu/cr", rendition="pdf")


@cache
def real_lines() -> tuple[Line, ...]:
    data = (SHARED / PDF).read_bytes()
    return tuple(extract_pdf_lines(data, what=PDF, columns=1, engine="pdfium").lines)


@cache
def real_doc() -> Document:
    return cr.parse(list(real_lines()), {}, OPTIONS)


def moved(how: Callable[[Line], float]) -> list[Line]:
    return [line.model_copy(update={"x0": how(line)}) for line in real_lines()]


def records(doc: Document) -> list[tuple[str, str, list[str]]]:
    return [(r.id, r.text, r.examples) for r in doc.records]


VARIANTS: dict[str, Callable[[Line], float]] = {
    "other margins": lambda line: (line.x0 or 0.0) + 20,
    "mirrored margins, left pages further in": lambda line: (
        (line.x0 or 0.0) + (15 if (line.page or 0) % 2 == 0 else 0)
    ),
    "mirrored margins, left pages further out": lambda line: (
        (line.x0 or 0.0) - (18 if (line.page or 0) % 2 == 0 else 0)
    ),
    "wider indents": lambda line: 30 + 1.25 * (line.x0 or 0.0),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_new_layout_reads_to_the_same_records(variant: str) -> None:
    doc = cr.parse(moved(VARIANTS[variant]), {}, OPTIONS)
    assert doc.warnings == []
    assert records(doc) == records(real_doc())
    assert len(doc.records) == 913


def test_facing_pages_that_were_not_shifted_lose_labels_without_the_frame() -> None:
    """Found on an unseen release: with the left-hand pages set 15 pt further in, each
    level had two indentations and the labels of half the pages fitted none (378 of 913
    records). The shift is measured and reported; 7.0 itself is read unshifted."""
    shifted = cr.parse(moved(VARIANTS["mirrored margins, left pages further in"]), {}, OPTIONS)
    assert shifted.extraction.get("facing_pages_shift") in (-15, -14, -16)
    assert "facing_pages_shift" not in real_doc().extraction


def test_sections_set_on_one_line_with_their_number_are_sections() -> None:
    """7.0 sets a section's number apart from its title; an edition that prints `1. GENERAL`
    on one line read as one record in all (every section and rule lost): the sections'
    indentation is now learnt from such lines too."""
    joined, paired = pair_section_numbers([ln for ln in real_lines() if ln.text.strip()])
    assert len(paired) == 122
    doc = cr.parse(
        [ln.model_copy(update={"line": n}) for n, ln in enumerate(joined, 1)], {}, OPTIONS
    )
    assert doc.warnings == []
    assert records(doc) == records(real_doc())


def with_items(every: int, labels: tuple[str, ...], under: tuple[str, ...] = ()) -> list[Line]:
    """7.0's lines with items set under every `every`-th subrule that another follows on its
    page, one indentation deeper (26 pt), as a level below the subrules is printed; `under`:
    labels of a level below those items, under the first item of each (26 pt deeper still)."""
    lines = list(real_lines())
    subrule_x = min(ln.x0 or 0.0 for ln in lines if re.match(r"^[a-h]\. ", ln.text))
    out: list[Line] = []
    eligible = 0
    for here, after in zip(lines, [*lines[1:], lines[-1]], strict=True):
        out.append(here)
        at_subrule = abs((here.x0 or 0.0) - subrule_x) < 1 and re.match(r"^[a-y]\. ", here.text)
        if not at_subrule or after.page != here.page or not re.match(r"^[b-z]\. ", after.text):
            continue
        eligible += 1
        if eligible % every:
            continue
        rows = [
            (labels[0], 26.0),
            *((label, 52.0) for label in under),
            *((lb, 26.0) for lb in labels[1:]),
        ]
        step = ((after.top or 0.0) - (here.top or 0.0)) / (len(rows) + 1)
        for k, (label, indent) in enumerate(rows, start=1):
            text = f"{label}. Entry {label} under the entry above."
            top = (here.top or 0.0) + k * step
            x = subrule_x + indent
            out.append(here.model_copy(update={"text": text, "x0": x, "top": top}))
    return [ln.model_copy(update={"line": n}) for n, ln in enumerate(out, 1)]


def printed(lines: list[Line], labels: tuple[str, ...]) -> int:
    return sum(1 for ln in lines if any(ln.text.startswith(f"{lb}. Entry ") for lb in labels))


@pytest.mark.parametrize(
    ("labels", "segment"),
    [(("i", "ii"), "roman"), (("1", "2", "3"), "digits"), (("A", "B"), "upper")],
)
def test_a_deeper_outline_level_is_read_from_its_own_indentation(
    labels: tuple[str, ...], segment: str
) -> None:
    """The level under the subrules, unused in 7.0, in the scheme's roman items or in a
    style the scheme does not expect: its labels are read where they sit, as items."""
    lines = with_items(5, labels)
    count = printed(lines, labels)
    doc = cr.parse(lines, {}, OPTIONS)
    assert count > 20
    assert doc.warnings == []
    assert doc.counts["items"] == count
    assert len(doc.records) == 913 + count
    items = [r for r in doc.records if r.kind == "item"]
    assert all(r.id.rsplit(".", 1)[1] in labels and r.depth == 5 for r in items)


def test_a_sixth_outline_level_is_read_below_the_items() -> None:
    """Five levels were all the scheme knew; labels under the items, at an indentation of
    their own, are a sixth level (`subitem`), not text of the item above."""
    lines = with_items(5, ("i", "ii"), under=("A", "B"))
    items, subitems = printed(lines, ("i", "ii")), printed(lines, ("A", "B"))
    doc = cr.parse(lines, {}, OPTIONS)
    assert doc.warnings == []
    assert (doc.counts["items"], doc.counts["subitems"]) == (items, subitems)
    assert len(doc.records) == 913 + items + subitems
    assert all(
        r.depth == 6 and r.parent and r.parent.endswith(".i")
        for r in doc.records
        if r.kind == "subitem"
    )


def test_a_deeper_level_is_not_invented_from_wrapped_numbers() -> None:
    """7.0 itself has no level below its subrules: its lines that start like a label
    (wraps beginning `3. Card Types`) make none."""
    assert cr.parse(list(real_lines()), {}, OPTIONS).counts.get("items", 0) == 0


def with_title_page(*statements: str) -> list[Line]:
    """7.0's lines with its statement line (`3/6/26 – V 7.0`) replaced by others."""
    lines = list(real_lines())
    at = next(i for i, ln in enumerate(lines) if "V 7.0" in ln.text)
    new = [
        lines[at].model_copy(update={"text": text, "top": (lines[at].top or 0.0) + 20 * k})
        for k, text in enumerate(statements)
    ]
    out = [*lines[:at], *new, *lines[at + 1 :]]
    return [ln.model_copy(update={"line": n}) for n, ln in enumerate(out, 1)]


@pytest.mark.parametrize(
    ("statements", "version", "published"),
    [
        (("3/6/27 - V 8.0",), "8.0", "2027-03-06"),  # a hyphen for the en dash
        (("Version 8.0", "Updated March 6, 2027"), "8.0", "2027-03-06"),
        (("V 8.0", "Effective: 3/6/2027"), "8.0", "2027-03-06"),
    ],
)
def test_the_title_page_of_a_next_release_states_version_and_date(
    statements: tuple[str, ...], version: str, published: str
) -> None:
    doc = cr.parse(with_title_page(*statements), {}, OPTIONS)
    assert (doc.version, doc.published) == (version, published)
    assert doc.warnings == []
    assert records(doc) == records(real_doc())


def test_a_title_page_with_a_version_and_no_date_says_so() -> None:
    doc = cr.parse(with_title_page("Version 8.0"), {}, OPTIONS)
    assert (doc.version, doc.published) == ("8.0", None)
    assert [(w.code, w.message) for w in doc.warnings] == [
        ("bad-date", "the title page states a version but no date")
    ]
