"""`rulescorpus scheme FILE` on the documents of the three numbered games of the packaged
registry writes their entries: the same TOML data (the publisher's URL aside, which no file
states; the manifest names are those of the file's entry in the archive's manifest.json),
and pasted into a registry the same records as the reviewed entry.

Beside them, small documents made here in the forms other publishers print: statement
forms named from the engine's table, the title as the first heading, a deep level that few
numbers reach, and chapter numbers the body closes with `)`.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from tests.support.helpers import NUMBERED_GAMES, ROOT, SHARED, parse_example

runner = CliRunner()
# example name: (document in the shared sources, game, document id)
EXAMPLES = {
    "gundam": ("gundam/comprehensive-rules/1.6.0/comprehensiverules_en.pdf", "gundam", "gundam/cr"),
    "digimon": (
        "digimon/comprehensive-rules-zh/1.2/digimon-cr-zh-1.2.pdf",
        "digimon",
        "digimon/cr-zh",
    ),
    "fow": ("fow/comprehensive-rules/7.0/fow-cr-7.0.txt", "fow", "fow/cr"),
}
NOT_IN_A_FILE = ("url",)


def scheme_of(path: Path, *options: str) -> tuple[str, str]:
    result = runner.invoke(app, ["scheme", str(path), *options])
    assert result.exit_code == 0, result.stderr
    return result.stdout, result.stderr


@pytest.mark.slow  # reads the real documents
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_scheme_writes_the_example_entry(name: str, tmp_path: Path) -> None:
    relative, game, document = EXAMPLES[name]
    toml, _ = scheme_of(SHARED / relative, "--game", game, "--document", document)
    (inferred,) = tomllib.loads(toml)["source"]
    packaged = tomllib.loads((ROOT / "pipeline" / "registry" / "sources.toml").read_text())
    (reviewed,) = [s for s in packaged["source"] if s["id"] == NUMBERED_GAMES[name]]
    assert inferred == {k: v for k, v in reviewed.items() if k not in NOT_IN_A_FILE}
    # the entry pasted as it is gives the records of the reviewed entry, field for field
    registry = tmp_path / "sources.toml"
    registry.write_text(toml, encoding="utf-8")
    result = runner.invoke(
        app, ["parse", str(SHARED / relative), "--family", "numbered", "--sources", str(registry)]
    )
    assert result.exit_code == 0, result.stderr
    pasted = json.loads(result.stdout)
    doc, _ = parse_example(name)
    expected = json.loads(doc.model_dump_json())
    assert pasted["records"] == expected["records"]
    for field in ("title", "version", "published", "warnings", "counts"):
        assert pasted[field] == expected[field], field


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def body(chapters: int, deep: int = 0) -> str:
    """Chapters `N. Title` with sections `N-1.`, rules `N-1-1.`, and under the first rule of
    the first `deep` chapters two subrules, each with two items (`1-1-1-1-1.`)."""
    out = []
    for n in range(1, chapters + 1):
        out.append(f"{n}. Chapter {n}")
        out.append(f"{n}-1. Section {n}")
        for r in range(1, 4):
            out.append(f"{n}-1-{r}. The player does thing {r} of chapter {n} in turn.")
            if n <= deep and r == 1:
                for s in range(1, 3):
                    out.append(f"{n}-1-1-{s}. The player may choose option {s} instead.")
                    for i in range(1, 3):
                        out.append(f"{n}-1-1-{s}-{i}. Case {i} of option {s} applies then.")
    return "\n".join(out) + "\n"


def test_statement_forms_of_the_table_are_named(tmp_path: Path) -> None:
    """A version and a date statement in forms the engine's table knows are written as the
    names of those forms, one of each: a second date line stays in the front matter."""
    text = (
        "Star Rules Comprehensive Rules\nVersion 2.1.0\nLast updated: 1/16/2026\n"
        "Effective: February 1, 2026\n" + body(8)
    )
    toml, _ = scheme_of(write(tmp_path, "star.txt", text))
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    assert scheme["statement_forms"] == ["version", "last-updated"]
    assert scheme["statements"] == []
    assert scheme["title"] == "Star Rules Comprehensive Rules"


def test_a_japanese_date_statement_is_named(tmp_path: Path) -> None:
    text = "カードゲーム 総合ルール\nVer.1.3\n最終更新日：2024/02/16\n" + body(8)
    path = write(tmp_path, "kard.txt", text)
    toml, _ = scheme_of(path)
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    assert scheme["statement_forms"] == ["ver", "last-updated-ja"]
    assert scheme["title"] == "カードゲーム 総合ルール"
    registry = write(tmp_path, "sources.toml", toml)
    result = runner.invoke(app, ["parse", str(path), "--family", "numbered",
                                 "--sources", str(registry)])  # fmt: skip
    doc = json.loads(result.stdout)
    assert (doc["version"], doc["published"], doc["title"]) == (
        "1.3",
        "2024-02-16",
        "カードゲーム 総合ルール",
    )


def test_a_title_line_that_states_the_version_gives_the_title_before_it(tmp_path: Path) -> None:
    text = "Moon Duel Comprehensive Rules ver. 3.0\nLast Update: August 16th, 2017\n" + body(8)
    toml, _ = scheme_of(write(tmp_path, "moon.txt", text))
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    assert scheme["title"] == "Moon Duel Comprehensive Rules"
    assert scheme["statement_forms"] == ["ver", "last-update"]


def test_a_deep_level_few_numbers_reach_is_a_level_when_in_sequence(tmp_path: Path) -> None:
    """A fifth level printed only a few times among many rules (`1-1-1-1-1.` four times in
    six hundred numbers) was dropped as noise; in sequence under its parents it is a level."""
    text = "Deep Rules\nVer. 1.0\n" + body(150, deep=1)
    path = write(tmp_path, "deep.txt", text)
    toml, report = scheme_of(path)
    levels = tomllib.loads(toml)["source"][0]["scheme"]["levels"]
    assert [level["kind"] for level in levels][-2:] == ["subrule", "item"]
    assert "level item: 4 records" in report
    assert "0 warnings" in report


def test_a_wrapped_reference_is_no_deep_level(tmp_path: Path) -> None:
    """Line starts that reach a deeper level out of sequence (a citation wrapped to the
    start of a line) make no level."""
    wrapped = [f"3-1-2-{n}-4. is where it says so." for n in (5, 7, 9)]
    text = "Flat Rules\nVer. 1.0\n" + body(150) + "\n".join(wrapped) + "\n"
    toml, _ = scheme_of(write(tmp_path, "flat.txt", text))
    levels = tomllib.loads(toml)["source"][0]["scheme"]["levels"]
    assert len(levels) == 3


def test_chapters_the_body_closes_with_a_paren_are_declared(tmp_path: Path) -> None:
    """The body sets its chapters `1) Setup` where the contents print `1.`: the chapter
    level is declared with `dot = "paren"` and every chapter is a record."""
    names = ["Setup", "Turns", "Combat", "Scoring", "Ending"]
    contents = "".join(f"{n}. {name}\n" for n, name in enumerate(names, start=1))
    chapters = "".join(
        f"{n}) {name}\n{n}-1. The {name.lower()} rules apply to both players alike.\n"
        f"{n}-2. Each player follows them in turn order.\n"
        for n, name in enumerate(names, start=1)
    )
    path = write(tmp_path, "marks.txt", "Marks Rules\nVer. 1.0\n" + contents + chapters)
    toml, report = scheme_of(path)
    levels = tomllib.loads(toml)["source"][0]["scheme"]["levels"]
    assert levels[0]["dot"] == "paren"
    assert f"level {levels[0]['kind']}: 5 records" in report
    assert "not declarable" not in report


def test_a_sentence_that_states_version_and_date_is_kept_whole(tmp_path: Path) -> None:
    """`This is version 1.4 of this document, effective 20 December 2019.` was named by the
    form `Effective: {date}`, which reads the date alone: the version was lost. A form is
    named only where it reads all the line states."""
    text = (
        "Deck Rules Document\nThis is version 1.4 of this document, effective 20 December 2019.\n"
        + body(8)
    )
    path = write(tmp_path, "deck.txt", text)
    toml, _ = scheme_of(path)
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    assert scheme.get("statement_forms", []) == []
    assert scheme["statements"] == ["version {version} of this document, effective {date}"]
    registry = write(tmp_path, "sources.toml", toml)
    result = runner.invoke(
        app, ["parse", str(path), "--family", "numbered", "--sources", str(registry)]
    )
    doc = json.loads(result.stdout)
    assert (doc["version"], doc["effective"]) == ("1.4", "2019-12-20")
