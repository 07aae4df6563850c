"""What a newcomer meets at the command line: the version, completion, help that reads right,
the same document and version arguments on every read command, "did you mean" for a typo,
a missing corpus that says how to name one, and output that reads well in a log. Each test
pins one defect a first-time user ran into, on a corpus of the two real FaB text exports."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.cli.console import print_summary
from pipeline.cli.read_arguments import check_read_arguments, current_version
from pipeline.cli.reference import command_names
from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK
from pipeline.jobs.context import Context
from pipeline.jobs.outcomes import RunSummary
from pipeline.models.outcomes import Outcome
from tests.support.helpers import ROOT, SHARED, corpus_digest, link_archive

runner = CliRunner()
FAB_CR = "fab/comprehensive-rules/"


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def fab_corpus(
    tmp_path_factory: pytest.TempPathFactory, manifest: list[dict[str, Any]], parse_cache_dir: Path
) -> Path:
    """fab/cr 2.10.1 and 2.14.0, imported from their real text exports."""
    root = tmp_path_factory.mktemp("fab")
    entries = [
        e for e in manifest if str(e["path"]).startswith(FAB_CR) and "en-fab-cr" in str(e["path"])
    ]
    assert {e["version"] for e in entries} == {"2.10.1", "2.14.0"}
    folder = link_archive(root / "archive", entries)
    ctx = Context(
        corpus_dir=root / "corpus",
        cache_dir=root / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )
    from pipeline.jobs.import_archive import import_archive

    summary = import_archive(ctx, folder)
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes if o.exit_code]
    return root / "corpus"


def test_version_flag_prints_the_package_version() -> None:
    """`rulescorpus --version` was "No such option" (exit 2)."""
    result = subprocess.run(
        [sys.executable, "-m", "pipeline", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"rulescorpus {package_version('rulescorpus')}"


def test_shell_completion_is_offered_and_documented() -> None:
    """The app was built without completion, and no page said how to get it."""
    code, out, _err = invoke("--help")
    assert code == 0 and "--install-completion" in out and "--show-completion" in out
    script = Path(sys.executable).parent / "rulescorpus"
    env = os.environ | {
        "_RULESCORPUS_COMPLETE": "complete_bash",
        "COMP_WORDS": "rulescorpus renu",
        "COMP_CWORD": "1",
    }
    done = subprocess.run([str(script)], env=env, capture_output=True, text=True)
    assert done.stdout.split() == ["renumbering"], done.stderr
    assert "--install-completion" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", command_names())
def test_boolean_flags_do_not_print_as_taking_a_value(command: str) -> None:
    """`--help` printed `--json <bool>`, as if the flag took a value."""
    code, out, _err = invoke(command, "--help")
    assert code == 0 and "<bool>" not in out and "--help" in out


def test_history_without_doc_answers_like_show(fab_corpus: Path) -> None:
    """`history` required --doc where `show` finds the document that has the citation."""
    plain = invoke("--corpus", str(fab_corpus), "history", "cr:1.0.1a")
    chosen = invoke("--corpus", str(fab_corpus), "history", "cr:1.0.1a", "--doc", "fab/cr")
    assert plain[0] == 0 and plain == chosen
    assert "2.10.1" in plain[1] and "2.14.0" in plain[1]


def test_history_lines_end_without_padding(fab_corpus: Path) -> None:
    """A record's text in `history` was padded with spaces to the console's width."""
    code, out, _err = invoke("--corpus", str(fab_corpus), "history", "cr:1.0.1a")
    lines = out.splitlines()
    assert code == 0 and "  If an effect directly contradicts a rule contained in this" in out
    assert all(line == line.rstrip() for line in lines), [x for x in lines if x != x.rstrip()]


def test_diff_new_defaults_to_the_current_version(fab_corpus: Path) -> None:
    """`diff` required NEW where `renumbering` defaults it to the current version."""
    plain = invoke("--corpus", str(fab_corpus), "diff", "fab/cr", "2.10.1")
    named = invoke("--corpus", str(fab_corpus), "diff", "fab/cr", "2.10.1", "2.14.0")
    assert plain[0] == 0 and plain == named
    assert plain[1].startswith("# fab/cr: 2.10.1 → 2.14.0")


def test_a_mistyped_document_id_suggests_the_nearest(fab_corpus: Path) -> None:
    """A document id typo listed every id but suggested none."""
    for args in (
        ("show", "cr:1.0.1", "--doc", "fab/crr"),
        ("history", "cr:1.0.1", "--doc", "fab/crr"),
        ("diff", "fab/crr", "2.10.1"),
        ("renumbering", "fab/crr", "2.10.1"),
    ):
        code, _out, err = invoke("--corpus", str(fab_corpus), *args)
        assert code == 2 and "did you mean fab/cr?" in err, (args, err)
        assert err.count("\n") == 1, err


def test_a_mistyped_version_suggests_the_nearest(fab_corpus: Path) -> None:
    """An unknown version named the stored ones but not the one meant."""
    for args in (
        ("diff", "fab/cr", "2.10.1", "2.14"),
        ("show", "cr:1.0.1", "--doc", "fab/cr", "--version", "2.14"),
        ("renumbering", "fab/cr", "2.10", "2.14.0"),
    ):
        code, _out, err = invoke("--corpus", str(fab_corpus), *args)
        assert code == 2 and "did you mean" in err and "stored versions: 2.10.1, 2.14.0" in err
    code, _out, err = invoke("--corpus", str(fab_corpus), "diff", "fab/cr", "2.10.1", "2.14")
    assert one_line(err).startswith("error: version 2.14 of fab/cr not found; did you mean 2.14.0")


def test_regression_a_read_command_checks_and_answers_through_one_reader(
    fab_corpus: Path, tmp_path: Path
) -> None:
    """The read commands checked the document, then each version, then the current one,
    each time parsing and validating index.json again through the write side, then opened
    the corpus once more for the answer. The checks and the answer read one reader,
    opened once: index.json is read when it opens and never again."""
    copy = tmp_path / "corpus"
    shutil.copytree(fab_corpus, copy)
    ctx = Context(corpus_dir=copy, cache_dir=tmp_path / "cache")
    reader = check_read_arguments(ctx, "fab/cr", "2.10.1", "2.14.0")
    (copy / "index.json").unlink()
    assert current_version(reader.stored, "fab/cr") == "2.14.0"
    assert reader.show("cr:1.0.1", "fab/cr", "2.10.1").version == "2.10.1"
    assert reader.renumbering("fab/cr", "2.10.1").new_version == "2.14.0"


def test_a_mistyped_family_suggests_the_nearest() -> None:
    """`parse --family mtg-crr` listed every family but suggested none."""
    file = SHARED / FAB_CR / "2.14.0" / "en-fab-cr.txt"
    code, out, err = invoke("parse", str(file), "--family", "fab-crr")
    assert code == 2 and out == "" and "did you mean fab-cr?" in err


@pytest.mark.parametrize("kind", ["missing", "empty"])
def test_a_missing_or_empty_corpus_says_how_to_name_one(tmp_path: Path, kind: str) -> None:
    """`show` without a corpus said "the corpus at corpus has: none yet", or with a missing
    folder and no --doc "pass --doc", which does not help."""
    folder = tmp_path / "corpus"
    if kind == "empty":
        folder.mkdir()
    for args in (("show", "cr:1.0.1"), ("show", "cr:1.0.1", "--doc", "fab/cr"), ("history", "x")):
        code, _out, err = invoke("--corpus", str(folder), *args)
        assert code == 2, err
        for needed in (str(folder), "--corpus", "RULESCORPUS_CORPUS", "make run"):
            assert needed in err, (needed, err)
        assert "--doc" not in err
    assert not folder.exists() if kind == "missing" else not any(folder.iterdir())
    # The plain `show` a person types first runs a quicker path; it says the same.
    env = {k: v for k, v in os.environ.items() if k != "RULESCORPUS_CORPUS"}
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "show", "cr:1.0.1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert f"corpus (in {tmp_path})" in done.stderr and "make run" in done.stderr


def test_cite_check_fix_without_yes_fails_when_it_would_rewrite(
    fab_corpus: Path, tmp_path: Path
) -> None:
    """`cite-check --fix` without --yes exited 0 while stale citations existed, so a CI job
    using it passed."""
    notes = tmp_path / "deck-notes.md"
    notes.write_text("# Deck notes (v2.10.1)\n\n- Hero abilities: see [5.3.2b].\n")
    before = notes.read_bytes()
    corpus_before = corpus_digest(fab_corpus)
    args = ("--corpus", str(fab_corpus), "cite-check", str(notes), "--doc", "fab/cr", "--fix")
    code, out, _err = invoke(*args)
    assert code == 1 and "+- Hero abilities: see [5.3.2a]." in out
    assert notes.read_bytes() == before and corpus_digest(fab_corpus) == corpus_before
    current = tmp_path / "current.md"
    current.write_text("Effects beat rules: [1.0.1a].\n")
    args = ("--corpus", str(fab_corpus), "cite-check", str(current), "--doc", "fab/cr", "--fix")
    assert invoke(*args)[0] == 0


def test_summary_without_a_terminal_prints_one_line_per_document() -> None:
    """In cron's logs the 80-column table wrapped a long "changes" cell onto ten lines."""
    changes = {f"class-{i}": i + 1 for i in range(12)}
    summary = RunSummary(
        "update",
        [
            Outcome(document="mtg/cr", version="2026-02-06", records=3300, outcome="new",
                    changes=changes, previous="2025-11-14"),
            Outcome(document="fab/cr", version="2.14.0", records=1278, outcome="unchanged"),
        ],
    )  # fmt: skip
    log = io.StringIO()
    print_summary(Console(file=log, width=80, force_terminal=False), summary)
    lines = log.getvalue().splitlines()
    assert lines[0] == "rulescorpus update"
    assert lines[1] == "document  version  records  outcome  changes"
    assert lines[2].startswith("mtg/cr  2026-02-06  3300  new  from 2025-11-14: class-0 1, ")
    assert lines[2].endswith("class-9 10") and len(lines[2]) > 80
    assert lines[3] == "fab/cr  2.14.0  1278  unchanged"
    assert lines[4:] == ["exit code 0"]
    terminal = io.StringIO()
    print_summary(Console(file=terminal, width=60, force_terminal=True, color_system=None), summary)
    assert all(len(line) <= 60 for line in terminal.getvalue().splitlines())


def test_sources_without_a_terminal_prints_plain_lines_and_json_stays() -> None:
    """The registry table drew boxes into a pipe; `--json` must not change."""
    result = subprocess.run(
        [sys.executable, "-m", "pipeline", "sources"], capture_output=True, text=True
    )
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[1] == "id  document  family  rendition  url or discovery page"
    assert not any(ch in result.stdout for ch in "┏━┃│└")
    assert any(line.startswith("fab-cr-txt  fab/cr  fab-cr  txt *  https://") for line in lines)
    code, out, _err = invoke("sources", "--json")
    assert code == 0 and out.lstrip().startswith("[")
