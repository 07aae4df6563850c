"""Two-column pages are recognised from the page itself, in both PDF engines: lines in two
blocks with a clear gutter between them, running down the page, are read left column then
right column, a line set across the page above them first. No registry entry declares
`columns`; `scheme` infers the entry of such a document and `parse` reads it whole.
Pages a reader reads row by row (a contents list with its page numbers far right, a table
of short terms, two short columns) stay as they are.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.extract.pdf import ENGINES, extract_pdf_lines
from tests.support.twocolumn import Entry, make_flowed_two_column_pdf, make_two_column_pdf

runner = CliRunner()
PER_COLUMN = 18
NUMBER = re.compile(r"^(\d+(?:[.-]\d+)*)\. ")
HEADER = "Harbor Duel Comprehensive Rules Version 2.0 Last updated: 3/14/2026 Harbor Games"


def latin_rules() -> tuple[list[str], dict[str, str]]:
    """The document's lines in reading order, and each rule's text as a reader joins it."""
    lines: list[str] = []
    texts: dict[str, str] = {}
    for chapter, name in enumerate(
        ["Setup", "Turns", "Combat", "Scoring", "Ending", "Tokens"], start=1
    ):
        lines.append(f"{chapter}. {name}")
        for rule in range(1, 5):
            first = f"{chapter}.{rule}. The player does step {rule} of {name.lower()} when"
            second = f"the rules of chapter {chapter} ask for it."
            lines += [first, second]
            texts[f"{chapter}.{rule}"] = f"{first.split(' ', 1)[1]} {second}"
    return lines, texts


def japanese_rules() -> tuple[list[str], dict[str, str]]:
    """Hyphen numbering and Japanese text: a wrapped line joins with no space."""
    lines: list[str] = []
    texts: dict[str, str] = {}
    for chapter, name in enumerate(["準備", "手番", "戦闘", "勝敗"], start=1):
        lines.append(f"{chapter}. {name}")
        for rule in range(1, 5):
            first = f"{chapter}-{rule}. プレイヤーは{name}の手順{rule}を各自の番に、"
            second = "このルールに従って一つずつ行います。"
            lines += [first, second]
            texts[f"{chapter}-{rule}"] = first.split(" ", 1)[1] + second
    return lines, texts


def pages_of(lines: list[str]) -> list[tuple[list[str], list[str]]]:
    """The lines set in two columns, PER_COLUMN lines each, page after page."""
    chunks = [lines[i : i + PER_COLUMN] for i in range(0, len(lines), PER_COLUMN)]
    return [
        (chunks[i], chunks[i + 1] if i + 1 < len(chunks) else []) for i in range(0, len(chunks), 2)
    ]


def front(version_line: str) -> list[str]:
    return ["Harbor Duel Comprehensive Rules", version_line]


@pytest.mark.parametrize("engine", ENGINES)
def test_two_columns_are_read_left_then_right_under_a_header(engine: str) -> None:
    lines, _ = latin_rules()
    data = make_two_column_pdf(pages_of(lines), header=HEADER)
    read = extract_pdf_lines(data, engine=engine).lines
    by_page = [[ln.text for ln in read if ln.page == page] for page in (1, 2)]
    assert by_page[0] == [HEADER, *lines[: 2 * PER_COLUMN]]
    assert by_page[1] == [HEADER, *lines[2 * PER_COLUMN :]]


@pytest.mark.parametrize("engine", ENGINES)
def test_japanese_two_columns_are_read_in_column_order(engine: str) -> None:
    lines, _ = japanese_rules()
    data = make_two_column_pdf(pages_of(lines), font="HeiseiKakuGo-W5")
    read = [ln.text for ln in extract_pdf_lines(data, engine=engine).lines]
    assert read == lines


def scheme_and_parse(path: Path, tmp_path: Path) -> tuple[dict[str, object], dict[str, object]]:
    """The entry `scheme` infers for the file, and the Document `parse` gives with it."""
    result = runner.invoke(app, ["scheme", str(path), "--game", "harbor"])
    assert result.exit_code == 0, result.stderr
    entry = tomllib.loads(result.stdout)["source"][0]
    assert "columns" not in entry.get("options", {})
    registry = tmp_path / "sources.toml"
    registry.write_text(result.stdout, encoding="utf-8")
    parsed = runner.invoke(
        app, ["parse", str(path), "--family", "numbered", "--sources", str(registry)]
    )
    assert parsed.exit_code == 0, parsed.stderr
    return entry, json.loads(parsed.stdout)


@pytest.mark.parametrize("rules", [latin_rules, japanese_rules], ids=["latin", "japanese"])
def test_a_two_column_document_parses_with_no_columns_declared(
    rules: Callable[[], tuple[list[str], dict[str, str]]], tmp_path: Path
) -> None:
    lines, texts = rules()
    version = "Version 2.0" if rules is latin_rules else "Ver.2.0"
    font = "Helvetica" if rules is latin_rules else "HeiseiKakuGo-W5"
    path = tmp_path / "harbor.pdf"
    path.write_bytes(make_two_column_pdf(pages_of(front(version) + lines), font=font))
    entry, doc = scheme_and_parse(path, tmp_path)
    assert len(entry["scheme"]["levels"]) == 2  # type: ignore[index]
    records: list[dict[str, str]] = doc["records"]  # type: ignore[assignment]
    printed = [m.group(1) for ln in lines if (m := NUMBER.match(ln))]
    assert [r["number"] for r in records] == printed
    got = {r["number"]: r["text"] for r in records if r["number"] in texts}
    assert got == texts
    assert doc["warnings"] == [] and doc["version"] == "2.0"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_contents_page_with_page_numbers_far_right_is_one_column(engine: str) -> None:
    """Headings on the left and their page numbers on the right leave a wide empty band
    down the page; a reader reads each heading with its number, row by row."""
    titles = [f"{n}. Chapter about topic {n}" for n in range(1, 16)]
    numbers = [str(3 * n) for n in range(1, 16)]
    data = make_two_column_pdf([(titles, numbers)])
    read = [ln.text for ln in extract_pdf_lines(data, engine=engine).lines]
    assert read == [f"{t} {n}" for t, n in zip(titles, numbers, strict=True)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_table_of_short_terms_and_their_meanings_is_one_column(engine: str) -> None:
    terms = [f"Term{n}" for n in range(1, 13)]
    meanings = [f"The meaning of the term number {n}, in a few words." for n in range(1, 13)]
    data = make_two_column_pdf([(terms, meanings)])
    read = [ln.text for ln in extract_pdf_lines(data, engine=engine).lines]
    assert read == [f"{t} {m}" for t, m in zip(terms, meanings, strict=True)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_line_across_the_gutter_among_the_rows_keeps_the_page_one_column(engine: str) -> None:
    """A row set across the middle of the page interrupts the band: no gutter runs down
    the page, so the rows are read as they stand."""
    left = [f"Left line {n} of the page with some words" for n in range(1, 13)]
    right = [f"Right line {n} of the page with words" for n in range(1, 13)]
    across = "A sentence set across the whole width of the page, over the gap between both halves"
    data = make_two_column_pdf([([*left[:6], across, *left[6:]], [*right[:6], "", *right[6:]])])
    read = [ln.text for ln in extract_pdf_lines(data, engine=engine).lines]
    assert read[6] == across
    assert read[0] == f"{left[0]} {right[0]}"


def test_declared_columns_still_split_the_page_evenly() -> None:
    """`columns = "2"` is an override: the page is split at its middle whatever it shows."""
    data = make_two_column_pdf([(["a1 left", "a2 left"], ["b1 right", "b2 right"])])
    read = [ln.text for ln in extract_pdf_lines(data, columns=2).lines]
    assert read == ["a1 left", "a2 left", "b1 right", "b2 right"]


CHAPTERS = ["ゲームの概要", "カードの情報", "ゲーム領域", "ゲームの準備", "ターンの進行", "戦闘"]
HEADINGS = ["ゲーム人数", "勝敗", "カード名", "レベル", "コスト", "色", "特徴"]
SENTENCE = (
    "このルールはゲームの進行に関する処理を定めており、プレイヤーは常にこれに従ってゲームを行います"
)


def flowed_japanese_rules() -> list[Entry]:
    """Chapters, sections and rules (some with subrules) numbered with hyphens, rules of
    every length from a few characters to three lines of a column."""
    entries: list[Entry] = []
    for chapter, name in enumerate(CHAPTERS, start=1):
        entries.append(Entry(f"{chapter}.", name, 0))
        for section in range(1, 8):
            heading = HEADINGS[(chapter + section) % len(HEADINGS)]
            entries.append(Entry(f"{chapter}-{section}.", heading, 1))
            for rule in range(1, 4):
                text = SENTENCE[: 8 + (chapter * 7 + section * 5 + rule * 11) % 60] + "。"
                entries.append(Entry(f"{chapter}-{section}-{rule}.", text, 2))
                if rule == 2 and section % 3 == 0:
                    entries.append(
                        Entry(f"{chapter}-{section}-{rule}-1.", "例外として、" + text, 3)
                    )
    return entries


def test_a_japanese_two_column_rulebook_is_read_rule_by_rule_in_both_columns(
    tmp_path: Path,
) -> None:
    """As a typesetter sets one: narrow justified columns that share no baselines, a page
    number centred in the gutter, larger chapter headings, indented subrules, hyphen
    numbering; every rule is read, in order, whole."""
    entries = flowed_japanese_rules()
    title = ["デジタルカード 総合ルール", "ver.1.2.0", "最終更新日：2024/02/16"]
    path = tmp_path / "harbor.pdf"
    path.write_bytes(make_flowed_two_column_pdf(title, entries))
    _, doc = scheme_and_parse(path, tmp_path)
    records: list[dict[str, str]] = doc["records"]  # type: ignore[assignment]
    assert [r["number"] for r in records] == [e.number.rstrip(".") for e in entries]
    texts = {r["number"]: r["title"] or r["text"] for r in records}
    assert texts == {e.number.rstrip("."): e.text for e in entries}
    assert (doc["warnings"], doc["version"], doc["published"]) == ([], "1.2.0", "2024-02-16")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_page_number_in_the_gutter_does_not_hide_the_gutter(engine: str) -> None:
    """The centred page number below the columns stands in the gutter: the band beside it,
    which every row leaves free, is the gutter still."""
    entries = flowed_japanese_rules()[:80]
    data = make_flowed_two_column_pdf(["デジタルカード 総合ルール"], entries)
    read = [ln.text for ln in extract_pdf_lines(data, engine=engine).lines if ln.page == 2]
    numbers = [m.group(1) for text in read if (m := NUMBER.match(text))]
    assert numbers == [e.number.rstrip(".") for e in entries][: len(numbers)]
    assert len(numbers) > 40 and read[-1] == "1"  # the page number, read after the columns
