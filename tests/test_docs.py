"""The README and the command line stay in sync (after sqlite-utils' tests/test_docs.py)."""

from __future__ import annotations

import re

import pytest
from helpers import ROOT
from typer.main import get_command

from pipeline import errors
from pipeline.cli.app import app
from pipeline.jobs.families import FAMILIES
from pipeline.registry.loader import load_registry

README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(get_command(app).commands)  # type: ignore[attr-defined]


def test_first_screen_gives_exactly_the_two_setup_commands() -> None:
    first_screen = "\n".join(README.splitlines()[:30])
    blocks = re.findall(r"```\n(.*?)```", first_screen, re.S)
    commands = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    assert [c for c in commands if c] == ["make run", "make test"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_documented(command: str) -> None:
    assert f"`rulescorpus {command}" in README, f"README does not document `{command}`"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_documented_option_exists(command: str) -> None:
    row = next(line for line in README.splitlines() if line.startswith(f"| `rulescorpus {command}"))
    options = set(re.findall(r"--[a-z-]+", row))
    params = get_command(app).commands[command].params  # type: ignore[attr-defined]
    known = {opt for p in params for opt in p.opts}
    assert options <= known, options - known


def test_every_exit_code_is_documented() -> None:
    for name in (
        "EXIT_OK",
        "EXIT_CHANGED",
        "EXIT_VERIFY",
        "EXIT_FETCH",
        "EXIT_PARSE",
        "EXIT_LOCKED",
        "EXIT_USAGE",
    ):
        code = getattr(errors, name)
        assert re.search(rf"^\| {code} \|", README, re.M), f"exit code {code} ({name})"


def test_every_family_and_document_is_named() -> None:
    for family in FAMILIES:
        assert f"`{family}`" in README, family
    for source in load_registry():
        assert f"`{source.document}`" in README or source.document in README, source.document
