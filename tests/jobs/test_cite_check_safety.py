"""`cite-check` never touches what is not the user's to have rewritten: the corpus, the
cache, planted temporary files; `--fix` keeps each file's mode, owner and links, never
splices into a file changed meanwhile, and says per file what it did; special files,
encodings and huge files are read safely. Run against two MTG versions from
../shared/sources (the `mtg_pair_corpus` fixture)."""

from __future__ import annotations

import codecs
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cite.check import MAX_CITATIONS, Cited, cite_check, plan_fixes
from pipeline.cite.fixes import partial, write_fixes
from pipeline.cli.commands import app
from pipeline.diff.citations import find_in_line
from pipeline.errors import EXIT_IO, EXIT_USAGE
from pipeline.store.corpus import Corpus
from pipeline.store.reader import StoredCorpus
from tests.support.helpers import corpus_digest

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


# --------------------------------------------------------------- never touch what is not yours


@pytest.fixture(scope="module")
def stale(mtg_pair_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A number of MTG 2025-07-25 that `--fix` rewrites unattended, and its number in
    2025-11-14: read off the stored renumbering by checking every rule of the old version."""
    corpus = StoredCorpus(mtg_pair_corpus)
    old = Corpus(mtg_pair_corpus).load_document("mtg/cr", "2025-07-25")
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


def _fix(corpus: Path, *paths: Path, extra: tuple[str, ...] = ()) -> tuple[int, str]:
    """`cite-check PATHS --fix --yes` as of 2025-07-25: its exit code, and its standard
    error as one line (a message wrapped to the terminal's width reads whole)."""
    args = [str(p) for p in paths]
    code, _, err = invoke(
        "cite-check", *args, "--doc", "mtg/cr", "--as-of", "2025-07-25", "--fix", "--yes",
        "--corpus", str(corpus), *extra,
    )  # fmt: skip
    return code, " ".join(err.split())


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
    code, err = _fix(corpus, project)
    assert code in (0, 1), err
    assert notes.read_text() == _fixed(stale)
    after = corpus_digest(project)
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    assert changed == {"docs/notes.md"}
    assert f"skipped the corpus ({corpus.resolve()})" in err
    assert f"a corpus ({copy.resolve()})" in err
    code, err = _fix(corpus, corpus / "mtg")
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
    code, err = _fix(mtg_pair_corpus, notes)
    assert code in (0, 1), err
    assert outside.read_text() == "not yours\n"
    assert not notes.is_symlink() and notes.read_text() == _fixed(stale)
    assert sorted(p.name for p in folder.iterdir()) == [
        ".notes.md.cite-check",
        ".notes.md.cite-check-tmp",
        "notes.md",
    ]


def test_fix_removes_what_a_killed_fix_left_and_never_follows_a_link_of_that_name(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """Before writing a file, `--fix` removed every temporary file of its name whose process
    was gone, judged through links: a link of such a name to a regular file was taken for
    one and removed. A temporary file a killed fix left is removed (whatever random part it
    has), one of a running process is kept, and a link of that name is left alone, like the
    file it names."""
    folder = tmp_path / "docs"
    notes = _notes(folder, stale)
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    left = [folder / f".notes.md.{child.pid}.{part}.cite-check" for part in ("x1_b2c3d", "0" * 16)]
    for path in left:
        path.write_text("half a fix")
    running = folder / f".notes.md.{os.getpid()}.{'a' * 16}.cite-check"
    running.write_text("another fix, still running")
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours\n")
    linked = folder / f".notes.md.{child.pid}.{'b' * 16}.cite-check"
    linked.symlink_to(outside)
    code, err = _fix(mtg_pair_corpus, notes)
    assert code in (0, 1), err
    assert notes.read_text() == _fixed(stale) and not any(p.exists() for p in left)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [linked.name, "notes.md", running.name]
    )
    assert linked.is_symlink() and outside.read_text() == "not yours\n"


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
    code, err = _fix(mtg_pair_corpus, private, script, link, owned)
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
    code, err = _fix(mtg_pair_corpus, linked, frozen)
    assert code == EXIT_IO
    assert f"skipped {linked}: it has 2 hard links" in err
    assert f"skipped {frozen}: it is read-only; the file is unchanged" in err
    assert "the fix was partial: 0 of 2 files written" in err
    assert linked.read_text() == frozen.read_text() == _notes(tmp_path / "x", stale).read_text()
    assert os.stat(linked).st_ino == os.stat(other).st_ino
    code, err = _fix(mtg_pair_corpus, linked, extra=("--break-hard-links",))
    assert code in (0, 1) and linked.read_text() == _fixed(stale)
    assert other.read_text() != _fixed(stale)  # the other name keeps the old text


def test_a_file_edited_after_the_check_is_skipped_never_spliced(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """A file edited while `--fix` ran got the new number spliced into the wrong line (and
    "fixed 1"); a file that shrank was an internal error. The bytes are compared again
    just before the rename: a changed file is skipped and reported."""
    grown, shrunk = _notes(tmp_path, stale, "grown.md"), _notes(tmp_path, stale, "shrunk.md")
    report = cite_check(
        StoredCorpus(mtg_pair_corpus), "mtg/cr", [grown, shrunk], as_of="2025-07-25"
    )
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
    code, err = _fix(mtg_pair_corpus, wide)
    assert code in (0, 1), err
    assert wide.read_bytes() == codecs.BOM_UTF16_LE + f"See rule {stale[1]}.\r\n".encode(
        "utf-16-le"
    )
    bare = folder / "bare16.txt"
    bare.write_bytes(text.encode("utf-16-le"))  # no byte-order mark: named, not guessed
    report = cite_check(StoredCorpus(mtg_pair_corpus), "mtg/cr", [bare])
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
    code, err = _fix(mtg_pair_corpus, first, second)
    assert code == EXIT_IO
    assert f"fixed 1 citations in {first}" in err
    assert f"skipped {second}: it is read-only" in err
    assert "the fix was partial: 1 of 2 files written" in err


def test_a_fix_that_leaves_citations_for_a_person_says_how_to_check_again(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """After a fix, checking the file again read it as of the new version (it then mixes
    old and new numbers), so the earlier warnings (weak pairings) disappeared. The fix
    names the version the file was written for, to give as `--as-of`."""
    notes = tmp_path / "notes.md"
    notes.write_text(f"See rule {stale[0]} and rule 999.9z.\n", encoding="utf-8")
    code, err = _fix(mtg_pair_corpus, notes)
    assert code == 1
    assert (
        f"{notes} keeps citations for a person to check; check it again with --as-of "
        "2025-07-25" in err
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


@pytest.mark.parametrize("encoding", ["utf-32-le", "utf-32-be"])
def test_utf32_with_a_bom_reads_as_none_found(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str], encoding: str
) -> None:
    """UTF-32-LE's byte-order mark starts like UTF-16-LE's: the file was read as UTF-16,
    found nothing, and the check exited 0. UTF-32 marks are looked for first."""
    bom = codecs.BOM_UTF32_LE if encoding.endswith("le") else codecs.BOM_UTF32_BE
    wide = tmp_path / "wide.txt"
    wide.write_bytes(bom + f"See rule {stale[0]}.\n".encode(encoding))
    args = ["cite-check", str(wide), "--doc", "mtg/cr", "--as-of", "2025-07-25"]
    run = subprocess.run(
        [sys.executable, "-m", "pipeline", *args, "--corpus", str(mtg_pair_corpus), "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 1, run.stderr
    data = json.loads(run.stdout)
    assert [(c["file"], c["id"]) for c in data["citations"]] == [(str(wide), f"cr:{stale[0]}")]


def test_a_second_corpus_given_by_a_sub_folder_or_reached_by_a_link_is_never_rewritten(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """`cite-check OTHER/mtg --fix --yes` rewrote 63 files of a second corpus (its index.json
    is one folder up, so the sub-folder was not known as a corpus), and a link from the
    user's folder into a corpus's file was written through."""
    other = tmp_path / "other"
    shutil.copytree(mtg_pair_corpus, other)
    planted = _notes(other / "mtg" / "cr", stale, "kept.md")  # a file inside a corpus folder
    link = tmp_path / "docs" / "link.md"
    link.parent.mkdir()
    link.symlink_to(planted)
    before = corpus_digest(other)
    code, err = _fix(mtg_pair_corpus, other / "mtg")
    assert code == EXIT_USAGE and f"a corpus ({other.resolve()})" in err, err
    code, err = _fix(mtg_pair_corpus, link)
    assert code == EXIT_USAGE and "is in a corpus" in err, err
    code, err = _fix(mtg_pair_corpus, link.parent)  # met in a folder: skipped
    assert code in (0, 1) and "it is inside a corpus" in err, err
    assert corpus_digest(other) == before


def test_a_skipped_file_is_not_named_as_holding_citations_for_a_person(
    mtg_pair_corpus: Path, tmp_path: Path, stale: tuple[str, str]
) -> None:
    """A read-only file that `--fix --yes` skipped was then named as one that "now mixes
    old and new numbers", though it was never written."""
    notes = _notes(tmp_path / "docs", stale)
    notes.write_text(notes.read_text() + "And rule 999.99z, which no version has.\n")
    notes.chmod(0o444)
    code, err = _fix(mtg_pair_corpus, notes)
    assert code == EXIT_IO and "it is read-only" in err, err
    assert "keeps citations for a person" not in err and "mixes old and new" not in err


def test_lines_of_two_thousand_numbers_take_time_linear_in_their_length() -> None:
    """Lines of 2,000 numbers took 7 s per megabyte: each number was tested against every
    citation found before it on its line."""

    def seconds(per_line: int) -> float:
        line = " ".join(f"rule {n % 900 + 100}.{n % 50}a {n % 800 + 100}.{n % 40}b"
                        for n in range(per_line // 2))  # fmt: skip
        lines = max(1, 400_000 // len(line))
        start = time.perf_counter()
        for number in range(lines):
            find_in_line(line, number)
        return time.perf_counter() - start

    short, long = min(seconds(100) for _ in range(2)), min(seconds(2000) for _ in range(2))
    assert long < 3 * short + 0.2, (short, long)
