"""`rulescorpus scheme FILE`: the registry entry inferred for a numbered rules document.

The round trip is tested on the real documents: the entry `scheme` prints, saved as a
registry and given to `parse --family numbered --sources`, gives exactly the records
`scheme` counted; every id is a number the document prints at the start of a line (the
scheme invents none); where a hand-written family reads the same document, the ids are
the same. Files that are no numbered rules document are refused with one line, exit 2.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import tomli_w
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.errors import EXIT_PARSE, EXIT_USAGE
from pipeline.registry.entry_toml import entry_toml
from pipeline.registry.loader import parse_registry
from pipeline.runner.family_names import NAMES
from tests.faults.materials import pdf_bomb
from tests.support.helpers import SHARED

runner = CliRunner()
FOW = "fow/comprehensive-rules/7.0/fow-cr-7.0.txt"
SWU = "swu/comprehensive-rules/7.0/SWU-comprehensive-rules.pdf"


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def one_error(err: str) -> str:
    """The error as one line (the console wraps long lines at its width), checked to be the
    only thing said and no traceback."""
    assert "Traceback" not in err
    assert err.count("error:") == 1 and err.lstrip().startswith("error:")
    return " ".join(err.split())


def scheme_and_parse(path: Path, game: str, tmp_path: Path) -> tuple[str, str, list[str]]:
    """The entry's TOML and report, and the ids `parse` gives with the entry pasted."""
    code, toml, report = invoke("scheme", str(path), "--game", game, "--document", f"{game}/cr")
    assert code == 0, report
    registry = tmp_path / "sources.toml"
    registry.write_text(toml, encoding="utf-8")
    code, out, err = invoke("parse", str(path), "--family", "numbered", "--sources", str(registry))
    assert code in (0, EXIT_PARSE), err
    return toml, report, [r["id"] for r in json.loads(out)["records"]]


def printed_numbers(path: Path) -> set[str]:
    """Every number the document prints at the start of a line (a dot or `)` after it) or
    run into the line before after a sentence's end (`… the rules below: 1301.1a. If …`),
    read here independently of the pipeline's readers."""
    from pipeline.extract.pdf import extract_pdf_lines
    from pipeline.extract.text import extract_text_lines

    data = path.read_bytes()
    if path.suffix == ".pdf":
        lines = [ln.text for ln in extract_pdf_lines(data, what=path.name).lines]
    else:
        lines = [ln.text for ln in extract_text_lines(data, what=path.name)]
    start = re.compile(r"^\s*(\d+(?:[.\-]?[0-9A-Za-z]+)*?)[.)]?(?:\s|$)")
    run_in = re.compile(r"(?<=[.:] )(\d+(?:[.\-]?[0-9A-Za-z]+)*?)\. (?=[A-Z])")
    found = {m.group(1) for text in lines if (m := start.match(text))}
    return found | {m.group(1) for text in lines for m in run_in.finditer(text)}


# (file, game, the hand-written family that reads it too, or None)
RIFTBOUND = "riftbound/core-rules/2026-06-18/CR-v1.4.txt"
DOCUMENTS = [
    ("fab/comprehensive-rules/2.14.0/en-fab-cr.txt", "fab", "fab-cr"),
    (RIFTBOUND, "riftbound", "riftbound-cr"),
    (FOW, "fow", None),
    ("gundam/comprehensive-rules/1.6.0/comprehensiverules_en.pdf", "gundam", None),
    ("digimon/comprehensive-rules-zh/1.2/digimon-cr-zh-1.2.pdf", "digimon", None),
    ("netrunner/comprehensive-rules/1.4/Comprehensive_Rules.pdf", "netrunner", None),
]


