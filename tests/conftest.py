"""Session fixtures every test module shares: the real documents, parsed once per run, a
corpus imported once from all of ../shared/sources, and a small one from a few of them.

The real documents are the ground truth of this suite: without ../shared/sources
beside the checkout the suite cannot say anything, so collection stops with one
clear message instead of hundreds of errors.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from helpers import SHARED, link_archive

from pipeline.errors import EXIT_OK
from pipeline.jobs.context import Context
from pipeline.models.records import Document
from pipeline.runner.cache import ParseCache
from pipeline.runner.collector import tune_collector
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest

if TYPE_CHECKING:
    from faults.lab import Lab


def pytest_configure(config: pytest.Config) -> None:
    if not (SHARED / "manifest.json").is_file():
        raise pytest.UsageError(
            f"the real documents are missing: {SHARED}/manifest.json does not exist. The "
            "tests read ../shared/sources beside the checkout; put it there (CI does)."
        )
    # The tests import and diff in this process, as the command line does in its own.
    tune_collector()


@pytest.fixture(scope="session")
def shared() -> Path:
    """The folder of real documents (read only)."""
    return SHARED


@pytest.fixture(scope="session")
def manifest() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads((SHARED / "manifest.json").read_text())
    return entries


ParseReal = Callable[..., Document]


@pytest.fixture(scope="session")
def parse_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One parse cache for the whole run: the import fixture and parse_real share it."""
    return tmp_path_factory.mktemp("parsed")


@pytest.fixture(scope="session")
def parse_real(parse_cache_dir: Path) -> ParseReal:
    """parse_real(relative_path, family, rendition=..., document=..., version=..., **options)
    -> Document, each real file parsed once per test run whichever module asks (through the
    pipeline's own parse cache, so the import fixture reuses these parses too)."""
    cache: dict[tuple[object, ...], Document] = {}
    parses = ParseCache(parse_cache_dir)

    def parse(
        path: str,
        family: str,
        *,
        document: str,
        rendition: str | None = None,
        version: str | None = None,
        **options: str,
    ) -> Document:
        rendition = rendition or Path(path).suffix.lstrip(".")
        key = (path, family, document, rendition, version, tuple(sorted(options.items())))
        if key not in cache:
            request = ParseRequest(
                family=family,
                document=document,
                rendition=rendition,
                what=path,
                version=version,
                options=dict(options),
            )
            data = (SHARED / path).read_bytes()
            sha = hashlib.sha256(data).hexdigest()
            cache[key] = parses.parse(data, sha, request, ParseLimits())
        return cache[key]

    return parse


@pytest.fixture(scope="session")
def imported_corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Context:
    """A corpus imported once from every file of ../shared/sources (PDFs included). Read
    only: a test that changes a corpus makes its own."""
    root = tmp_path_factory.mktemp("imported")
    entries = json.loads((SHARED / "manifest.json").read_text())
    folder = link_archive(root / "archive", entries)
    ctx = Context(
        corpus_dir=root / "corpus", cache_dir=root / "cache", parse_cache_dir=parse_cache_dir
    )
    from pipeline.jobs.import_archive import import_archive

    summary = import_archive(ctx, folder)
    assert summary.exit_code == EXIT_OK, [o for o in summary.outcomes if o.exit_code]
    return ctx


# The small corpus: every MTG text export since the July 2009 rewrite (seven versions, so
# renumbering has a real history; the older ones are in the full import), the FaB 2.14.0
# text export (a glossary) and the two NetrunnerDB rulings snapshots (rulings with cards).
def _small(entry: dict[str, Any]) -> bool:
    path = str(entry["path"])
    return (
        (entry["game"] == "mtg" and entry["format"] == "txt" and entry["version"] >= "20090710")
        or (entry["document"] == "comprehensive-rules" and path.endswith("2.14.0/en-fab-cr.txt"))
        or (entry["document"] == "rulings-netrunnerdb" and entry["format"] == "tar.gz")
    )


@pytest.fixture(scope="session")
def small_corpus(
    tmp_path_factory: pytest.TempPathFactory, manifest: list[dict[str, Any]], parse_cache_dir: Path
) -> Path:
    """A corpus imported once per run from a few real documents (see `_small`), for the
    API, export, Datasette and `show --provenance` tests. Read only: its folder's
    `archive` and `cache` sit beside it, and a test that imports or updates copies all
    three first."""
    root = tmp_path_factory.mktemp("small")
    folder = link_archive(root / "archive", [e for e in manifest if _small(e)])
    ctx = Context(
        corpus_dir=root / "corpus", cache_dir=root / "cache", parse_cache_dir=parse_cache_dir
    )
    from pipeline.jobs.import_archive import import_archive

    summary = import_archive(ctx, folder)
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes if o.exit_code]
    return root / "corpus"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The fault campaign's workbench (tests/faults/lab.py): its fault server, mirror and
    corpora, for the tests that run some of `make faults`' cases in `make test`."""
    from faults.lab import Lab

    workbench = Lab(tmp_path_factory.mktemp("faults"))
    yield workbench
    workbench.close()


# Two MTG text exports, 2025-07-25 and 2025-11-14, with the diff between them: the corpus
# the safety tests of cite-check and the export copy and probe.
MTG_PAIR = (
    "mtg/comprehensive-rules/20250725/MagicCompRules 20250725.txt",
    "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt",
)


@pytest.fixture(scope="session")
def mtg_pair_corpus(
    tmp_path_factory: pytest.TempPathFactory, manifest: list[dict[str, Any]], parse_cache_dir: Path
) -> Path:
    """A corpus imported once per run from MTG_PAIR. Read only: copy it to change it."""
    root = tmp_path_factory.mktemp("pair")
    folder = link_archive(root / "archive", [e for e in manifest if e["path"] in MTG_PAIR])
    ctx = Context(
        corpus_dir=root / "corpus", cache_dir=root / "cache", parse_cache_dir=parse_cache_dir
    )
    from pipeline.jobs.import_archive import import_archive

    summary = import_archive(ctx, folder)
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes if o.exit_code]
    return root / "corpus"
