"""`mtg-policy` on next releases of the Tournament Rules: the real 2024-05-13 lines changed
the way a new edition changes them (a new date, a section withdrawn, an eleventh chapter,
a seventh appendix) must read with no warning, every other record exactly as in
2024-05-13; a heading its contents does not list is a warning, never a silent guess."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from pipeline.extract.pdf import extract_pdf_lines
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.mtg import policy
from tests.support.helpers import SHARED

pytestmark = pytest.mark.slow  # reads a real document without the session fixtures

PDF = "mtg/tournament-rules/2024-05-13/MTG_MTR_2024_May13.pdf"
OPTIONS = ParseOptions(document="mtg/mtr", rendition="pdf", settings={"prefix": "mtr"})


@cache
def real_lines() -> tuple[Line, ...]:
    return tuple(extract_pdf_lines((SHARED / PDF).read_bytes(), what=PDF).lines)


@cache
def real_doc() -> Document:
    return policy.parse(list(real_lines()), {}, OPTIONS)


def renumbered(lines: list[Line]) -> list[Line]:
    return [line.model_copy(update={"line": n}) for n, line in enumerate(lines, 1)]


def index_of(lines: list[Line], text: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(lines) if i >= after and line.text.strip() == text)


def texts(doc: Document, leave: Callable[[str], bool] = lambda ident: False) -> dict[str, object]:
    return {r.id: (r.title, r.text, r.examples, r.bullets) for r in doc.records if not leave(r.id)}


def page_of(lines: list[Line], at: int, heading: str, body: list[str]) -> list[Line]:
    """A new page before line `at` (at the end when `at` is the count of lines): a heading
    set as a chapter's, then body lines set as a section's; every later page moves on."""
    page = lines[at].page if at < len(lines) else (lines[-1].page or 0) + 1
    chapter = next(ln for ln in lines if ln.text.strip() == "10. Sanctioning Rules" and ln.bold)
    section = next(ln for ln in lines if ln.text.strip() == "1.1 Tournament Types" and not ln.bold)
    made = [chapter.model_copy(update={"text": heading, "page": page, "top": 81.0})]
    for n, text in enumerate(body, 1):
        top = 100.0 + 22.7 * n
        made.append(section.model_copy(update={"text": text, "page": page, "top": top}))
    later = [ln.model_copy(update={"page": (ln.page or 0) + 1}) for ln in lines[at:]]
    return renumbered([*lines[:at], *made, *later])


def test_a_new_effective_date_is_the_new_version() -> None:
    lines = [
        ln.model_copy(update={"text": "Effective September 23, 2025"})
        if ln.text.strip() == "Effective May 13, 2024"
        else ln
        for ln in real_lines()
    ]
    doc = policy.parse(lines, {}, OPTIONS)
    assert doc.warnings == []
    assert (doc.version, doc.effective) == ("2025-09-23", "2025-09-23")
    assert texts(doc) == texts(real_doc())


def test_a_withdrawn_section_leaves_a_gap_and_every_other_section_exact() -> None:
    lines = list(real_lines())
    start = index_of(lines, "3.9 Die Rolling", after=200)
    stop = index_of(lines, "3.10 Card Shuffling", after=start)
    contents = index_of(lines, lines[39].text.strip())  # `3.9 Die Rolling ....18`
    kept = [ln for i, ln in enumerate(lines) if not start <= i < stop and i != contents]
    doc = policy.parse(renumbered(kept), {}, OPTIONS)
    assert doc.warnings == []
    assert "mtr:3.9" not in {r.id for r in doc.records}
    assert doc.counts["numbering_gaps"] == 1
    assert texts(doc) == texts(real_doc(), lambda ident: ident == "mtr:3.9")


def test_an_eleventh_chapter_and_a_seventh_appendix_are_read() -> None:
    lines = list(real_lines())
    # the contents lists the new chapter and section, as the publisher's always does
    last = next(i for i, ln in enumerate(lines) if ln.text.startswith("10.4 Pairing Algorithm"))
    listed = [
        lines[last].model_copy(update={"text": text})
        for text in ("11. Online Tournament Rules ....46", "11.1 Online Play ....46")
    ]
    lines = renumbered([*lines[: last + 1], *listed, *lines[last + 1 :]])
    appendix_a = index_of(lines, "Appendix A—Changes From Previous Versions", after=200)
    lines = page_of(
        lines,
        appendix_a,
        "11. Online Tournament Rules",
        ["11.1 Online Play", "Online tournaments follow these rules (see section 2.2)."],
    )
    lines = page_of(
        lines,
        len(lines),
        "Appendix G—Online Programs",
        ["The following programs are run online."],
    )
    doc = policy.parse(lines, {}, OPTIONS)
    assert doc.warnings == []
    online = next(r for r in doc.records if r.id == "mtr:11.1")
    assert (online.title, online.parent, online.references) == (
        "Online Play",
        "mtr:11",
        ["mtr:2.2"],
    )
    assert [p.id for p in doc.back_matter][-1] == "appendix-g-online-programs"
    assert texts(doc, lambda ident: ident.startswith("mtr:11")) == texts(real_doc())


def test_a_section_at_the_top_of_a_page_after_a_list_opens_its_record() -> None:
    """6.5 follows 6.4's last list item (`• Mox Opal`, no full stop) over a page break:
    joined to the item, it was lost, and 6.4 held 6.5 to 6.7."""
    doc = real_doc()
    assert [r.title for r in doc.records if r.id in ("mtr:6.5", "mtr:6.6", "mtr:6.7")] == [
        "Vintage Format Deck Construction",
        "Legacy Format Deck Construction",
        "Pioneer Format Deck Construction",
    ]
    modern = next(r for r in doc.records if r.id == "mtr:6.4")
    assert modern.bullets[-1] == "Mox Opal"
    # the banned list in two columns: a row of two items, never the whole list in one
    assert "Krark-Clan Ironworks • Violent Outburst" in modern.bullets


def test_a_heading_the_contents_does_not_list_is_a_warning() -> None:
    """A title is split from what follows it (the IPG's penalty) by the contents' entry; a
    heading its entry does not begin may hold more than its title, so it is said."""
    lines = [
        ln.model_copy(update={"text": "2.1 Structure of a Match"})
        if ln.text.strip() == "2.1 Match Structure" and (ln.page or 0) > 3
        else ln
        for ln in real_lines()
    ]
    doc = policy.parse(lines, {}, OPTIONS)
    assert [(w.code, w.message) for w in doc.warnings] == [
        (
            "contents-mismatch",
            "2.1 'Structure of a Match' is not the contents' entry 'Match Structure'",
        )
    ]
