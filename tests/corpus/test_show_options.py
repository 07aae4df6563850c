"""The plain `show`, `history` and `search` read their options by hand, not through
argparse: the same answers as the full command for every way of writing them, and a
fallback to the full command (its message, its exit code) for anything else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, SHARED, link_archive

from pipeline.cli.quick import Fallback, read_request
from pipeline.errors import EXIT_OK
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive

MTG = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("options")
    entries = [e for e in json.loads((SHARED / "manifest.json").read_text()) if e["path"] == MTG]
    ctx = Context(root / "corpus", root / "cache")
    assert import_archive(ctx, link_archive(root / "archive", entries)).exit_code == EXIT_OK
    return root / "corpus"


def run(corpus: Path, *args: str, quick: bool = True) -> subprocess.CompletedProcess[str]:
    code = (
        "from pipeline.cli.app import main; main()"
        if quick
        else "from pipeline.cli.app import load_app; load_app()()"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-c", code, "--corpus", str(corpus), *args],
        env=env,
        capture_output=True,
        text=True,
    )


def test_options_are_read_in_either_form_and_any_order() -> None:
    request = read_request(["show", "--doc=mtg/cr", "cr:702.19c", "--json", "--version", "v"])
    assert (request.command, request.citation, request.doc, request.version) == (
        "show",
        ["cr:702.19c"],
        "mtg/cr",
        "v",
    )
    assert request.json and request.limit is None
    assert read_request(["search", "two", "words", "--limit", "3"]).limit == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "cr:702.19c", "--doc"],  # a value is missing
        ["show", "cr:702.19c", "--doc", "--json"],  # the value is another option
        ["show", "cr:702.19c", "--provenance"],  # an option the plain path does not know
        ["show", "--json=yes", "cr:702.19c"],  # a flag given a value
        ["show"],  # no citation
    ],
)
def test_what_the_plain_path_cannot_read_falls_back(argv: list[str]) -> None:
    with pytest.raises(Fallback):
        read_request(argv)


@pytest.mark.slow  # reads the real documents
@pytest.mark.parametrize(
    "args",
    [
        ("show", "cr:702.19c", "--doc=mtg/cr"),
        ("show", "--json", "cr:702.19c", "--doc", "mtg/cr"),
        ("search", "trample", "planeswalkers", "--limit=2"),
    ],
)
def test_the_plain_path_answers_as_the_full_command(corpus: Path, args: tuple[str, ...]) -> None:
    quick, full = run(corpus, *args), run(corpus, *args, quick=False)
    assert quick.returncode == full.returncode == 0, quick.stderr + full.stderr
    assert quick.stdout == full.stdout


@pytest.mark.slow  # reads the real documents
@pytest.mark.parametrize(
    "args",
    [
        ("search", "trample", "--limit", "many"),  # not a number
        ("show", "cr:702.19c", "--doc"),  # no value
    ],
)
def test_a_request_it_cannot_read_gets_the_full_commands_error(
    corpus: Path, args: tuple[str, ...]
) -> None:
    quick, full = run(corpus, *args), run(corpus, *args, quick=False)
    assert quick.returncode == full.returncode == 2
    assert (quick.stdout, quick.stderr) == (full.stdout, full.stderr)
    assert "Traceback" not in quick.stderr


def test_regression_plain_show_loaded_argparse_and_the_compression_modules(
    corpus: Path,
) -> None:
    """argparse loads gettext and locale, and its help formatter shutil with bz2, lzma and
    zlib: a quarter of Python's own start, paid by every plain show before it read a byte."""
    code = (
        "import sys; from pipeline.cli.quick import try_quick; "
        f"code = try_quick(['--corpus', {str(corpus)!r}, 'show', 'cr:702.19c', '--doc', 'mtg/cr']);"
        "loaded = [m for m in ('argparse', 'gettext', 'locale', 'shutil', 'bz2', 'lzma') "
        "if m in sys.modules]; print(code, loaded)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.stdout.strip().endswith("0 []"), done.stdout + done.stderr