@pytest.mark.slow  # reads the real documents
@pytest.mark.parametrize(("relative", "game", "family"), DOCUMENTS)
def test_the_pasted_entry_gives_exactly_the_records_scheme_counted(
    relative: str, game: str, family: str | None, tmp_path: Path
) -> None:
    path = SHARED / relative
    toml, report, ids = scheme_and_parse(path, game, tmp_path)
    counted = re.search(r"parse with this entry: (\d+) records", report)
    assert counted is not None and int(counted.group(1)) == len(ids) > 100
    entry = tomllib.loads(toml)["source"][0]
    assert (entry["family"], entry["game"], entry["document"]) == ("numbered", game, f"{game}/cr")
    levels = entry["scheme"]["levels"]
    for level in levels:
        count = re.search(rf"level {level['kind']}: (\d+) records", report)
        assert count is not None, report
    # Never an invented number: each id of a level printed in full is printed in the document.
    printed = printed_numbers(path)
    own = any(level["printed"] == "own" for level in levels)
    full_ids = [i.split(":", 1)[1] for i in ids]
    if own:  # an own level's id adds its letter to its parent's number
        full_ids = [n for n in full_ids if not n[-1].isalpha()]
    assert set(full_ids) <= printed
    if family is not None:
        code, out, err = invoke("parse", str(path), "--family", family)
        assert code in (0, EXIT_PARSE), err
        theirs = json.loads(out)["records"]
        assert ids == [r["id"] for r in theirs]
        ours = json.loads(invoke("parse", str(path), "--family", "numbered", "--sources",
                                 str(tmp_path / "sources.toml"))[1])["records"]  # fmt: skip
        fields = ["parent", "depth"] + (
            ["title", "text", "examples"] if relative == RIFTBOUND else []
        )
        for field in fields:
            assert [r[field] for r in ours] == [r[field] for r in theirs], field


@pytest.mark.slow  # reads the real documents
def test_the_entry_reads_the_numbering_a_reader_sees(tmp_path: Path) -> None:
    """Force of Will: sections of three and four digits, subrules by letter, roman tails
    after a hyphen (`903.2i-i`), the version on the title line and the date below it."""
    toml, report, ids = scheme_and_parse(SHARED / FOW, "fow", tmp_path)
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    shapes = [(lv["segment"], lv["join"], lv["dot"]) for lv in scheme["levels"]]
    assert shapes == [
        ("digits", ".", "required"),
        ("digits", ".", "required"),
        ("letter", "", "required"),
        ("roman", "-", "required"),
    ]
    assert scheme["statement_forms"] == ["ver", "last-update"]
    assert {"cr:1009", "cr:1009.1", "cr:903.2i", "cr:903.2i-i"} <= set(ids)
    assert "contents skipped: 168 lines, lines 5-172" in report


@pytest.mark.slow  # reads the real documents
def test_scheme_output_is_deterministic(tmp_path: Path) -> None:
    first = invoke("scheme", str(SHARED / FOW), "--game", "fow")
    assert first == invoke("scheme", str(SHARED / FOW), "--game", "fow")


VERSE = """Verse Tactics Comprehensive Rules
Version 1.2.0
Last updated: 1/16/2026
1. Basics
1-1. Players
1-1-1. Two players play a game.
Example: Ana and Ben play.
1-1-2. Each player has a deck.
Note: Decks are shuffled first.
1-2. Winning
1-2-1. A player with no cards left in their deck loses the game.
1-2-1a. This is checked at the start of each turn.
1-2-1b. A player may also concede.
1-2-1c. A player who concedes leaves at once.
1-2-2. The last player standing wins.
Example: Ben concedes, so Ana wins.
2. Turns
2-1. Steps
2-1-1. Each turn has three steps: draw, play and end.
2-1-2. The first player skips the draw.
Note: This makes up for going first.
Credits
Designed by the Verse team.
"""


def test_a_small_document_gives_a_complete_entry(tmp_path: Path) -> None:
    path = tmp_path / "verse.txt"
    path.write_text(VERSE, encoding="utf-8")
    toml, report, ids = scheme_and_parse(path, "verse", tmp_path)
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    assert scheme["title"] == "Verse Tactics Comprehensive Rules"
    assert scheme["statement_forms"] == ["version", "last-updated"]
    assert (scheme["example"], scheme["note"], scheme["ends"]) == (
        ["Example"],
        ["Note"],
        ["Credits"],
    )
    assert [(lv["join"], lv["segment"], lv["dot"]) for lv in scheme["levels"]] == [
        (".", "digits", "required"),
        ("-", "digits", "required"),
        ("-", "digits", "required"),
        ("", "letter", "required"),
    ]
    assert ids == [
        "cr:1", "cr:1-1", "cr:1-1-1", "cr:1-1-2", "cr:1-2", "cr:1-2-1", "cr:1-2-1a",
        "cr:1-2-1b", "cr:1-2-1c", "cr:1-2-2", "cr:2", "cr:2-1", "cr:2-1-1", "cr:2-1-2",
    ]  # fmt: skip
    assert "parse with this entry: 14 records, 0 warnings" in report
    code, out, _ = invoke(
        "parse", str(path), "--family", "numbered", "--sources", str(tmp_path / "sources.toml")
    )
    doc = json.loads(out)
    assert (code, doc["version"], doc["published"]) == (0, "1.2.0", "2026-01-16")
    records = {r["id"]: r for r in doc["records"]}
    assert records["cr:1-1-1"]["examples"] == ["Ana and Ben play."]
    assert records["cr:2-1-2"]["notes"] == ["This makes up for going first."]
    assert [p["id"] for p in doc["back_matter"]] == ["credits"]


