"""A multi-page rules site fetched as one blob: its pages bundled (extract/fab_html's
format), stored, and described by one FetchResult. The live site, a mirror server and
an archive folder each gather the pages their own way and end here."""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.fetch.policy import utc_now
from pipeline.models.sources import FetchResult, Source
from pipeline.store.blobs import BlobStore


def store_site_bundle(
    source: Source,
    index_url: str,
    pages: Mapping[str, bytes],
    blobs: BlobStore,
    *,
    final_url: str,
    what: str,
) -> FetchResult:
    """Bundle `pages` (URL -> bytes, the index among them), store the bundle, describe it."""
    from pipeline.extract.fab_html import build_site_bundle

    bundle = build_site_bundle(index_url, pages, what=what)
    sha256, size = blobs.add_bytes(bundle)
    return FetchResult(
        source=source.id,
        url=source.url or index_url,
        final_url=final_url,
        status=200,
        bytes=size,
        sha256=sha256,
        retrieved=utc_now(),
    )
