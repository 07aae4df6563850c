"""What a person reads on a numbered document's first page and in its rules, read the same by
the entry `scheme` writes, pasted unedited into `parse`: the title (never a contents
heading), the version kept apart from the date in any language, a date that reads two ways
noted rather than guessed, and the full-width labels and brackets of Japanese text.

The documents are small text exports made here, each the same rules under another front.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.support.helpers import scheme_then_parse as scheme_and_parse

runner = CliRunner()
RULES = """1. Setup
1.1. Each player shuffles a deck.
1.2. Each player draws seven cards.
2. Play
2.1. Players take turns.
2.2. The first player skips a draw.
3. End
3.1. The game ends when a deck is empty.
3.2. A player may concede.
"""
CONTENTS = "1. Setup 3\n2. Play 4\n3. End 5\n"


def scheme_then_parse(text: str, tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The scheme table `scheme` writes for the text, and the Document `parse` gives with
    the entry pasted unedited."""
    path = tmp_path / "lantern.txt"
    path.write_text(text, encoding="utf-8")
    entry, doc = scheme_and_parse(path, tmp_path)
    return tomllib.loads(entry)["source"][0]["scheme"], doc


@pytest.mark.parametrize(
    ("front", "title"),
    [
        ("Lantern Duel Rules\nVersion 1.2\nCONTENTS\n" + CONTENTS, "Lantern Duel Rules"),
        ("LANTERN DUEL RULES v1.2\nCONTENTS\n" + CONTENTS, "LANTERN DUEL RULES"),
        ("ランタン総合ルールver.1.24.1\n最終更新日：2024/02/16\n目次 ページ\n" + CONTENTS,
         "ランタン総合ルール"),
    ],
)  # fmt: skip
def test_the_title_is_the_first_line_never_the_contents_heading(
    front: str, title: str, tmp_path: Path
) -> None:
    scheme, doc = scheme_then_parse(front + RULES, tmp_path)
    assert scheme["title"] == doc["title"] == title
    assert doc["warnings"] == []
    assert [r["id"] for r in doc["records"]][:3] == ["cr:1", "cr:1.1", "cr:1.2"]


@pytest.mark.parametrize(
    ("front", "version", "published"),
    [
        ("ランタン総合ルールver.1.24.1\n最終更新日：2024/02/16\n", "1.24.1", "2024-02-16"),
        ("ランタン 総合ルール\nver. 1.24.1 2024/02/16\n", "1.24.1", "2024-02-16"),
        ("ランタン 総合ルール\nバージョン1.24.1\n最終更新日：2024/02/16\n", "1.24.1", "2024-02-16"),
        ("灯笼 综合规则\n版本 1.3\n最终更新日：2024/02/16\n", "1.3", "2024-02-16"),
        ("Lantern Rules Ver.1.2\nLast updated: 25/11/2020\n", "1.2", "2020-11-25"),
        ("Lantern Rules\nVersion 3.1 (2024.02.16)\n", "3.1", "2024-02-16"),
    ],
)  # fmt: skip
def test_the_version_is_kept_apart_from_the_date_in_any_language(
    front: str, version: str, published: str, tmp_path: Path
) -> None:
    _, doc = scheme_then_parse(front + RULES, tmp_path)
    assert (doc["version"], doc["published"]) == (version, published)
    assert doc["warnings"] == []


def test_a_date_that_reads_two_ways_is_a_publisher_note_not_a_guess(tmp_path: Path) -> None:
    front = "Lantern Rules\nVersion 1.0\nLast updated: 06/11/2020\n"
    scheme, doc = scheme_then_parse(front + RULES, tmp_path)
    assert "date_order" not in scheme
    assert (doc["version"], doc["published"], doc["warnings"]) == ("1.0", None, [])
    (note,) = doc["publisher_notes"]
    assert (note["code"], note["text"], note["location"]["line"]) == (
        "ambiguous-date",
        "06/11/2020",
        3,
    )
    assert "date_order" in note["message"]


def test_a_date_that_reads_one_way_gives_the_scheme_its_date_order(tmp_path: Path) -> None:
    front = "Lantern Rules\nVersion 1.0\nLast updated: 06/11/2020\nPrinted 25/11/2020.\n"
    scheme, doc = scheme_then_parse(front + RULES, tmp_path)
    assert scheme["date_order"] == "dmy"
    assert (doc["published"], doc["publisher_notes"], doc["warnings"]) == ("2020-11-06", [], [])


JAPANESE = """カード総合ルール
バージョン1.0
1. 準備
1.1. 各プレイヤーはデッキをシャッフルする。
例：40枚のデッキ。
1.2. 各プレイヤーはカードを7枚引く（1.1）。
例：先攻も7枚引く。
2. 進行
2.1. プレイヤーは交互にターンを行う（1.2）。
2.2. 先攻は最初のドローを行わない（2.1、1.2）。
注：これは任意ではない。
3. 終了
3.1. デッキが0枚になるとゲームは終わる（1.1）。
3.2. プレイヤーは投了できる。
注：投了はいつでもできる。
"""


def test_full_width_labels_open_examples_and_full_width_brackets_cite(tmp_path: Path) -> None:
    scheme, doc = scheme_then_parse(JAPANESE, tmp_path)
    assert (scheme["example"], scheme["note"], scheme["brackets"]) == (["例"], ["注"], True)
    rules = {r["id"]: r for r in doc["records"]}
    assert rules["cr:1.1"]["examples"] == ["40枚のデッキ。"]
    assert rules["cr:1.2"]["text"] == "各プレイヤーはカードを7枚引く（1.1）。"
    assert rules["cr:1.2"]["references"] == ["cr:1.1"]
    assert rules["cr:2.2"]["references"] == ["cr:2.1", "cr:1.2"]
    assert rules["cr:2.2"]["notes"] == ["これは任意ではない。"]
    assert doc["warnings"] == []
