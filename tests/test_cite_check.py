"""`cite-check`: rule citations in every form, in text, Markdown, HTML and source files the
tests write, resolved against versions imported from ../shared/sources; `--fix`; and the
corpus's own Netrunner rulings."""

from __future__ import annotations

import codecs
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from diff_real import imported_corpus
from helpers import corpus_digest
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.diff.citations import find_citations, rewrite
from pipeline.errors import EXIT_IO, EXIT_USAGE
from pipeline.jobs.cite_check import (
    MAX_CITATIONS,
    Cited,
    CiteReport,
    check_rulings,
    cite_check,
    plan_fixes,
)
from pipeline.jobs.cite_fixes import partial, write_fixes
from pipeline.store.corpus import Corpus

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
    return imported_corpus(tmp_path_factory.mktemp("stored"), parse_cache_dir)


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
    report = cite_check(Corpus(corpus), "mtg/cr", [notes])
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
    old = cite_check(Corpus(corpus), "mtg/cr", [notes], as_of="2022-10-07").citations[0]
    newer = cite_check(Corpus(corpus), "mtg/cr", [notes], as_of="2022-11-18").citations[0]
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
    report = cite_check(Corpus(corpus), "fab/cr", [text])
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
    report = cite_check(Corpus(corpus), "riftbound/cr", [page.parent], as_of="2025-12-01")
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
    report = check_rulings(Corpus(corpus), "netrunner/cr", "netrunner/rulings")
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


# --------------------------------------------------------------- never touch what is not yours


