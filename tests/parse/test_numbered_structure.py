"""Structure a reader sees, recognised from the document itself by the numbered engine:
contents skipped and counted, page furniture found by repetition, wrapped citations kept
as text, `1)` chapters, Chinese wraps joined unspaced, the named statement forms."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from pipeline.jobs.context import load_sources
from pipeline.models.content import Line
from pipeline.models.records import Document
from pipeline.models.scheme import FORMS
from pipeline.parse.numbered.layout import drop_furniture, join_glued, join_spaced
from pipeline.parse.numbered.statements import compile_statement, read_date
from pipeline.parse.numbered.structure import find_contents
from pipeline.runner.families import parse_bytes
from pipeline.runner.family_names import NAMES
from pipeline.runner.request import request_for
from tests.support.helpers import registry_file

HYPHEN_LEVELS = [
    {"kind": "chapter", "dot": "paren", "title": "always"},
    {"kind": "section", "join": "-", "dot": "required", "title": "always"},
    {"kind": "rule", "join": "-", "dot": "required"},
    {"kind": "subrule", "join": "-", "dot": "required"},
]


def parse(tmp_path: Path, data: bytes, rendition: str, **scheme: object) -> Document:
    entry = {
        "id": f"starfall-{rendition}", "game": "starfall", "document": "starfall/cr",
        "title": "Starfall Rules", "family": "numbered", "rendition": rendition,
        "url": f"https://starfall.invalid/rules.{rendition}", "primary": True,
        "scheme": {"levels": HYPHEN_LEVELS, "statement_forms": ["ver", "updated"], **scheme},
    }  # fmt: skip
    (source,) = load_sources(registry_file(tmp_path, [entry]), NAMES)
    return parse_bytes(data, request_for(source, what=f"rules.{rendition}"))


BODY = [
    "1) Game Overview",
    "1-1. Players",
    "1-1-1. Two players play the game.",
    "2) Cards",
    "2-1. Card Types",
    "2-1-1. There are three card types.",
    "8) Battle",
    "8-3. Damage",
    "8-3-1. Damage is dealt by Units.",
    "8-3-1-1. Damage is dealt at once. The rules regarding",
    "10-2-13-5. the processing of damage apply.",
    "8-3-1-2. Damage to a Base is dealt to its HP.",
]


def test_a_contents_list_set_unlike_the_body_is_skipped_and_counted(tmp_path: Path) -> None:
    contents = ["Contents", "1. Game Overview", "2. Cards", "8. Battle"]
    text = "\n".join(["Starfall Rules", "Ver. 1.2", *contents, "", *BODY]) + "\n"
    doc = parse(tmp_path, text.encode(), "txt")
    assert doc.counts["contents_entries"] == 3
    assert [r.id for r in doc.records][:3] == ["cr:1", "cr:1-1", "cr:1-1-1"]
    assert doc.records[0].title == "Game Overview"
    assert doc.version == "1.2"


def test_a_wrapped_citation_under_another_chapter_stays_text(tmp_path: Path) -> None:
    """A cross-reference the line breaking put at a line start (`10-2-13-5. the processing`,
    inside rule 8-3-1-1) was read as rule 10-2-13-5 and cut 8-3-1-1 short."""
    text = "\n".join(["Starfall Rules", "Ver. 1.2", *BODY]) + "\n"
    doc = parse(tmp_path, text.encode(), "txt")
    by_id = {r.id: r for r in doc.records}
    assert "cr:10-2-13-5" not in by_id
    assert by_id["cr:8-3-1-1"].text.endswith("regarding 10-2-13-5. the processing of damage apply.")
    assert "cr:8-3-1-2" in by_id and doc.warnings == []


def test_the_publishers_own_repeated_number_is_still_reported(tmp_path: Path) -> None:
    body = [*BODY, "8-3-1-2. Damage to a Base is dealt again."]
    doc = parse(tmp_path, "\n".join(["Starfall Rules", "Ver. 1.2", *body]).encode(), "txt")
    assert [w.code for w in doc.warnings] == ["duplicate-id"]


def test_contents_are_told_from_the_body() -> None:
    dotted = ["Game Overview ........ 1", "Cards .......... 4", "Battle ....... 9", "1. Rules"]
    assert find_contents(dotted) == {0, 1, 2}
    # section headings and their rules, nothing repeated later: no contents
    body = ["100. Overview", "101. General", "101.1. This is a rule.", "102. Players"]
    assert find_contents(body) == set()
    # a list of headings that stands again later with its body
    listed = ["100. Overview", "101. General", "102. Players", *body]
    assert find_contents(listed) == {0, 1, 2}


def page_pdf(pages: list[list[str]], doubled: str | None = None) -> bytes:
    """A PDF whose every page has a running head, a site line and its number at the foot."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=letter, invariant=1)
    for number, lines in enumerate(pages, start=1):
        pdf.setFont("Helvetica", 10)
        pdf.drawString(72, 750, "Starfall Comprehensive Rules")
        y = 700.0
        for line in lines:
            indent = 72 + 14 * line.split(" ")[0].count("-")
            pdf.drawString(indent, y, line)
            if line == doubled:  # simulated bold: the same glyphs again, 0.3 pt to the right
                pdf.drawString(indent + 0.3, y, line)
            y -= 16
        pdf.drawString(72, 60, "© 2026 Starfall Games · starfall.invalid")
        pdf.drawString(300, 44, str(number))
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_running_heads_site_lines_page_numbers_and_contents_stay_out_of_records(
    tmp_path: Path,
) -> None:
    title = ["Starfall Rules", "Ver. 1.2", "Updated March 2, 2026"]
    contents = ["Contents", "Game Overview ........ 2", "Cards ........ 2", "Battle ........ 3"]
    pages = [title + contents, BODY[:4], BODY[4:8], BODY[8:]]
    doc = parse(tmp_path, page_pdf(pages), "pdf")
    assert doc.counts["furniture_lines"] == 3 * len(pages)
    assert doc.counts["contents_entries"] == 3
    texts = " ".join((r.title or "") + r.text for r in doc.records)
    assert "starfall.invalid" not in texts and "Comprehensive" not in texts
    assert doc.published == "2026-03-02"
    assert [r.id for r in doc.records][-1] == "cr:8-3-1-2"


