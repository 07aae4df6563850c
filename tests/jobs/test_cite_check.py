"""`cite-check`: rule citations in every form, in text, Markdown, HTML and source files the
tests write, resolved against versions imported from ../shared/sources; `--fix`; and the
corpus's own Netrunner rulings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cite.check import Cited, CiteReport, check_rulings, cite_check
from pipeline.cli.commands import app
from pipeline.diff.citations import find_citations, rewrite
from pipeline.errors import EXIT_USAGE
from pipeline.store.reader import StoredCorpus
from tests.support.diff_real import imported_corpus

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


# --------------------------------------------------------------------------- finding citations


def test_every_citation_form_is_found_with_its_number_and_place() -> None:
    text = (
        "See rule 702.19c and CR 603.2f, CR702.15b, cr:6.6.1 and [1.0.1a].\n"
        "Rules 601.2a–h apply. See rule 355.6. Then sections 8.3, 8.4 and 9.1.\n"
        "Riftbound 383.4.c.2.a, bare 702.19c, step 6.9.5a but not step 4 of a run.\n"
    )
    found = [(f.line, f.form, f.id, f.written) for f in find_citations(text)]
    assert found == [
        (1, "keyword", "cr:702.19c", "rule 702.19c"),
        (1, "cr", "cr:603.2f", "CR 603.2f"),
        (1, "cr", "cr:702.15b", "CR702.15b"),
        (1, "id", "cr:6.6.1", "cr:6.6.1"),
        (1, "bracket", "cr:1.0.1a", "[1.0.1a]"),
        (2, "keyword", "cr:601.2a", "Rules 601.2a–h"),
        (2, "keyword", "cr:601.2h", "Rules 601.2a–h"),  # a range cites both its ends
        (2, "keyword", "cr:355.6", "rule 355.6"),  # the full stop ends the sentence
        (2, "keyword", "cr:8.3", "sections 8.3"),
        (2, "keyword", "cr:8.4", "8.4"),
        (2, "keyword", "cr:9.1", "9.1"),
        (3, "bare", "cr:383.4.c.2.a", "383.4.c.2.a"),
        (3, "bare", "cr:702.19c", "702.19c"),
        (3, "keyword", "cr:6.9.5a", "step 6.9.5a"),
    ]
    first = find_citations(text)[0]
    assert text.splitlines()[0][first.start : first.end] == "702.19c"


def test_numbers_that_are_not_rules_are_not_citations() -> None:
    text = "Python 3.11, version 2.4, 127.0.0.1, v1.2.3, 2.5 times, a.1.2 and step 12 of 20."
    assert find_citations(text) == []


def test_other_prefixes_count_only_when_the_document_uses_them() -> None:
    assert [f.id for f in find_citations("trp:3.1.2 and ppg:1.2.3a")] == []
    found = find_citations("trp:3.1.2 and ppg:1.2.3a", "trp", {"trp", "ppg"})
    assert [f.id for f in found] == ["trp:3.1.2", "ppg:1.2.3a"]


def test_rewrite_replaces_only_the_numbers_and_keeps_every_other_byte() -> None:
    text = "a rule 712.2 here\r\nand [5.3.2b]\r\nno newline at the end"
    found = find_citations(text)
    edits = {
        (f.line, f.start, f.end): new for f, new in zip(found, ["712.6", "5.3.2a"], strict=True)
    }
    assert rewrite(text, edits) == "a rule 712.6 here\r\nand [5.3.2a]\r\nno newline at the end"


# --------------------------------------------------------------------------- stored versions


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    return imported_corpus(tmp_path_factory, parse_cache_dir)


def by_written(report: CiteReport) -> dict[str, Cited]:
    return {c.written: c for c in report.citations}


MTG_2022 = """\
# Engine notes, written against the Comprehensive Rules of 2022-10-07

