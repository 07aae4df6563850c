"""A bug (an exception the pipeline does not mean) reaches the user as one line and exit 70,
never as a traceback; RULESCORPUS_DEBUG=1 shows the traceback to a developer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pipeline.errors import EXIT_BUG, shorten
from tests.support.helpers import ROOT

# `history` with its first library call replaced by one that fails as a bug would.
BUGGY = (
    "import sys; import pipeline.cli.read_arguments as arguments\n"
    "def broken(*args): raise KeyError('cr:1')\n"
    "arguments.require_corpus = broken\n"
    "from pipeline.cli.app import main; main()"
)


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    argv = ["--corpus", str(tmp_path), "history", "cr:1", "--doc", "x/cr"]
    return subprocess.run(
        [sys.executable, "-c", BUGGY, *argv],
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
    )


def test_a_bug_is_one_line_and_exit_70(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert done.returncode == EXIT_BUG == 70
    assert "Traceback" not in done.stderr and "─" not in done.stderr  # nor typer's boxes
    assert done.stderr.startswith("error: internal error (KeyError: 'cr:1')")
    assert "please report it" in done.stderr and done.stdout == ""


def test_rulescorpus_debug_shows_the_traceback(tmp_path: Path) -> None:
    done = _run(tmp_path, RULESCORPUS_DEBUG="1")
    assert done.returncode != 0 and "KeyError" in done.stderr and "broken" in done.stderr


def test_user_input_in_messages_is_shortened_and_control_characters_escaped(
    mtg_pair_corpus: Path, tmp_path: Path
) -> None:
    """Error messages echoed the user's input raw: a 120 KB argument and ANSI escape
    sequences were printed back whole. Messages escape control characters and cut long
    lines in the middle, saying how much was left out."""
    hostile = "\x1b[31mcr:" + "9" * 120_000 + "\x07"
    corpus = str(mtg_pair_corpus)
    for args in (
        ["show", hostile, "--corpus", corpus],
        ["--corpus", hostile, "show", "cr:1"],
        ["cite-check", str(tmp_path), "--doc", hostile, "--corpus", corpus],
    ):
        run = subprocess.run(
            [sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, timeout=60
        )
        assert run.returncode in (2, 74), run.stderr
        assert "\x1b" not in run.stderr and "\x07" not in run.stderr
        assert "\\x1b" in run.stderr, run.stderr[:500]
        assert len(run.stderr) < 2_000
    assert shorten("a" * 1000, 100).count("a") < 120 and "[" in shorten("a" * 1000, 100)
