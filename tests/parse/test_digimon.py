"""Digimon Card Game Comprehensive Rules 1.2 in Simplified Chinese (Bandai's PDF) through
its example registry entry alone: hyphen numbering six levels deep, no spaces between
words (a wrapped line joins with none), `Ver.1.2` and `最终更新日：2024/02/16`."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from pipeline.extract.pdf import extract_pdf_lines
from tests.support.helpers import parse_example

NUMBERED = re.compile(r"^(\d+(?:-\d+)*)\.")


@pytest.fixture(scope="module")
def digimon() -> tuple[Any, list[Any]]:
    doc, data = parse_example("digimon")
    return doc, extract_pdf_lines(data).lines


def test_every_numbered_line_of_the_body_is_one_record(digimon: tuple[Any, list[Any]]) -> None:
    doc, lines = digimon
    body = [ln for ln in lines if ln.page > 1]  # page 1: the title and the contents
    end = next(i for i, ln in enumerate(body) if ln.text.strip() == "更新记录")
    printed = [m.group(1) for ln in body[:end] if (m := NUMBERED.match(ln.text))]
    assert [r.number for r in doc.records] == printed
    assert doc.counts["contents_entries"] == 15  # 14 chapters and the change log


def test_a_chapter_set_without_a_space_is_read(digimon: tuple[Any, list[Any]]) -> None:
    doc, _ = digimon
    by_id = {r.id: r for r in doc.records}
    assert by_id["cr:9"].title == "攻击和战斗"
    assert by_id["cr:1-2-1-1-1"].parent == "cr:1-2-1-1"


def test_wrapped_chinese_joins_without_a_space(digimon: tuple[Any, list[Any]]) -> None:
    doc, lines = digimon
    by_id = {r.id: r for r in doc.records}
    assert by_id["cr:1-1-1"].text == (
        "本游戏原则上是由 2 名玩家进行对战的游戏。目前的综合规则无法对应以其它人数进行的游戏。"
    )
    cjk = re.compile("[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")
    # every wrap between two Chinese characters: the two lines' ends meet unspaced
    text = "".join((r.title or "") + r.text + "".join(r.examples + r.bullets) for r in doc.records)
    end = next(ln.line for ln in lines if ln.text.strip() == "更新记录" and ln.page > 1)
    joins = [
        a.text[-1] + b.text[0]
        for a, b in itertools.pairwise(lines)
        if 1 < a.page == b.page and b.line < end and not (a.bold or b.bold)
        and cjk.match(a.text[-1]) and cjk.match(b.text[0]) and not NUMBERED.match(b.text)
    ]  # fmt: skip
    assert len(joins) > 300
    assert all(join in text for join in joins)


def test_version_and_date_are_read_from_the_title_page(digimon: tuple[Any, list[Any]]) -> None:
    doc, _ = digimon
    assert (doc.version, doc.published) == ("1.2", "2024-02-16")
    assert doc.title == "DIGIMON CARD GAME 综合规则"
    assert doc.back_matter[0].title == "更新记录"


def test_nothing_is_misread(digimon: tuple[Any, list[Any]]) -> None:
    doc, _ = digimon
    assert doc.warnings == []