CONTENTS_AND_CHANGES = """Orbit Rules
Ver. 2.0
Contents
1. Setup
2. Play
3. Scoring
Change history
1. Setup
1-1. Each player takes a deck of forty cards and shuffles it before the game starts.
1-2. Each player draws five cards; a player may shuffle the hand back once.
1-3. The player who lost the last game goes first; otherwise the players decide at random.
2. Play
2-1. Players take turns, each playing one card from the hand and then drawing one.
2-2. A player who cannot play a card passes the turn to the other player.
2-3. When both players pass in a row, the game ends.
3. Scoring
3-1. Each card left in a player's hand at the end scores one point for the other player.
3-2. The player with the higher score wins; equal scores make the game a draw.
Change history
Ver. 2.0
1-3. Revised
2-2. Added
"""


def test_contents_and_a_change_list_are_found_and_reported(tmp_path: Path) -> None:
    """The contents list the chapters and the change history; after the rules, a change list
    cites rules again. The numbering is learnt outside the contents, and the change history
    is the back matter, declared in `ends` although the contents list it too: the engine
    skips the contents before it looks for the end of the rules, and the change list's
    numbers are no rules."""
    path = tmp_path / "orbit.txt"
    path.write_text(CONTENTS_AND_CHANGES, encoding="utf-8")
    toml, report, ids = scheme_and_parse(path, "orbit", tmp_path)
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    assert "contents skipped: 4 lines, lines 4-7" in report
    assert "back matter: 'Change history' at line 19; declared in ends" in report
    assert scheme["ends"] == ["Change history"]
    assert "parse with this entry: 11 records, 0 warnings" in report
    assert scheme["statement_forms"] == ["ver"]
    assert {"cr:1-1", "cr:1-3", "cr:2-3", "cr:3-2"} <= set(ids)


def test_the_entry_toml_loads_back_to_the_same_source(tmp_path: Path) -> None:
    path = tmp_path / "verse.txt"
    path.write_text(VERSE, encoding="utf-8")
    code, toml, _ = invoke("scheme", str(path), "--game", "verse")
    assert code == 0
    (source,) = parse_registry(toml, "inferred", NAMES)
    written = "\n".join(line for line in toml.splitlines() if not line.startswith("#"))
    assert entry_toml(source) == written[written.index("[[source]]") :] + "\n"


def test_scheme_writes_no_file_name_raw_into_a_toml_comment(tmp_path: Path) -> None:
    """A line feed in the file's name ended the comment that named it, and the rest of the
    name became TOML: a second source, or keys of the entry."""
    path = tmp_path / 'verse\n[[source]]\nid = "planted"\n\x1b[2J.txt'
    path.write_text(VERSE, encoding="utf-8")
    code, toml, _ = invoke("scheme", str(path), "--game", "verse")
    assert code == 0
    (source,) = tomllib.loads(toml)["source"]
    assert source["id"] == "verse-cr-txt"
    assert "\x1b" not in toml and all(
        line.startswith("#") for line in toml[: toml.index("[[source]]")].splitlines()
    )
    assert '# Inferred by `rulescorpus scheme` from verse\\n[[source]]\\nid = "planted"' in toml


