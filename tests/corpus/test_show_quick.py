"""`show` answers a plain request without typer, rich or the models, and says exactly what
the full command says: the same JSON, the same text; anything else falls back to it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.corpus import open_corpus
from tests.support.helpers import ROOT
from tests.support.mtg_sources import MTG
from tests.support.real_corpus import import_real, modules_loaded, rulescorpus

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    wanted = {MTG.format(v) for v in ("20250725", "20251114")}
    return import_real(
        tmp_path_factory.mktemp("quick"),
        lambda e: e["path"] in wanted or e["path"].endswith("2024-01-15.tar.gz"),
        parse_cache_dir,
    )


def run(corpus: Path, *args: str, quick: bool = True) -> subprocess.CompletedProcess[str]:
    """`rulescorpus show ARGS`, through the plain path (`quick`) or the typer app alone."""
    return rulescorpus(corpus, "show", *args, full=not quick)


CASES = [
    ("cr:702.19c", "--doc", "mtg/cr"),  # a subrule
    ("cr:702.19", "--doc", "mtg/cr"),  # a rule with its subrules
    ("glossary:trample", "--doc", "mtg/cr"),
    ("cr:603.2f", "--doc", "mtg/cr"),  # an old number: renumbered to cr:603.2e
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_quick_path_says_what_the_full_command_says(
    corpus: Path, case: tuple[str, ...]
) -> None:
    for extra in ((), ("--json",)):
        quick, full = run(corpus, *case, *extra), run(corpus, *case, *extra, quick=False)
        assert quick.returncode == full.returncode == 0, quick.stderr + full.stderr
        assert quick.stdout == full.stdout


def test_its_json_is_the_dict_the_library_builds(corpus: Path) -> None:
    from pipeline.lookup import StoredCorpus
    from pipeline.lookup.lineage import Lineages
    from pipeline.lookup.show import shown_json

    for citation, _, document in CASES:
        assert (
            shown_json(Lineages(StoredCorpus(corpus)), citation, document, None)
            == open_corpus(corpus).show(citation, document).as_json()
        )


def test_a_ruling_is_shown_with_its_cards(corpus: Path) -> None:
    from pipeline.store.corpus import Corpus

    doc = Corpus(corpus).load_document("netrunner/rulings")
    ruling = doc.rulings[0].id
    quick = run(corpus, ruling, "--doc", "netrunner/rulings")
    assert quick.returncode == 0 and "cards:" in quick.stdout
    assert quick.stdout == run(corpus, ruling, "--doc", "netrunner/rulings", quick=False).stdout


def test_the_quick_path_loads_none_of_the_heavy_modules(corpus: Path) -> None:
    argv = ["--corpus", str(corpus), "show", "cr:702.19c", "--doc", "mtg/cr"]
    heavy = ("typer", "rich", "pydantic", "pipeline.models.records", "pdfplumber", "pypdfium2")
    loaded = modules_loaded(argv, (*heavy, "bs4", "yaml"))
    assert loaded.endswith("0 []"), loaded


@pytest.mark.parametrize(
    "args",
    [
        ("cr:999.9z", "--doc", "mtg/cr"),  # not found: the full command's message and code
        ("cr:702.19c", "--doc", "mtg/cr", "--version", "2025-07-25"),  # an older version
        ("cr:702.19c", "--doc", "mtg/cr", "--provenance"),
        ("cr:702.19c",),  # no --doc: the full command searches every document
    ],
)
def test_anything_else_falls_back_to_the_full_command(corpus: Path, args: tuple[str, ...]) -> None:
    quick, full = run(corpus, *args), run(corpus, *args, quick=False)
    assert (quick.returncode, quick.stdout, quick.stderr) == (
        full.returncode,
        full.stdout,
        full.stderr,
    )


# The read commands and --help import only what they use.
HEAVY = (
    "pypdfium2", "pdfplumber", "pdfminer", "bs4", "yaml", "requests", "pipeline.parse",
    "pipeline.extract", "pipeline.runner.families", "pipeline.runner.sandbox",
)  # fmt: skip
LOADED = (
    "import atexit, sys\n"
    "heavy = {heavy!r}\n"
    "atexit.register(lambda: print('LOADED', sorted({{m.split('.')[0] if not m.startswith("
    "'pipeline') else m for m in sys.modules if m.startswith(heavy)}}), file=sys.stderr))\n"
    "from pipeline.cli.commands import app; app()"
)


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("sources",),
        ("show", "cr:702.19c", "--doc", "mtg/cr", "--version", "2025-07-25"),  # the full show
        ("history", "cr:702.19c", "--doc", "mtg/cr"),
        ("diff", "mtg/cr", "2025-07-25", "2025-11-14", "--format", "md"),
    ],
    ids=lambda args: args[0],
)
def test_read_commands_and_help_load_no_parser_pdf_or_html_library(
    corpus: Path, args: tuple[str, ...]
) -> None:
    code = LOADED.format(heavy=HEAVY)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    argv = ["--corpus", str(corpus), *args]
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "LOADED []", done.stderr[-2000:]


def test_regression_the_quick_show_path_loads_no_dataclasses(corpus: Path) -> None:
    # The one lineage's steps once were dataclasses: importing dataclasses (and inspect with
    # it) made `show` a tenth slower. Its answers are named tuples, as citations are.
    argv = ["--corpus", str(corpus), "show", "cr:702.19c", "--doc", "mtg/cr"]
    loaded = modules_loaded(argv, ("dataclasses", "inspect"))
    assert loaded.endswith("0 []"), loaded
