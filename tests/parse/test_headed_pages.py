"""Markdown and HTML rulebooks whose numbered headings are the rules: `scheme` then `parse`
with the entry it wrote, no edit, read every rule exactly.

The rulebooks are the project's own (tests/parse/fixtures/headed): the same rules as a
Markdown page and as an HTML page, with emphasis, a numbered list and a bulleted list
inside rules, unnumbered paragraphs, examples and notes, and links to numbered anchors.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.extract.html_lines import extract_html_lines
from pipeline.extract.markdown import extract_markdown_lines, heading_slug
from tests.support.helpers import scheme_then_parse

FIXTURES = Path(__file__).parent / "fixtures" / "headed"
runner = CliRunner()

# (id, parent, title, text, references, examples, notes, bullets)
RULES = [
    ("cr:1", None, "Game Overview", "Two players each bring a deck of 40 cards.", [], [], [], []),
    ("cr:1.1", "cr:1", "Winning the Game",
     "A player wins when their opponent has no cards left to draw.\n"
     "A player may also concede at any time.", [], [], [], []),
    ("cr:1.2", "cr:1", "Players",
     "Each player needs:\n1. a deck of cards,\n2. a lantern token, and\n3. a way to track light.",
     [], [], [], []),
    ("cr:1.2.1", "cr:1.2", "Sharing Tokens",
     "Players may share tokens, as explained in the token rules.", ["cr:1.2"], [], [], []),
    ("cr:1.2.2", "cr:1.2", "Seating", "Players sit across from each other. See rule 1.1.",
     ["cr:1.1"], [], [], []),
    ("cr:2", None, "Turn Structure",
     "Each turn has these steps:\nAfter the last step, the turn passes to the opponent.",
     [], [], [], ["Draw", "Light", "Act"]),
    ("cr:2.1", "cr:2", "Draw Step", "The active player draws a card. See rule 1.2.2.",
     ["cr:1.2.2"], ["Alice draws her tenth card."], [], []),
    ("cr:2.2", "cr:2", "Light Step",
     "The active player may light one lantern (see 2.1). Lighting costs nothing.",
     ["cr:2.1"], ["Bob lights the red lantern."], [], []),
    ("cr:2.2.1", "cr:2.2", "Extinguished Lanterns",
     "An extinguished lantern cannot be lit this turn, as the light step says.",
     ["cr:2.2"], [], [], []),
    ("cr:2.2.2", "cr:2.2", "Relit Lanterns",
     "A lantern lit again keeps its colour. See rule 2.2.1.",
     ["cr:2.2.1"], [], ["The colour is printed on the token."], []),
    ("cr:3", None, "Ending the Game", "The game ends as rule 1.1 says.", ["cr:1.1"], [],
     ["A concession ends it too."], []),
]  # fmt: skip


def rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    fields = ("id", "parent", "title", "text", "references", "examples", "notes", "bullets")
    return [tuple(r[f] for f in fields) for r in doc["records"]]


@pytest.mark.parametrize("name", ["rulebook.md", "rulebook.html"])
def test_a_headed_rulebook_is_read_exactly_by_the_entry_scheme_writes(
    name: str, tmp_path: Path
) -> None:
    entry, doc = scheme_then_parse(FIXTURES / name, tmp_path)
    assert f'rendition = "{name.split(".")[1]}"' in entry
    assert rows(doc) == RULES
    assert doc["warnings"] == []
    assert doc["title"] == "Lantern Duel Comprehensive Rules"
    assert (doc["version"], doc["published"]) == ("2.3", "2025-03-04")
    assert [p["text"] for p in doc["front_matter"]] == [
        "These are the rules of the Lantern Duel card game."
    ]


def test_the_markdown_and_html_renditions_of_one_rulebook_give_the_same_records(
    tmp_path: Path,
) -> None:
    _, markdown = scheme_then_parse(FIXTURES / "rulebook.md", tmp_path)
    _, html = scheme_then_parse(FIXTURES / "rulebook.html", tmp_path)
    assert rows(markdown) == rows(html)
    assert markdown["source"]["rendition"] == "md" and html["source"]["rendition"] == "html"


def test_a_numbered_list_inside_a_rule_is_its_text_not_rules(tmp_path: Path) -> None:
    _, doc = scheme_then_parse(FIXTURES / "rulebook.md", tmp_path)
    ids = [r["id"] for r in doc["records"]]
    assert "cr:1.2" in ids and not {"cr:2", "cr:3"} & set(ids[:4])
    players = next(r for r in doc["records"] if r["id"] == "cr:1.2")
    assert "\n1. a deck of cards," in players["text"]


def test_a_markdown_record_spans_the_source_lines_of_its_heading_and_paragraphs(
    tmp_path: Path,
) -> None:
    _, doc = scheme_then_parse(FIXTURES / "rulebook.md", tmp_path)
    source = (FIXTURES / "rulebook.md").read_text(encoding="utf-8").splitlines()
    winning = next(r for r in doc["records"] if r["id"] == "cr:1.1")["location"]
    assert source[winning["line"] - 1] == "### 1.1. Winning the Game"
    assert source[winning["end_line"] - 1] == "A player may also concede at any time."


def test_markdown_markup_is_what_a_reader_never_sees() -> None:
    page = b"# A *very* **bold** `title`\n\nSee ![the map](map.png) and [rule 1](#1-setup).\n"
    lines = extract_markdown_lines(page)
    assert [line.text for line in lines] == ["A very bold title", "See the map and rule 1."]
    assert lines[0].heading == 1 and lines[1].links == ("1-setup",)


def test_a_markdown_heading_is_reached_by_its_slug_its_attribute_and_an_anchor_before_it() -> None:
    page = b'<a id="rule-4.2"></a>\n\n### 4.2. Combat Damage {#combat}\n\n## 4.2. Again\n'
    first, again = extract_markdown_lines(page)
    assert heading_slug("4.2. Combat Damage") == "42-combat-damage"
    assert first.anchors == ("rule-4.2", "combat", "42-combat-damage")
    assert again.anchors == ("42-again",)


def test_an_html_ordered_list_is_numbered_as_a_browser_numbers_it() -> None:
    page = (
        b'<ol start="4"><li>four</li><li value="9">nine</li><li>ten</li></ol><ul><li>dot</li></ul>'
    )
    lines = extract_html_lines(page)
    assert [(line.item, line.text) for line in lines] == [
        ("4.", "four"),
        ("9.", "nine"),
        ("10.", "ten"),
        ("•", "dot"),
    ]


def test_an_html_page_without_scripts_styles_or_navigation() -> None:
    page = (
        b"<html><head><style>p{}</style></head><body><nav>1. Menu</nav>"
        b"<script>var x = '2. Code';</script><h2>1. Setup</h2><p>Shuffle.<br>Draw.</p></body>"
    )
    assert [line.text for line in extract_html_lines(page)] == ["1. Setup", "Shuffle.", "Draw."]


def test_a_table_row_is_one_line_its_cells_apart() -> None:
    page = (
        b"<table>\n<tr>\n <td>Zone</td>\n <td><b>Cards</b></td></tr>"
        b"<tr><th>Deck</th><td>40</td></tr></table>"
    )
    assert [line.text for line in extract_html_lines(page)] == ["Zone | Cards", "Deck | 40"]
    markdown = b"| Zone | Cards |\n|---|---|\n| Deck | 40 |\n"
    assert [line.text for line in extract_markdown_lines(markdown)] == ["Zone | Cards", "Deck | 40"]


def test_an_unnumbered_heading_after_the_rules_opens_the_back_matter(tmp_path: Path) -> None:
    page = (FIXTURES / "rulebook.md").read_text(encoding="utf-8")
    path = tmp_path / "rulebook.md"
    path.write_text(page + "\n## Change Log\n\nRule 2.2.2 is new.\n\n- Typos fixed.\n", "utf-8")
    entry, doc = scheme_then_parse(path, tmp_path)
    assert tomllib.loads(entry)["source"][0]["scheme"]["ends"] == ["Change Log"]
    assert rows(doc) == RULES and doc["warnings"] == []
    assert [(p["title"], p["text"]) for p in doc["back_matter"]] == [
        ("Change Log", "Rule 2.2.2 is new.\nTypos fixed.")
    ]
