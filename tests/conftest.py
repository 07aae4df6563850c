"""Session fixtures every test module shares: the real documents, parsed once per run, a
corpus imported once from all of ../shared/sources, and a small one from a few of them.

The real documents are the ground truth of this suite: without ../shared/sources
beside the checkout the suite cannot say anything, so collection stops with one
clear message instead of hundreds of errors.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK
from pipeline.jobs.context import Context
from pipeline.models.records import Document
from pipeline.runner.cache import ParseCache
from pipeline.runner.collector import tune_collector
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest
from tests.support.built_once import build_once, shared_folder
from tests.support.diff_real import share_parses
from tests.support.helpers import SHARED, link_archive
from tests.support.server import ScriptedServer

if TYPE_CHECKING:
    from tests.faults.lab import Lab


def pytest_configure(config: pytest.Config) -> None:
    if not (SHARED / "manifest.json").is_file():
        raise pytest.UsageError(
            f"the real documents are missing: {SHARED}/manifest.json does not exist. The "
            "tests read ../shared/sources beside the checkout; put it there (CI does)."
        )
    # The tests import and diff in this process, as the command line does in its own.
    tune_collector()


# The session fixtures below that read ../shared/sources; every fixture over the real
# documents asks for one of them.
REAL_DOCUMENTS = frozenset({"shared", "manifest", "parse_cache_dir"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Markers `make test-fast` leaves out, set by what a test uses: a fixture over the
    real documents (slow), the fault campaign's workbench (campaign), Chromium (browser,
    every *_chromium.py file). A test that reads the real documents another way says so
    with its own `slow` mark."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if REAL_DOCUMENTS.intersection(names):
            item.add_marker(pytest.mark.slow)
        if "lab" in names:
            item.add_marker(pytest.mark.campaign)
        if item.path.name.endswith("_chromium.py"):
            item.add_marker(pytest.mark.browser)


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
    return shared_folder("parsed", tmp_path_factory)


@pytest.fixture(scope="session", autouse=True)
def _real_documents_through_the_parse_cache(request: pytest.FixtureRequest) -> None:
    """The diff tests' real documents share the run's parse cache too. Asked for by name at
    run time: a fixture over the real documents in the signature would mark every test
    slow (`pytest_collection_modifyitems`)."""
    share_parses(request.getfixturevalue("parse_cache_dir"))


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


def _context(root: Path, parse_cache_dir: Path) -> Context:
    return Context(
        corpus_dir=root / "corpus",
        cache_dir=root / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )


def _import(root: Path, entries: list[dict[str, Any]], parse_cache_dir: Path) -> None:
    """Import `entries` of ../shared/sources, linked into root/archive, into root/corpus."""
    from pipeline.jobs.import_archive import import_archive

    folder = link_archive(root / "archive", entries)
    summary = import_archive(_context(root, parse_cache_dir), folder)
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes if o.exit_code]


@pytest.fixture(scope="session")
def imported_corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Context:
    """A corpus imported once from every file of ../shared/sources (PDFs included). Read
    only: a test that changes a corpus makes its own."""
    entries = json.loads((SHARED / "manifest.json").read_text())
    root = build_once(
        "imported", tmp_path_factory, lambda root: _import(root, entries, parse_cache_dir)
    )
    return _context(root, parse_cache_dir)


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
    entries = [e for e in manifest if _small(e)]
    root = build_once(
        "small", tmp_path_factory, lambda root: _import(root, entries, parse_cache_dir)
    )
    return root / "corpus"


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    """A scripted HTTP server on 127.0.0.1 (tests/support/server.py), for one test."""
    with ScriptedServer() as srv:
        yield srv


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The fault campaign's workbench (tests/faults/lab.py): its fault server, mirror and
    corpora, for the tests that run some of `make faults`' cases in `make test`."""
    from tests.faults.lab import Lab

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
    entries = [e for e in manifest if e["path"] in MTG_PAIR]
    root = build_once(
        "pair", tmp_path_factory, lambda root: _import(root, entries, parse_cache_dir)
    )
    return root / "corpus"
