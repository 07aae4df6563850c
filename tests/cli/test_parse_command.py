"""`rulescorpus parse FILE`: what the command prints when its reader goes away, its engine
choices, and its errors as one line with an exit code (never a traceback)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pipeline.errors import EXIT_PARSE, EXIT_USAGE
from tests.support.helpers import ROOT, SHARED

MTG_TXT = str(SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt")
FAB_TXT = str(SHARED / "fab/comprehensive-rules/2.14.0/en-fab-cr.txt")
MAIN = "from pipeline.cli.app import main; main()"


def command(*argv: str) -> list[str]:
    return [sys.executable, "-c", MAIN, *argv]


def environment() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    env.pop("RULESCORPUS_DEBUG", None)
    return env


def test_a_reader_gone_before_the_output_ends_exits_1_quietly() -> None:
    """`rulescorpus parse ... | true`: exit 1 and nothing on stderr (no traceback of a
    broken pipe)."""
    with subprocess.Popen(
        command("parse", MTG_TXT, "--family", "mtg-cr"),
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # long before the parse has its JSON to write
        assert (process.wait(timeout=120), process.stderr.read()) == (1, b"")


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (("parse", MTG_TXT, "--family", "nope"), EXIT_USAGE, "unknown family 'nope'"),
        (("parse", "no/such/file.txt", "--family", "mtg-cr"), None, "no/such/file.txt"),
        (("parse", FAB_TXT, "--family", "mtg-cr"), EXIT_PARSE, "en-fab-cr.txt"),
    ],
    ids=["unknown family", "no such file", "the wrong family"],
)
def test_a_parse_that_fails_says_so_in_one_line(
    argv: tuple[str, ...], code: int | None, says: str
) -> None:
    done = subprocess.run(command(*argv), env=environment(), capture_output=True, text=True)
    assert done.returncode != 0 and (code is None or done.returncode == code)
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and says in errors[0], done.stderr


def test_the_commands_engine_choices_are_the_extractors_engines() -> None:
    # cli may not import extract (DESIGN), so the choices are written out in cli.shared;
    # this holds them to the list the PDF extraction accepts.
    from pipeline.cli.shared import PdfEngine
    from pipeline.extract.pdf import ENGINES

    assert [engine.value for engine in PdfEngine] == list(ENGINES)