def test_chinese_wraps_join_unspaced_and_latin_ones_spaced() -> None:
    assert join_spaced("目前的综合规则无法对应以其它人数进", "行的游戏。") == (
        "目前的综合规则无法对应以其它人数进行的游戏。"
    )
    assert join_glued("see rule", "1-2.") == "see rule 1-2."
    assert join_spaced("(see 9-1-", "7) that") == "(see 9-1-7) that"


@pytest.mark.parametrize(
    ("form", "line", "version", "date"),
    [
        ("ver", "Ver.1.2", "1.2", None),
        ("ver", "Force of Will Comprehensive Rules ver. 7.0", "7.0", None),
        ("version", "Version 1.2.0", "1.2.0", None),
        ("last-updated", "Last updated: 1/16/2026", None, "2026-01-16"),
        ("last-updated-ja", "最終更新日：2024/02/16", None, "2024-02-16"),
        ("last-updated-zh", "最终更新日：2024/02/16", None, "2024-02-16"),
        ("current-as-of", "These rules are current as of March 15, 2003.", None, "2003-03-15"),
        ("effective", "Effective: June 16th, 2017", None, "2017-06-16"),
    ],
)
def test_the_statement_forms_publishers_use(
    form: str, line: str, version: str | None, date: str | None
) -> None:
    match = compile_statement(FORMS[form]).search(line)
    assert match is not None
    groups = match.groupdict()
    assert groups.get("version") == version
    assert (read_date(groups["date"]) if "date" in groups else None) == date


def test_an_unknown_statement_form_is_a_clear_error(tmp_path: Path) -> None:
    # refused when the registry is loaded, naming the key, before any parse
    from pipeline.errors import RegistryError

    with pytest.raises(
        RegistryError, match=r"scheme\.statement_forms: unknown statement form 'versoin'"
    ):
        parse(tmp_path, b"1) A\n", "txt", statement_forms=["versoin"])


@pytest.mark.parametrize("feeds", [True, False], ids=["form-feeds", "page-numbers-only"])
def test_furniture_of_a_text_export_of_a_pdf_stays_out_of_records(
    tmp_path: Path, feeds: bool
) -> None:
    """A text export of a PDF keeps each page's site line, copyright line and number
    between the rules; they were read as the text of the rule a page break fell in."""
    pages = [["Starfall Rules", "Ver. 1.2"], BODY[:4], BODY[4:8], BODY[8:]]
    out: list[str] = []
    for number, page in enumerate(pages, start=1):
        head = "\f" if feeds and number > 1 else ""
        out += [head + "starfall.invalid", *page, "© 2026 Starfall Games", str(number)]
    doc = parse(tmp_path, ("\n".join(out) + "\n").encode(), "txt")
    assert doc.counts["furniture_lines"] == 3 * len(pages)
    texts = " ".join((r.title or "") + r.text for r in doc.records)
    assert "starfall.invalid" not in texts and "©" not in texts
    assert doc.records[-1].text == "Damage to a Base is dealt to its HP."
    assert doc.warnings == []


def test_rules_opening_pages_with_the_same_words_are_kept_and_a_running_head_dropped() -> None:
    """Two rules that open their pages with the same words under other numbers (`3-1-2.`
    and `7-1-2.`) are two rules, not a running head; a numbered running head repeats as it
    is and is furniture."""
    numbered = lambda text: text[:1].isdigit()  # noqa: E731
    lines: list[Line] = []
    firsts = ["3-1-2. 同じ文です。", "7-1-2. 同じ文です。", "9-1-2. 別の文です。"]
    for page, first in enumerate(firsts, start=1):
        for top, text in ((50.0, first), (80.0, f"本文{page}"), (800.0, "3. ゲーム領域")):
            lines.append(Line(text=text, line=len(lines) + 1, page=page, top=top, size=8.0))
    kept = [ln.text for ln in drop_furniture(lines, 8.0, numbered)]
    assert "3. ゲーム領域" not in kept
    assert [t for t in kept if "同じ" in t] == ["3-1-2. 同じ文です。", "7-1-2. 同じ文です。"]
