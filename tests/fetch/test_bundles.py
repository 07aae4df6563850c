"""The site bundle, the blob a multi-page rules site is stored as (pipeline.models.bundles):
fetch writes it, extract reads it back, and its bytes are what the corpus's fetch
records and pins name, so they must not drift."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import ExtractError
from pipeline.extract.fab_html import read_rules_site
from pipeline.fetch.sites import store_site_bundle
from pipeline.models.bundles import BundleError, build_site_bundle, read_site_bundle
from pipeline.registry.loader import load_registry
from pipeline.store.blobs import BlobStore
from tests.fetch.test_site_sources import bundle_real_site

# The bundle of the FaB 2.10.1 rules site's 11 pages as an archive folder gives them,
# built before the format moved out of extract/fab_html: the same pages must keep
# giving these bytes, or every stored fab-cr-html blob would stop matching its record.
SITE_2_10_1_SHA256 = "82891347d45c71b536bce42e25337588cb80261dc000a8bc60044347b5fc04c1"
SITE_2_10_1_BYTES = 794606
BASE = "https://rules.example/en/cr/"
INDEX_HTML = b'<html><nav class="md-nav md-nav--primary"><a href="./">Home</a></nav></html>'


def test_the_real_site_bundles_to_the_bytes_it_always_had(tmp_path: Path) -> None:
    record, blobs, _pages = bundle_real_site(tmp_path)
    assert (record.sha256, record.bytes) == (SITE_2_10_1_SHA256, SITE_2_10_1_BYTES)
    data = blobs.read(record.sha256)
    bundle = read_site_bundle(data)
    assert bundle.index == "https://rules.fabtcg.com/en/cr/index.html"
    assert len(bundle.pages) == 11
    assert len(read_rules_site(data, what="fab-cr-html").pages) == 11


def test_pages_that_cannot_be_bundled_are_the_fetch_s_extract_error(tmp_path: Path) -> None:
    blobs = BlobStore(tmp_path / "cache")
    source = next(s for s in load_registry() if s.id == "fab-cr-html")
    latin1 = {BASE: INDEX_HTML, BASE + "01/": "<p>Défense</p>".encode("latin-1")}
    with pytest.raises(ExtractError) as info:
        store_site_bundle(source, BASE, latin1, blobs, final_url=BASE, what="fab-cr-html")
    assert (info.value.what, info.value.exit_code) == ("fab-cr-html", 40)
    assert str(info.value) == (
        f"fab-cr-html: page {BASE}01/ is not UTF-8 ('utf-8' codec can't decode byte 0xe9 "
        "in position 4: invalid continuation byte); cannot bundle it"
    )
    with pytest.raises(ExtractError) as info:
        store_site_bundle(
            source, BASE, {BASE + "01/": INDEX_HTML}, blobs, final_url=BASE, what="fab-cr-html"
        )
    assert str(info.value) == (
        f"fab-cr-html: the index page {BASE}index.html is not among the pages to bundle"
    )
    assert list(blobs.objects.rglob("*.*")) == [], "nothing was stored"


def test_reading_a_bundle_back_checks_every_page() -> None:
    data = build_site_bundle(BASE, {BASE: INDEX_HTML})
    assert read_site_bundle(data).pages == {BASE + "index.html": INDEX_HTML.decode()}
    altered = data.replace(b"Home", b"Away")
    with pytest.raises(BundleError, match="the bundle was altered after it was built"):
        read_site_bundle(altered)
    with pytest.raises(ExtractError, match=r"^site: page .* hashes to "):
        read_rules_site(altered, what="site")