def test_scheme_writes_every_key_update_mirror_and_import_need(tmp_path: Path) -> None:
    """The entry `scheme` wrote had no manifest key, so `update --mirror` and `import` took
    no file for a new game (and said nothing)."""
    import hashlib

    archive = tmp_path / "archive"
    file = archive / "verse" / "rules" / "1.2.0" / "verse.txt"
    file.parent.mkdir(parents=True)
    file.write_text(VERSE, encoding="utf-8")
    data = file.read_bytes()
    entry = {"game": "verse", "document": "rules", "version": "1.2.0", "format": "txt",
             "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
             "path": "verse/rules/1.2.0/verse.txt"}  # fmt: skip
    (archive / "manifest.json").write_text(json.dumps([entry]))
    code, toml, _ = invoke("scheme", str(file), "--game", "verse")
    assert code == 0
    (source,) = tomllib.loads(toml)["source"]
    assert source["manifest"] == {"game": "verse", "document": "rules", "format": "txt"}
    assert "url" not in source  # no address is stored until a person writes the real one
    assert '\n# url = "https://publisher.invalid/' in toml
    registry = tmp_path / "sources.toml"
    registry.write_text(toml, encoding="utf-8")
    for command in (["update", "--mirror", str(archive)], ["import", str(archive)]):
        corpus = tmp_path / f"corpus-{command[0]}"
        code, out, err = invoke("--corpus", str(corpus), "--cache", str(tmp_path / "cache"),
                                "--sources", str(registry), *command)  # fmt: skip
        assert code == 10 if command[0] == "update" else code == 0, out + err
        index = json.loads((corpus / "index.json").read_text())
        assert "verse/cr" in index["documents"], out + err


def blank_pdf() -> bytes:
    pdf = pdfium.PdfDocument.new()
    pdf.new_page(612, 792)
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        (
            "story.txt",
            b"Once upon a time there was a game.\nIt had no rules.\n",
            "no numbered lines",
        ),
        (
            "decklist.txt",
            b"4 Lightning Bolt\n2 Counterspell\n1 Island\n20 Mountain\n3 Shock\n4 Giant Growth\n",
            "0% of them in sequence",
        ),
        ("scan.pdf", None, "no text to read (a scan without a text layer? OCR it first)"),
    ],
)
def test_a_file_that_is_no_numbered_document_is_refused_in_one_line(
    name: str, content: bytes | None, said: str, tmp_path: Path
) -> None:
    path = tmp_path / name
    path.write_bytes(content if content is not None else blank_pdf())
    code, out, err = invoke("scheme", str(path))
    assert (code, out) == (EXIT_USAGE, "")
    message = one_error(err)
    assert str(path) in message.replace(" ", "") or path.name in message
    assert said in message and "not a numbered rules document" in message


def test_a_file_scheme_cannot_read_is_named_with_what_to_do(tmp_path: Path) -> None:
    notes = tmp_path / "rules.docx"
    notes.write_bytes(b"PK\x03\x04")
    fake = tmp_path / "rules.pdf"
    fake.write_bytes(b"1. Setup\n")
    for path, said in [
        (notes, "scheme reads a PDF (.pdf), a text file (.txt), a Markdown page (.md)"),
        (tmp_path / "missing.txt", "cannot open the document (No such file"),
        (fake, "not a PDF"),
    ]:
        code, out, err = invoke("scheme", str(path))
        assert (code, out) == (EXIT_USAGE, "")
        assert said in one_error(err)


def test_an_outline_numbered_only_by_layout_is_refused_with_its_reason() -> None:
    """SWU prints only each level's own number (`1.`, `a.`): which level a `1.` is shows in
    its indentation alone, which a scheme cannot say."""
    code, out, err = invoke("scheme", str(SHARED / SWU))
    assert (code, out) == (EXIT_USAGE, "")
    assert "the numbering starts again at 1 under" in one_error(err)


def test_parse_with_an_entry_refuses_a_file_that_is_no_numbered_document(tmp_path: Path) -> None:
    path = tmp_path / "verse.txt"
    path.write_text(VERSE, encoding="utf-8")
    code, toml, _ = invoke("scheme", str(path), "--game", "verse")
    registry = tmp_path / "sources.toml"
    registry.write_text(toml, encoding="utf-8")
    story = tmp_path / "story.txt"
    story.write_text("Once upon a time there was a game.\nIt had no rules.\n", encoding="utf-8")
    code, out, err = invoke("parse", str(story), "--family", "numbered", "--sources", str(registry))
    assert (code, out) == (EXIT_PARSE, "")
    assert "no numbered rules found" in one_error(err)


