"""The record contract (docs/records.md), enforced: every family over every real
document it takes in ../shared/sources (every registry source x its manifest entries, read
and parsed as `import` does), checked for the same invariants.

- `depth` is 1 for a record with no parent and 1 + the parent's depth otherwise;
- a parent exists and comes before its child; ids are unique;
- count keys come from the one set (models.records.CountKey, or a record kind's plural);
- warning codes are models.records.WarningCode members;
- extraction notes are kept; a clean document has zero warnings.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ParseError
from pipeline.fetch.manifest import (
    entries_for,
    manifest_version,
    parse_manifest,
    read_archive_files,
    versions_of,
)
from pipeline.models.content import Line
from pipeline.models.records import SCHEMA_VERSION, CountKey, Document, ParseOptions, WarningCode
from pipeline.models.sources import Source
from pipeline.parse.netrunner import cr as netrunner
from pipeline.registry.loader import load_registry
from pipeline.runner.cache import ParseCache
from pipeline.runner.families import parse_bytes
from pipeline.runner.family_names import NAMES
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest, request_for
from pipeline.store.blobs import BlobStore
from tests.support.helpers import SHARED

# Documents that are not clean, with the warnings they are known for (docs/records.md,
# counts table).
UNCLEAN = {
    # a derivative export that lost labels, and its glossary and acknowledgments
    ("fab-cr-txt", "2.10.1"): {"unlabelled-paragraph", "unexpected-end"},
    ("fab-cr-html", "2.10.1"): {"unlabelled-paragraph", "page-missing"},  # its prototype site
    ("riftbound-cr-txt", "2025-06-02"): {"unaligned-numbers", "dangling-reference"},  # a dump
}
MANIFEST = parse_manifest((SHARED / "manifest.json").read_bytes(), str(SHARED))


def cases() -> list[Any]:
    found = []
    for source in load_registry(NAMES):
        for files in versions_of(source, entries_for(source, MANIFEST)):
            version = manifest_version(source, files[0])
            case = (source, version, files)
            found.append(pytest.param(*case, id=f"{source.id}:{version}:{files[0].path}"))
    return found


@pytest.fixture(scope="module")
def blobs(tmp_path_factory: pytest.TempPathFactory) -> BlobStore:
    return BlobStore(tmp_path_factory.mktemp("contract-blobs"))


def parse_case(
    source: Source, version: str, files: list[Any], blobs: BlobStore, cache: Path
) -> Document:
    record = read_archive_files(source, files, SHARED, blobs)
    request = request_for(source, what=f"{source.id} {files[0].path}", version=version)
    return ParseCache(cache).parse(blobs.read(record.sha256), record.sha256, request, ParseLimits())


def test_every_family_takes_a_real_document_or_has_none() -> None:
    taken = {p.values[0].family for p in cases()}  # type: ignore[union-attr]
    # faq-html, fandom-wiki, nsg-html and numbered have no real document offline
    # (docs/known-limits.md): their tests generate theirs. Every other family is checked here.
    assert NAMES - taken <= {"faq-html", "fandom-wiki", "nsg-html", "numbered"}, NAMES - taken


@pytest.mark.parametrize(("source", "version", "files"), cases())
def test_the_record_contract_holds(
    source: Source, version: str, files: list[Any], blobs: BlobStore, parse_cache_dir: Path
) -> None:
    doc = parse_case(source, version, files, blobs, parse_cache_dir)
    depth: dict[str, int] = {}
    for record in doc.records:
        assert record.id not in depth, f"{record.id} appears twice"
        if record.parent is None:
            assert record.depth == 1, record.id
        else:
            assert record.parent in depth, f"{record.id}: parent {record.parent} not before it"
            assert record.depth == depth[record.parent] + 1, record.id
        depth[record.id] = record.depth
    kinds = {f"{r.kind}s" for r in doc.records}
    assert set(doc.counts) <= {k.value for k in CountKey} | kinds, set(doc.counts) - kinds
    assert doc.counts.get("records", len(doc.records)) == len(doc.records)
    assert doc.counts.get("glossary", len(doc.glossary)) == len(doc.glossary)
    examples = sum(len(r.examples) for r in doc.records)
    assert doc.counts.get("examples", examples) == examples
    by_kind = Counter(r.kind for r in doc.records)
    assert {k: doc.counts.get(f"{k}s", n) for k, n in by_kind.items()} == by_kind
    assert all(isinstance(w.code, WarningCode) for w in doc.warnings)
    raw = json.loads(doc.model_dump_json())
    assert all(w["code"] in {c.value for c in WarningCode} for w in raw["warnings"])
    assert raw["schema_version"] == SCHEMA_VERSION == 4
    if source.rendition == "pdf":
        assert "zero_width_removed" in doc.extraction  # extraction notes reach every family
    known = UNCLEAN.get((source.id, version))
    if known is None:
        assert doc.warnings == [], [f"{w.code}: {w.message}" for w in doc.warnings[:5]]
    else:
        assert doc.warnings and {w.code for w in doc.warnings} <= known


@pytest.mark.parametrize("family", ["fab-cr", "fab-policy", "mtg-cr", "riftbound-cr"])
def test_a_missing_body_is_a_parse_error_in_every_family(family: str) -> None:
    """No numbered rules is the same failure everywhere: a ParseError (exit 40), never an
    empty document or a mere warning."""
    text = b"Magic: The Gathering Comprehensive Rules\nNothing numbered here.\n"
    request = ParseRequest(family=family, document="x/cr", rendition="txt", what="t", version="1")
    with pytest.raises(ParseError) as caught:
        parse_bytes(text, request)
    assert caught.value.exit_code == 40


def test_a_netrunner_pdf_without_chapters_is_a_parse_error() -> None:
    lines = [Line(text="NISEI Comprehensive Rules Document", line=1, page=1, size=26.0)]
    with pytest.raises(ParseError, match="no chapter heading"):
        netrunner.parse(lines, {}, ParseOptions("netrunner/cr", "pdf"))
