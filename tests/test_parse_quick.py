"""`parse` without typer (cli/parse_quick.py): the plain case prints the same bytes, on both
streams, with the same exit code as the typer command, and anything else is left to it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import ROOT, SHARED

from pipeline.cli.parse_quick import try_quick_parse

MTG_TXT = str(SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt")
FAB_TXT = str(SHARED / "fab/comprehensive-rules/2.14.0/en-fab-cr.txt")
QUICK = "import sys; from pipeline.cli.app import main; main()"
FULL = "import sys; from pipeline.cli.app import load_app; load_app()()"
# What the command's own process (not its parse child) must not load for a plain parse.
HEAVY = ("typer", "pipeline.runner.families", "pipeline.parse", "pypdfium2", "bs4", "filelock")
LOADED = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('TYPER', 'typer' in sys.modules, file=sys.stderr))\n"
    "def heavy():\n"
    f"    found = sorted(m for m in sys.modules if m.startswith({HEAVY!r}))\n"
    "    print('HEAVY', found, file=sys.stderr)\n"
    "atexit.register(heavy)\n" + QUICK
)


def run(*argv: str, code: str = QUICK) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    env.pop("RULESCORPUS_DEBUG", None)
    return subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True)


CASES = {
    "plain": ("parse", MTG_TXT, "--family", "mtg-cr"),
    "options": (
        "--corpus",
        "elsewhere",
        "parse",
        "--family=mtg-cr",
        MTG_TXT,
        "--document",
        "mtg/cr",
        "--rendition",
        "txt",
        "--version",
        "2025-11-14",
        "--engine",
        "pdfium",
        "--cache",
        "cache-here",
    ),
    "unknown family": ("parse", MTG_TXT, "--family", "nope"),
    "no such file": ("parse", "no/such/file.txt", "--family", "mtg-cr"),
    "no rendition": ("parse", "README", "--family", "mtg-cr"),
    "a parse error": ("parse", FAB_TXT, "--family", "mtg-cr"),
    "a bad registry": ("--sources", "no/such/sources.toml", "parse", MTG_TXT, "--family", "mtg-cr"),
}


@pytest.mark.parametrize("args", CASES.values(), ids=CASES.keys())
def test_the_quick_path_says_what_the_typer_command_says(args: tuple[str, ...]) -> None:
    quick, full = run(*args), run(*args, code=FULL)
    assert (quick.returncode, quick.stdout, quick.stderr) == (
        full.returncode,
        full.stdout,
        full.stderr,
    )
    assert quick.returncode in (0, 2, 40, 74), quick.stderr


def test_a_plain_parse_loads_no_typer_and_no_parser_in_the_commands_process() -> None:
    done = run(*CASES["plain"], code=LOADED)
    assert done.returncode == 0 and done.stdout.startswith(b"{\n")
    assert done.stderr.decode().splitlines()[-2:] == ["HEAVY []", "TYPER False"]
    # and the typer command does load it: the probe can tell
    assert run("--help", code=LOADED).stderr.decode().splitlines()[-1] == "TYPER True"


@pytest.mark.parametrize(
    "argv",
    [
        ["parse", "--help"],
        ["parse", MTG_TXT],  # no --family: typer's message
        ["parse", MTG_TXT, "--family", "mtg-cr", "--rendition", "PDF"],
        ["parse", MTG_TXT, "--family", "mtg-cr", "--colour", "red"],
        ["parse", "-", "--family", "mtg-cr"],  # a file name click reads its own way
        ["parse", MTG_TXT, "--family", "mtg-cr", "--version", "-1"],
        ["parse", MTG_TXT, "--family", ""],
        ["parse", "--", MTG_TXT, "--family", "mtg-cr"],
        ["--family", "mtg-cr", "parse", MTG_TXT],  # a command option before the command
        ["--corpus"],
        ["show", "cr:1.1"],
        ["parse", MTG_TXT, MTG_TXT, "--family", "mtg-cr"],
    ],
)
def test_anything_but_the_plain_case_is_left_to_typer(argv: list[str]) -> None:
    assert try_quick_parse(argv) is None


def test_debugging_and_completion_are_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = list(CASES["plain"])
    monkeypatch.setenv("RULESCORPUS_DEBUG", "1")
    assert try_quick_parse(argv) is None
    monkeypatch.delenv("RULESCORPUS_DEBUG")
    monkeypatch.setenv("_RULESCORPUS_COMPLETE", "bash_complete")
    assert try_quick_parse(argv) is None


def test_a_reader_gone_before_the_output_ends_both_the_same_quiet_way() -> None:
    """`rulescorpus parse ... | true`: exit 1 and nothing on stderr, as typer does."""
    ends = []
    for code in (QUICK, FULL):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with subprocess.Popen(
            [sys.executable, "-c", code, *CASES["plain"]],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as process:
            assert process.stdout is not None and process.stderr is not None
            process.stdout.close()  # long before the parse has its JSON to write
            ends.append((process.wait(timeout=120), process.stderr.read()))
    assert ends[0] == ends[1] == (1, b"")


def test_the_commands_engine_choices_are_the_extractors_engines() -> None:
    # cli may not import extract (DESIGN), so the choices are written out in cli.shared;
    # this holds them to the list the PDF extraction accepts.
    from pipeline.cli.shared import PdfEngine
    from pipeline.extract.pdf import ENGINES

    assert [engine.value for engine in PdfEngine] == list(ENGINES)
