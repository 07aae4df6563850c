"""A multi-page rules site (`options.site`): the FaB rules site's pages as one rendition.

Live, the index page and every page its navigation lists are fetched from a server on
127.0.0.1 and bundled; from an archive folder, every page of one version is bundled the
same way; either way the bundle parses to the 2.10.1 rules, and import stores it as a
third rendition of fab/cr 2.10.1 beside the text export.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK
from pipeline.fetch.backends import LiveBackend, MirrorDirBackend
from pipeline.fetch.http import Fetcher
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from pipeline.jobs.update import html_readers
from pipeline.models.sources import FetchResult, Source
from pipeline.registry.loader import load_registry
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import request_for
from pipeline.store.blobs import BlobStore
from tests.support.helpers import SHARED, link_archive
from tests.support.server import Reply, ScriptedServer

SITE = SHARED / "fab/comprehensive-rules-html/2.10.1-prototype"


def site_source(url: str) -> Source:
    packaged = next(s for s in load_registry() if s.id == "fab-cr-html")
    return packaged.model_copy(update={"url": url, "allowed_hosts": []})


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer() as srv:
        for page in sorted(SITE.rglob("*.html")):
            path = "/" + page.relative_to(SITE).as_posix()
            reply = Reply(200, page.read_bytes(), {"Content-Type": "text/html; charset=utf-8"})
            srv.serve(path, reply)
            if path.endswith("/index.html"):
                srv.serve(path.removesuffix("index.html"), reply)
        yield srv


def test_a_live_site_is_fetched_page_by_page_and_parsed_as_the_rules(
    tmp_path: Path, server: ScriptedServer
) -> None:
    blobs = BlobStore(tmp_path / "cache")
    source = site_source(server.url("/en/cr/index.html"))
    with Fetcher(blobs) as fetcher:
        record = LiveBackend(fetcher, blobs, html_readers()).get(source, None)
    assert record is not None
    bundle = json.loads(blobs.read(record.sha256))
    assert len(bundle["pages"]) == 11
    doc = parse_bytes(blobs.read(record.sha256), request_for(source, what="site", version="2.10.1"))
    assert len(doc.records) == 1225 and len(doc.glossary) == 261


def bundle_real_site(tmp_path: Path) -> tuple[FetchResult, BlobStore, int]:
    """The FaB 2.10.1 rules site's pages bundled from an archive folder, as import does:
    the fetch record, the blob store holding the bundle, and how many pages went in."""
    manifest = json.loads((SHARED / "manifest.json").read_text())
    pages = [e for e in manifest if e["document"] == "comprehensive-rules-html"]
    folder = link_archive(tmp_path / "archive", pages)
    blobs = BlobStore(tmp_path / "cache")
    source = next(s for s in load_registry() if s.id == "fab-cr-html")
    record = MirrorDirBackend(folder, blobs).get(source, None)
    assert record is not None
    return record, blobs, len(pages)


def test_an_archive_folder_bundles_the_same_pages(tmp_path: Path) -> None:
    record, blobs, pages = bundle_real_site(tmp_path)
    assert len(json.loads(blobs.read(record.sha256))["pages"]) == pages == 11


def test_import_stores_the_site_as_a_third_rendition_of_2_10_1(tmp_path: Path) -> None:
    manifest = json.loads((SHARED / "manifest.json").read_text())
    wanted = [
        e
        for e in manifest
        if e["document"] == "comprehensive-rules-html"
        or e["path"].endswith("en-fab-cr-2.10.1-20250519212741.txt")
    ]
    folder = link_archive(tmp_path / "archive", wanted)
    ctx = Context(tmp_path / "corpus", tmp_path / "cache", renderers=diff_renderers())
    summary = import_archive(ctx, folder)
    assert summary.exit_code == EXIT_OK, summary.outcomes
    doc = ctx.corpus.load_document("fab/cr", "2.10.1")
    assert sorted(r.rendition for r in doc.renditions) == ["html", "txt"]
    assert [o.outcome for o in summary.outcomes] == ["imported"]


def test_an_update_from_a_mirror_folder_explains_every_file_it_does_not_take(
    tmp_path: Path,
) -> None:
    from pipeline.jobs.update import update

    manifest = json.loads((SHARED / "manifest.json").read_text())
    wanted = [
        e
        for e in manifest
        if e["document"] == "rulings-netrunnerdb" or e["path"].endswith("/VERSIONS.txt")
    ]
    folder = link_archive(tmp_path / "mirror", wanted)
    summary = update(
        Context(tmp_path / "corpus", tmp_path / "cache", renderers=diff_renderers()),
        [],
        mirror=str(folder),
    )
    kinds = {o.outcome: o.message for o in summary.outcomes if o.outcome in ("copy", "side-file")}
    assert "virtuoso.json" in kinds["copy"] and "VERSIONS.txt" in kinds["side-file"]
    folders = {f"{e['game']}/{e['document']}" for e in wanted}
    leftovers = [o for o in summary.outcomes if o.document in folders]
    assert {o.outcome for o in leftovers} == {"copy", "side-file"}, "nothing is left unexplained"
