"""The real documents the diff tests compare, each parsed once per test session.

Every version of MTG (TXT), Riftbound (text extractions), NISEI Netrunner (PDF) and
FaB (text export) in ../shared/sources, parsed with the project's own parsers through
`families.parse_bytes`, as `import` does. The Netrunner PDFs are the slow ones.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from pipeline.models.records import Document
from pipeline.runner.cache import ParseCache
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest
from tests.support.built_once import build_once
from tests.support.helpers import SHARED, link_archive

# The rules documents (and Netrunner's rulings) the renumbering and cite-check tests store.
STORED = re.compile(
    r"^(mtg/comprehensive-rules/.*\.txt|fab/comprehensive-rules/.*\.txt"
    r"|riftbound/core-rules/.*\.txt|netrunner/comprehensive-rules/.*\.pdf"
    r"|netrunner/rulings-netrunnerdb/.*\.tar\.gz)$"
)


@dataclass(frozen=True)
class Family:
    family: str
    document: str
    rendition: str
    folder: str
    suffix: str
    asserted: bool = False  # the file states no version: the manifest's is asserted


FAMILIES = {
    "mtg": Family("mtg-cr", "mtg/cr", "txt", "mtg/comprehensive-rules", ".txt"),
    "riftbound": Family("riftbound-cr", "riftbound/cr", "txt", "riftbound/core-rules", ".txt"),
    "netrunner": Family(
        "netrunner-cr", "netrunner/cr", "pdf", "netrunner/comprehensive-rules", ".pdf"
    ),
    "fab": Family("fab-cr", "fab/cr", "txt", "fab/comprehensive-rules", ".txt", asserted=True),
}


@functools.cache
def manifest_versions(game: str) -> list[tuple[str, str]]:
    """(manifest version, path) of every file of the game's rules, oldest first."""
    family = FAMILIES[game]
    entries = json.loads((SHARED / "manifest.json").read_text())
    rows = [
        (e["version"], e["path"])
        for e in entries
        if e["path"].startswith(family.folder + "/")
        and e["path"].endswith(family.suffix)
        and "VERSIONS" not in e["path"]
    ]
    return sorted(rows, key=lambda r: [int(p) if p.isdigit() else p for p in r[0].split(".")])


# The session's parse cache (conftest sets it): a version one worker or the import
# fixture parsed is read back, not parsed again.
_parses = ParseCache(None)


def share_parses(root: Path) -> None:
    """Parse the real documents through the parse cache at `root`."""
    _parses.root = root


@functools.cache
def real_document(game: str, version: str) -> Document:
    """One version, by its manifest version (MTG '20221007', Netrunner '1.4', ...)."""
    family = FAMILIES[game]
    path = dict(manifest_versions(game))[version]
    request = ParseRequest(
        family=family.family,
        document=family.document,
        rendition=family.rendition,
        version=version if family.asserted else None,
    )
    data = (SHARED / path).read_bytes()
    return _parses.parse(data, hashlib.sha256(data).hexdigest(), request, ParseLimits())


def consecutive_pairs() -> list[tuple[str, str, str]]:
    """(game, older, newer) for every consecutive pair of versions of every game."""
    pairs = []
    for game in FAMILIES:
        versions = [v for v, _ in manifest_versions(game)]
        pairs += [(game, a, b) for a, b in itertools.pairwise(versions)]
    return pairs


def imported_corpus(factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    """A corpus with every version of the STORED documents, imported from ../shared/sources
    by `import` (files linked into an archive folder, never copied) through the session's
    parse cache (conftest); built once per run, for every worker (built_once.py)."""

    def build(root: Path) -> None:
        entries = [
            e for e in json.loads((SHARED / "manifest.json").read_text()) if STORED.match(e["path"])
        ]
        folder = link_archive(root / "archive", entries)
        ctx = Context(
            corpus_dir=root / "corpus",
            cache_dir=root / "cache",
            parse_cache_dir=parse_cache_dir,
            renderers=diff_renderers(),
        )
        summary = import_archive(ctx, folder)
        assert summary.exit_code == EXIT_OK, [o for o in summary.outcomes if o.exit_code]

    return build_once("stored", factory, build) / "corpus"