def test_a_long_word_at_a_line_start_is_read_in_one_pass() -> None:
    """A number was matched by one regex of optional joins between segments, which
    backtracks exponentially on a long word that is no number (`1111…1x!`); the first word is
    now split once. Blank lines start no number."""
    from pipeline.models.content import Line
    from pipeline.parse.scheme_inference.numbering import read_start

    assert read_start(Line(text="1" * 40 + "x!" + " text", line=1)) is None
    assert read_start(Line(text="   ", line=2)) is None
    start = read_start(Line(text="903.2i-i. If multiple actions are required", line=3))
    assert start is not None
    assert (start.number, start.mark, start.rest) == (
        "903.2i-i",
        ".",
        "If multiple actions are required",
    )
    assert start.segments == (("", "903"), (".", "2"), ("", "i"), ("-", "i"))


def furnished_export() -> str:
    """A text export of a PDF: a site line, a copyright line and a page number after every
    page's rules, as a person skips them."""
    lines = ["Lantern Duel Comprehensive Rules", "Last updated: 3/14/2026", ""]
    for chapter in (1, 2, 3, 4):
        lines.append(f"{chapter}. Chapter {chapter}")
        for rule in (1, 2, 3):
            lines.append(f"{chapter}.{rule}. Rule {rule} of chapter {chapter} says one thing.")
        lines += ["", "lanternduel.example", "© Lantern Games", str(chapter + 1), ""]
    return "\n".join(lines) + "\n"


def test_the_report_names_the_furniture_the_parse_drops_and_no_copyright_line_is_a_bullet(
    tmp_path: Path,
) -> None:
    """The report found only copyright lines (not a bare site name, not page numbers), and
    learnt list glyphs from every line, so `©` opening each page's copyright line became a
    bullet of the entry, and the site line after the last rule its back matter's heading.
    Furniture is now what the parse itself drops, and the rest is read without it."""
    path = tmp_path / "lantern.txt"
    path.write_text(furnished_export(), encoding="utf-8")
    toml, report, ids = scheme_and_parse(path, "lantern", tmp_path)
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    assert "©" not in scheme["bullets"]
    for text in ("#", "lanternduel.example", "© Lantern Games"):
        assert f"furniture: {text!r} on 4 pages" in report
    # nor is the site line after the last rule the back matter's heading
    assert "back matter" not in report
    assert len(ids) == 16
    assert "parse with this entry: 16 records, 0 warnings" in report


MTG_EXPORTS = ["20030315", "20090201", "20251114"]


@pytest.mark.slow  # reads the real documents
@pytest.mark.parametrize("version", MTG_EXPORTS)
def test_an_inferred_entry_reads_an_mtg_export_as_the_mtg_family_does(
    version: str, tmp_path: Path
) -> None:
    """A game numbered as MTG is (chapters `1.`, sections `100.` under them, rules `100.1.`,
    subrules `100.1a`) and unlike any other: the entry `scheme` writes reads it as the
    hand-written family does, with no warning. It split `100.` from `1.` as one level, so a
    glossary's `1.` looked like a chapter and its numbered senses became duplicate ids; and
    `119.1d.`, printed with a dot where subrules carry none, and `606.5`, printed without
    the dot rules carry, were text of the rule before them."""
    path = next((SHARED / "mtg/comprehensive-rules" / version).glob("*.txt"))
    toml, report, ids = scheme_and_parse(path, "mtg", tmp_path)
    scheme = tomllib.loads(toml)["source"][0]["scheme"]
    assert [(lv["kind"], lv.get("width"), lv["join"]) for lv in scheme["levels"][:2]] == [
        ("chapter", 1, "."),
        ("section", 2, ""),
    ]
    assert scheme["ends"] == ["Glossary"]
    assert re.search(r"parse with this entry: \d+ records, 0 warnings", report), report
    code, out, err = invoke("parse", str(path), "--family", "mtg-cr")
    assert code == 0, err
    theirs = {r["id"]: r for r in json.loads(out)["records"]}
    assert ids == list(theirs)
    registry = str(tmp_path / "sources.toml")
    ours = json.loads(invoke("parse", str(path), "--family", "numbered", "--sources", registry)[1])
    for record in ours["records"]:
        if record["title"] is None:  # the family keeps `205.2. Card Types` as text
            mine, family = record, theirs[record["id"]]
            assert (mine["text"], mine["examples"]) == (family["text"], family["examples"])


