"""The plain `show`, `history` and `search` read their options with argparse: the same
answers as the full command for every way of writing them, and a fallback to the full
command (its message, its exit code) for anything else."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli.quick import Fallback, read_request
from tests.support.mtg_sources import MTG
from tests.support.real_corpus import import_real, rulescorpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    newest = MTG.format("20251114")
    return import_real(
        tmp_path_factory.mktemp("options"), lambda e: e["path"] == newest, parse_cache_dir
    )


def test_options_are_read_in_either_form_and_any_order() -> None:
    request = read_request(["show", "--doc=mtg/cr", "cr:702.19c", "--json", "--version", "v"])
    assert (request.command, request.words, request.doc, request.version) == (
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
        ["show", "cr:702.19c", "--help"],
        ["diff", "mtg/cr", "2025-07-25", "2025-11-14"],  # another command
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
    quick, full = rulescorpus(corpus, *args), rulescorpus(corpus, *args, full=True)
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
    quick, full = rulescorpus(corpus, *args), rulescorpus(corpus, *args, full=True)
    assert quick.returncode == full.returncode == 2
    assert (quick.stdout, quick.stderr) == (full.stdout, full.stderr)
    assert "Traceback" not in quick.stderr