Double-faced cards: see rule 712.2 for looking at both faces; CR 713.1 defines meld cards.
When a melded permanent leaves the battlefield, cr:713.4 applies.
Triggers from the same player are ordered by rule 603.3b.
Combat damage from a blocker: rule 510.1d. Trample is 702.19c.
A typo: rule 999.9z.
"""


def test_a_file_written_for_mtg_2022_10_07_gets_the_new_numbers(
    corpus: Path, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text(MTG_2022, encoding="utf-8")
    report = cite_check(StoredCorpus(corpus), "mtg/cr", [notes])
    # The oldest stored version that has every number it cites.
    assert report.as_of == {str(notes): "2022-10-07"}
    assert report.current == "2025-11-14"
    cited = by_written(report)
    # 2023-04-14 folded meld cards (713) into double-faced cards (712).
    assert (cited["rule 712.2"].status, cited["rule 712.2"].new_id) == ("renumbered", "cr:712.6")
    assert (cited["CR 713.1"].status, cited["CR 713.1"].new_id) == ("renumbered", "cr:712.4")
    assert (cited["cr:713.4"].status, cited["cr:713.4"].new_id) == ("renumbered", "cr:712.21")
    assert cited["rule 712.2"].note == "cr:712.2 now holds a different rule"
    assert cited["CR 713.1"].weak  # a pairing made on similarity: the report says to check it
    assert cited["rule 603.3b"].status == "current"
    assert cited["702.19c"].status == "current"
    assert (cited["rule 510.1d"].status, cited["rule 510.1d"].change) == ("changed", "reworded")
    assert cited["rule 999.9z"].status == "never-existed"
    assert [(c.line, c.column) for c in report.citations][:2] == [(3, 30), (3, 66)]
    assert report.exit_code == 1
    assert report.counts() == {
        "current": 2,
        "renumbered": 3,
        "changed": 1,
        "removed": 0,
        "never-existed": 1,
    }


def test_as_of_says_which_version_the_numbers_mean(corpus: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("Meld: cr:713.4.\n", encoding="utf-8")
    # In 2022-10-07, 713.4 is a melded permanent leaving the battlefield; in 2022-11-18 it
    # is the characteristics of a meld card's faces. They went to different places.
    old = cite_check(StoredCorpus(corpus), "mtg/cr", [notes], as_of="2022-10-07").citations[0]
    newer = cite_check(StoredCorpus(corpus), "mtg/cr", [notes], as_of="2022-11-18").citations[0]
    assert (old.new_id, newer.new_id) == ("cr:712.21", "cr:712.8")
    code, _, err = invoke(
        "cite-check",
        str(notes),
        "--doc",
        "mtg/cr",
        "--as-of",
        "1999-01-01",
        "--corpus",
        str(corpus),
    )
    assert code == EXIT_USAGE and "version 1999-01-01 of mtg/cr not found" in err


def test_fab_bracketed_and_id_forms(corpus: Path, tmp_path: Path) -> None:
    text = tmp_path / "fab.txt"
    text.write_text(
        "Go again needs [5.3.2b]; the close step is cr:7.2.6 then.\n"
        "Triggered effects: cr:6.6.1. Compound events [1.9.3]. Definition [1.0.1a].\n",
        encoding="utf-8",
    )
    report = cite_check(StoredCorpus(corpus), "fab/cr", [text])
    assert report.as_of == {str(text): "2.10.1"}
    cited = by_written(report)
    assert (cited["[5.3.2b]"].status, cited["[5.3.2b]"].new_id) == ("renumbered", "cr:5.3.2a")
    assert (cited["cr:7.2.6"].status, cited["cr:7.2.6"].new_id) == ("renumbered", "cr:7.2.5")
    assert cited["cr:6.6.1"].status == "changed"
    assert cited["[1.9.3]"].status == "removed"
    assert cited["[1.0.1a]"].status == "current"


def test_riftbound_html_and_source_code(corpus: Path, tmp_path: Path) -> None:
    page = tmp_path / "site" / "zones.html"
    page.parent.mkdir()
    page.write_text("<p>The trash: See rule 107.1. Tokens: rule&nbsp;180.</p>\n", encoding="utf-8")
    code = tmp_path / "site" / "engine.py"
    code.write_text("def trash():  # see rule 107.1.a\n    pass\n", encoding="utf-8")
    (tmp_path / "site" / ".hidden").mkdir()
    (tmp_path / "site" / ".hidden" / "skip.txt").write_text("rule 107.1\n")
    (tmp_path / "site" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0rule 107.1")
    report = cite_check(StoredCorpus(corpus), "riftbound/cr", [page.parent], as_of="2025-12-01")
    assert sorted({c.file for c in report.citations}) == [str(code), str(page)]
    cited = {(Path(c.file).name, c.written): c for c in report.citations}
    trash = cited[("zones.html", "rule 107.1")]
    assert (trash.status, trash.new_id, trash.change) == ("renumbered", "cr:108.2", "renumbered")
    assert (trash.line, trash.column) == (1, 24)
    assert cited[("zones.html", "rule 180")].new_id == "cr:186"  # &nbsp; read as a space
    assert cited[("engine.py", "rule 107.1.a")].new_id == "cr:108.2.b"


def test_fix_prints_a_diff_and_writes_only_with_yes(corpus: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    original = MTG_2022.replace("\n", "\r\n").encode("utf-8")
    notes.write_bytes(original)
    args = ("cite-check", str(notes), "--doc", "mtg/cr", "--corpus", str(corpus))
    code, out, _ = invoke(*args, "--fix")
    assert code == 1
    assert notes.read_bytes() == original  # a dry run
    assert f"--- {notes}" in out
    assert "-When a melded permanent leaves the battlefield, cr:713.4 applies.\n" in out
    assert "+When a melded permanent leaves the battlefield, cr:712.21 applies.\n" in out
    # Weak pairings are reported, not rewritten unattended.
    assert "+Double-faced cards" not in out
    code, _, err = invoke(*args, "--fix", "--yes")
    assert "fixed 1 citations" in err
    assert notes.read_bytes() == original.replace(b"cr:713.4", b"cr:712.21")
    assert code == 1  # the weak renumberings, the rewording and the typo remain


def test_the_table_and_json_and_exit_codes(corpus: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text(MTG_2022, encoding="utf-8")
    code, out, err = invoke("cite-check", str(notes), "--doc", "mtg/cr", "--corpus", str(corpus))
    assert code == 1
    assert f"{notes}:4:52  cr:713.4  renumbered → cr:712.21 (moved)" in out
    assert "7 citations of mtg/cr (written for 2022-10-07; current 2025-11-14)" in " ".join(
        err.split()
    )
    code, out, _ = invoke(
        "cite-check", str(notes), "--doc", "mtg/cr", "--json", "--corpus", str(corpus)
    )
    data = json.loads(out)
    assert data["files"] == {str(notes): "2022-10-07"}
    assert data["counts"]["renumbered"] == 3
    first = data["citations"][0]
    assert (first["id"], first["new_id"], first["form"], first["resolved_in"]) == (
        "cr:712.2",
        "cr:712.6",
        "keyword",
        "2022-10-07",
    )
    current = tmp_path / "current.txt"
    current.write_text("Trample is rule 702.19c; CR 603.3b.\n", encoding="utf-8")
    code, _, _ = invoke("cite-check", str(current), "--doc", "mtg/cr", "--corpus", str(corpus))
    assert code == 0
    assert invoke("cite-check", "--doc", "mtg/cr", "--corpus", str(corpus))[0] == EXIT_USAGE
    assert (
        invoke("cite-check", str(tmp_path / "nope"), "--doc", "mtg/cr", "--corpus", str(corpus))[0]
        == EXIT_USAGE
    )


def test_the_corpus_rulings_that_cite_rules_since_moved_or_gone(corpus: Path) -> None:
    report = check_rulings(StoredCorpus(corpus), "netrunner/cr", "netrunner/rulings")
    assert report.citations and all(
        c.file.startswith("netrunner/rulings:ruling:") for c in report.citations
    )
    stale = {(c.written, c.status, c.new_id) for c in report.citations if c.status != "current"}
    # Each ruling is read against the rules in force on its date (1.2, 2019-03-18, for these).
    assert ("rule 2.15.7", "renumbered", "cr:2.16.7") in stale
    assert ("step 8.6.11", "renumbered", "cr:8.6.10") in stale
    assert ("section 11.4", "never-existed", None) in stale
    assert set(report.as_of.values()) <= {"1.1", "1.2", "1.4"}
    code, out, _ = invoke(
        "cite-check",
        "--doc",
        "netrunner/cr",
        "--rulings",
        "netrunner/rulings",
        "--corpus",
        str(corpus),
    )
    assert code == 1 and "rule 2.15.7  renumbered → cr:2.16.7" in out