def hundreds_export() -> str:
    """Chapters `1.` with sections `100.` under them, subrules without a dot, one printed
    with a dot and one rule printed without its dot, as publishers slip."""
    lines = ["Comet Clash Comprehensive Rules", "Version 1.0.0", ""]
    for chapter in (1, 2, 3):
        lines += [f"{chapter}. Chapter {chapter}", ""]
        for section in (0, 1):
            number = f"{chapter}0{section}"
            lines += [f"{number}. Section {number}", ""]
            for rule in (1, 2, 3):
                dot = "" if (number, rule) == ("201", 3) else "."
                lines += [f"{number}.{rule}{dot} Rule {rule} of {number} says one thing.", ""]
                for letter in "abc":
                    mark = "." if (number, rule, letter) == ("101", 2, "c") else ""
                    lines += [f"{number}.{rule}{letter}{mark} Subrule {letter} says more.", ""]
    return "\n".join(lines)


def test_sections_numbered_in_hundreds_under_their_chapters_are_two_levels(
    tmp_path: Path,
) -> None:
    path = tmp_path / "comet.txt"
    path.write_text(hundreds_export(), encoding="utf-8")
    toml, report, ids = scheme_and_parse(path, "comet", tmp_path)
    levels = tomllib.loads(toml)["source"][0]["scheme"]["levels"]
    assert [(lv["kind"], lv.get("width"), lv["join"], lv["dot"]) for lv in levels] == [
        ("chapter", 1, ".", "required"),
        ("section", 2, "", "required"),
        ("rule", None, ".", "optional"),
        ("subrule", None, "", "optional"),
    ]
    assert len(ids) == 3 + 6 + 18 + 54
    assert {"cr:1", "cr:100", "cr:101.2c", "cr:201.3", "cr:201.3a"} <= set(ids)
    assert f"parse with this entry: {len(ids)} records, 0 warnings" in report


def test_the_next_number_printed_with_a_mark_the_scheme_does_not_read_is_read_as_the_rule(
    tmp_path: Path,
) -> None:
    """With `dot = "none"` declared for subrules, `101.2c.` became text of 101.2b without a
    word: a reader sees the next rule there, and reads it as that rule."""
    path = tmp_path / "comet.txt"
    path.write_text(hundreds_export(), encoding="utf-8")
    toml, _, _ = scheme_and_parse(path, "comet", tmp_path)
    registry = tmp_path / "sources.toml"
    entry = tomllib.loads(toml)
    (subrules,) = [lv for lv in entry["source"][0]["scheme"]["levels"] if lv["kind"] == "subrule"]
    assert subrules["dot"] == "optional"
    subrules["dot"] = "none"
    registry.write_text(tomli_w.dumps(entry), encoding="utf-8")
    code, out, _ = invoke("parse", str(path), "--family", "numbered", "--sources", str(registry))
    assert code == 0
    doc = json.loads(out)
    assert doc["warnings"] == []
    by_number = {r["number"]: r for r in doc["records"]}
    assert by_number["101.2c"]["parent"] == "cr:101.2"
    assert "101.2c" not in by_number["101.2b"]["text"]


# a line as wide as a page's column: 40 characters, 80 columns
FIRST = "自分のターンの間、プレイヤーは手札からカードを一枚プレイし、山札からカードを引き"


def test_a_japanese_comma_opening_wrapped_lines_is_no_list_glyph(tmp_path: Path) -> None:
    """Wrapped Japanese lines that open with the comma `、` made it a list glyph of the
    entry (a symbol of no Latin sentence, opening three lines); it is a sentence's own
    punctuation, and the lines are the rest of their rule."""
    lines = ["ワンダーカードゲーム 総合ルール", "Ver.1.2", ""]
    for chapter in (1, 2):
        lines.append(f"{chapter}. 章{chapter}")
        for rule in (1, 2, 3):
            lines += [f"{chapter}-{rule}. {FIRST}", "、相手にダメージを与える。"]
    path = tmp_path / "wonder.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    toml, report, ids = scheme_and_parse(path, "wonder", tmp_path)
    assert "、" not in tomllib.loads(toml)["source"][0]["scheme"]["bullets"]
    assert len(ids) == 8 and "0 warnings" in report
    registry = str(tmp_path / "sources.toml")
    doc = json.loads(invoke("parse", str(path), "--family", "numbered", "--sources", registry)[1])
    texts = {r["id"]: r["text"] for r in doc["records"]}
    assert texts["cr:2-3"] == f"{FIRST}、相手にダメージを与える。"