@pytest.fixture(scope="module")
def stale(mtg_pair_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A number of MTG 2025-07-25 that `--fix` rewrites unattended, and its number in
    2025-11-14: read off the stored renumbering by checking every rule of the old version."""
    corpus = Corpus(mtg_pair_corpus)
    old = corpus.load_document("mtg/cr", "2025-07-25")
    every = tmp_path_factory.mktemp("every") / "every.md"
    every.write_text("\n".join(f"See rule {r.id.split(':')[1]}." for r in old.records))
    fixes = plan_fixes(cite_check(corpus, "mtg/cr", [every], as_of="2025-07-25"))
    first = next(c for f in fixes for c in f.fixed if isinstance(c, Cited) and c.new_id != c.id)
    assert isinstance(first, Cited) and first.new_id is not None
    return first.id.split(":")[1], first.new_id.split(":")[1]


def _notes(folder: Path, stale: tuple[str, str], name: str = "notes.md") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"# Notes\n\nSee rule {stale[0]} for this.\n", encoding="utf-8")
    return path


def _fixed(stale: tuple[str, str]) -> str:
    return f"# Notes\n\nSee rule {stale[1]} for this.\n"


def _fix(corpus: Path, *paths: Path, extra: tuple[str, ...] = ()) -> tuple[int, str, str]:
    args = [str(p) for p in paths]
    return invoke(
        "cite-check", *args, "--doc", "mtg/cr", "--as-of", "2025-07-25", "--fix", "--yes",
        "--corpus", str(corpus), *extra,
    )  # fmt: skip


def test_cite_check_of_a_folder_holding_the_corpus_never_rewrites_the_corpus(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """`cite-check . --fix --yes` from a project root with ./corpus rewrote 66 stored
    corpus files (then `verify` exited 20). The corpus, any folder holding a corpus's
    index.json and the cache are skipped with a note, and refused when given."""
    project = tmp_path / "project"
    corpus = project / "corpus"
    shutil.copytree(mtg_pair_corpus, corpus)
    copy = project / "backup-of-a-corpus"
    shutil.copytree(mtg_pair_corpus, copy)
    notes = _notes(project / "docs", stale)
    before = corpus_digest(project)
    code, _, err = _fix(corpus, project)
    assert code in (0, 1), err
    assert notes.read_text() == _fixed(stale)
    after = corpus_digest(project)
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    assert changed == {"docs/notes.md"}
    flat = " ".join(err.split())
    assert f"skipped the corpus ({corpus.resolve()})" in flat
    assert f"a corpus ({copy.resolve()})" in flat
    code, _, err = _fix(corpus, corpus / "mtg")
    assert code == EXIT_USAGE and "cite-check never reads or writes there" in err
    assert corpus_digest(project) == after


def test_a_planted_temporary_file_is_never_followed(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """A pre-existing `.NAME.cite-check-tmp` symlink made `--fix` overwrite the file it
    pointed to and turned the checked file into a symlink; a folder of that name was an
    internal error. The temporary file is now created exclusively under a random name."""
    folder = tmp_path / "docs"
    notes = _notes(folder, stale)
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours\n")
    (folder / ".notes.md.cite-check-tmp").symlink_to(outside)
    (folder / ".notes.md.cite-check").mkdir()
    code, _, err = _fix(mtg_pair_corpus, notes)
    assert code in (0, 1), err
    assert outside.read_text() == "not yours\n"
    assert not notes.is_symlink() and notes.read_text() == _fixed(stale)
    assert sorted(p.name for p in folder.iterdir()) == [
        ".notes.md.cite-check",
        ".notes.md.cite-check-tmp",
        "notes.md",
    ]


def test_fix_keeps_mode_owner_symlinks_and_leaves_hard_links_and_read_only_files(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """`--fix` made 0600/0755/0444 files 0644, gave them to the runner, replaced a symlink
    by a regular file (its target left stale), broke hard links and rewrote read-only
    files. Mode and owner are kept, a symlink is written through, a hard-linked or
    read-only file is left as it is and reported, and the run exits 74 (partial)."""
    private = _notes(tmp_path, stale, "private.md")
    private.chmod(0o600)
    script = _notes(tmp_path, stale, "script.md")
    script.chmod(0o755)
    target = _notes(tmp_path / "real", stale, "target.md")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    owned = _notes(tmp_path, stale, "owned.md")
    owner = (owned.stat().st_uid, owned.stat().st_gid)
    if os.geteuid() == 0:  # only a superuser can give a file away: then its owner is kept
        os.chown(owned, 4321, 4321)
        owner = (4321, 4321)
    code, _, err = _fix(mtg_pair_corpus, private, script, link, owned)
    assert code in (0, 1), err
    assert (private.stat().st_mode & 0o777, script.stat().st_mode & 0o777) == (0o600, 0o755)
    assert link.is_symlink() and target.read_text() == _fixed(stale)
    assert (owned.stat().st_uid, owned.stat().st_gid) == owner
    assert owned.read_text() == private.read_text() == _fixed(stale)

    linked = _notes(tmp_path / "hard", stale, "linked.md")
    other = tmp_path / "hard" / "other-name.md"
    os.link(linked, other)
    frozen = _notes(tmp_path / "ro", stale, "frozen.md")
    frozen.chmod(0o444)
    code, _, err = _fix(mtg_pair_corpus, linked, frozen)
    flat = " ".join(err.split())
    assert code == EXIT_IO
    assert f"skipped {linked}: it has 2 hard links" in flat
    assert f"skipped {frozen}: it is read-only; the file is unchanged" in flat
    assert "the fix was partial: 0 of 2 files written" in flat
    assert linked.read_text() == frozen.read_text() == _notes(tmp_path / "x", stale).read_text()
    assert os.stat(linked).st_ino == os.stat(other).st_ino
    code, _, err = _fix(mtg_pair_corpus, linked, extra=("--break-hard-links",))
    assert code in (0, 1) and linked.read_text() == _fixed(stale)
    assert other.read_text() != _fixed(stale)  # the other name keeps the old text


def test_a_file_edited_after_the_check_is_skipped_never_spliced(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """A file edited while `--fix` ran got the new number spliced into the wrong line (and
    "fixed 1"); a file that shrank was an internal error. The bytes are compared again
    just before the rename: a changed file is skipped and reported."""
    grown, shrunk = _notes(tmp_path, stale, "grown.md"), _notes(tmp_path, stale, "shrunk.md")
    report = cite_check(Corpus(mtg_pair_corpus), "mtg/cr", [grown, shrunk], as_of="2025-07-25")
    fixes = plan_fixes(report)
    assert [Path(f.path).name for f in fixes] == ["grown.md", "shrunk.md"]
    edited = "A new first line.\n" + grown.read_text()
    grown.write_text(edited)
    shrunk.write_text("x")
    results = write_fixes(fixes)
    assert [(r.state, r.fixed) for r in results] == [("skipped", 0), ("skipped", 0)]
    assert all("changed since it was checked" in r.reason for r in results)
    assert (grown.read_text(), shrunk.read_text()) == (edited, "x")
    assert partial(results)


def test_utf16_fifos_dangling_links_and_repeated_files(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """A UTF-16 file was skipped silently ("none found"), a FIFO hung the check forever, a
    dangling symlink aborted it (exit 2), and a file given three times was counted three
    times. UTF-16 is read (and written back as UTF-16 with its byte-order mark); the FIFO
    and the dangling link are notes; a file is checked once."""
    folder = tmp_path / "docs"
    wide = folder / "wide.txt"
    folder.mkdir()
    text = f"See rule {stale[0]}.\r\n"
    wide.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    os.mkfifo(folder / "pipe")
    (folder / "gone.md").symlink_to(tmp_path / "nowhere")
    args = ["cite-check", str(folder), str(wide), str(wide), "--doc", "mtg/cr"]
    args += ["--as-of", "2025-07-25", "--corpus", str(mtg_pair_corpus), "--json"]
    run = subprocess.run(
        [sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1, run.stderr
    data = json.loads(run.stdout)
    assert [(c["file"], c["id"]) for c in data["citations"]] == [(str(wide), f"cr:{stale[0]}")]
    notes = " ".join(data["notes"])
    assert f"skipped {folder / 'pipe'}: not a regular file (a FIFO)" in notes
    assert f"skipped {folder / 'gone.md'}: a link to nothing" in notes
    code, _, err = _fix(mtg_pair_corpus, wide)
    assert code in (0, 1), err
    assert wide.read_bytes() == codecs.BOM_UTF16_LE + f"See rule {stale[1]}.\r\n".encode(
        "utf-16-le"
    )
    bare = folder / "bare16.txt"
    bare.write_bytes(text.encode("utf-16-le"))  # no byte-order mark: named, not guessed
    report = cite_check(Corpus(mtg_pair_corpus), "mtg/cr", [bare])
    assert report.notes == [f"skipped {bare}: binary, or UTF-16 without a byte-order mark"]


def test_when_one_file_cannot_be_written_the_output_says_which_were(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """When the second of two files could not be written the first was already changed,
    and the output did not say so. Every file is reported (changed, skipped or failed)
    and the exit code says the fix was partial."""
    first = _notes(tmp_path, stale, "a.md")
    second = _notes(tmp_path, stale, "b.md")
    second.chmod(0o444)
    code, _, err = _fix(mtg_pair_corpus, first, second)
    flat = " ".join(err.split())
    assert code == EXIT_IO
    assert f"fixed 1 citations in {first}" in flat
    assert f"skipped {second}: it is read-only" in flat
    assert "the fix was partial: 1 of 2 files written" in flat


def test_a_fix_that_leaves_citations_for_a_person_says_how_to_check_again(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """After a fix, checking the file again read it as of the new version (it then mixes
    old and new numbers), so the earlier warnings (weak pairings) disappeared. The fix
    names the version the file was written for, to give as `--as-of`."""
    notes = tmp_path / "notes.md"
    notes.write_text(f"See rule {stale[0]} and rule 999.9z.\n", encoding="utf-8")
    code, _, err = _fix(mtg_pair_corpus, notes)
    assert code == 1
    assert (
        f"{notes} keeps citations for a person to check; check it again with --as-of "
        "2025-07-25" in " ".join(err.split())
    )


def test_fifty_megabytes_of_numbers_take_memory_linear_in_the_file(
    mtg_pair_corpus: Path, tmp_path: Path
) -> None:
    """50 MB of `1.1.1…` took 7 GB. Citations kept per file and numbers read per line are
    bounded, so memory is a small multiple of the file."""
    big = tmp_path / "numbers.txt"
    line = " ".join(["rule 1.1.1"] * 50) + "\n"
    big.write_text(line * (20 * 1024 * 1024 // len(line)))
    one_line = tmp_path / "one-line.txt"
    one_line.write_text("1.1.1 " * (5 * 1024 * 1024))
    args = ["cite-check", str(big), str(one_line), "--doc", "mtg/cr", "--corpus"]
    run = subprocess.run(
        [sys.executable, "-m", "pipeline", *args, str(mtg_pair_corpus)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    assert run.returncode == 1, run.stderr
    assert f"only its first {MAX_CITATIONS} citations checked" in run.stderr
    assert "numbers (not prose); it was not checked" in run.stderr
    assert peak < 900 * 1024 * 1024, peak