def test_chapters_are_found_where_a_glossary_numbers_more_senses_than_there_are_sections() -> None:
    """The chapter digits were looked for between the two widths in order of how many
    numbers print them, so more one-digit numbers (a glossary's numbered senses) than
    three-digit sections hid the chapters."""
    from pipeline.models.content import Line
    from pipeline.parse.scheme_inference.numbering import chapter_digits, read_starts

    body = ["1. Concepts", "100. General", "101. Golden Rules", "2. Cards", "200. General"]
    senses = [f"{n}. A sense of a glossary term." for n in (1, 2, 3)] * 5
    lines = [Line(text=text, line=n) for n, text in enumerate(body + senses, 1)]
    assert chapter_digits(read_starts(lines)) == 1
    # chapters 9 and 10 are one level, whatever list items `1.` stand before them
    chapters = [f"{n}. Chapter {n}" for n in range(1, 17)] + ["1. An item."] * 4
    lines = [Line(text=text, line=n) for n, text in enumerate(chapters, 1)]
    assert chapter_digits(read_starts(lines)) is None


def test_ends_with_a_slot_twice_crashes_scheme(tmp_path: Path) -> None:
    """A document whose back matter's heading printed `{version}` twice (`Credits {version}
    {version}`) was declared as that template, whose second slot is a second regex group of
    one name: an internal error. Braces in a line are no template: the heading is not
    declared, and the entry parses the file."""
    path = tmp_path / "braces.txt"
    rules = "\n".join(
        f"{n}. Part {n}\n{n}.1. Rule one of {n}.\n{n}.2. Rule two." for n in (1, 2, 3)
    )
    path.write_text(
        f"Starfall Rules\nVersion 3.1\n\n{rules}\n\nCredits {{version}} {{version}}\nAlice.\n"
    )
    code, out, err = invoke("scheme", str(path))
    assert code == 0, err
    assert "internal error" not in err and "{version} {version}" not in out
    assert "parse with this entry: 9 records, 0 warnings" in err


def run_scheme(path: Path, memory_mb: int = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULESCORPUS_PARSE_MEMORY_MB": str(memory_mb)}
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "scheme", str(path)],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done


@pytest.mark.slow  # runs into the parse limits: a 1 GiB bomb, a time bound
def test_scheme_runs_outside_the_limited_parse_child(tmp_path: Path) -> None:
    """`scheme` extracted and inferred in the command's own process: an inflate bomb of
    870 KB peaked at 4.8 GB and a million `N.` lines at 1.35 GB. It reads in the parse
    child now, under the parse limits, and stops at them with the parse's own error; a
    text of more lines than any rules document is refused before its scheme is read."""
    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(pdf_bomb(1 << 30))
    many = tmp_path / "many.txt"
    many.write_text("Rules\n" + "".join(f"{n}. x\n" for n in range(1, 300_001)))
    for path, said, code in [
        (bomb, "address-space limit of 300 MiB", EXIT_PARSE),
        (many, "lines, more than 250000", EXIT_USAGE),
    ]:
        done = run_scheme(path)
        assert done.returncode == code, done.stderr
        assert str(path) in done.stderr and said in done.stderr, done.stderr


@pytest.mark.slow  # waits out a time bound
def test_scheme_takes_minutes_on_a_thousand_nesting_levels(tmp_path: Path) -> None:
    """1,000 levels of `1.1.1. …` took 186 s: a number deeper than a scheme's 12 levels is
    no rule number, and the outline is read to its first 12 levels at once."""
    path = tmp_path / "deep.txt"
    path.write_text("Rules\n" + "".join("1." * n + " Heading\n" for n in range(1, 1001)))
    began = time.monotonic()
    done = run_scheme(path, memory_mb=1024)
    assert time.monotonic() - began < 60
    assert done.returncode == 0, done.stderr
    assert (
        "level " in done.stderr
        and len(tomllib.loads(done.stdout)["source"][0]["scheme"]["levels"]) <= 12
    )
