"""A multi-page rules site fetched as one blob: its pages bundled (the site bundle of
pipeline.models.bundles, which extract/fab_html reads back), stored, and described by
one FetchResult. The live site, a mirror server and an archive folder each gather the
pages their own way and end here."""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.errors import ExtractError
from pipeline.fetch.policy import utc_now
from pipeline.models.bundles import BundleError, build_site_bundle
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
    try:
        bundle = build_site_bundle(index_url, pages)
    except BundleError as exc:
        # Pages that cannot be bundled (not UTF-8, no index page) are bytes that cannot
        # become text: an ExtractError, whichever stage meets them.
        raise ExtractError(what, exc.problem) from exc
    return store_bytes(
        blobs, bundle, source=source.id, url=source.url or index_url, final_url=final_url
    )


def store_bytes(
    blobs: BlobStore, data: bytes, *, source: str, url: str, final_url: str
) -> FetchResult:
    """Bytes read whole (a bundle, an archive's file) into the blob store, described as the
    download they stand for."""
    sha256, size = blobs.add_bytes(data)
    return FetchResult(
        source=source,
        url=url,
        final_url=final_url,
        status=200,
        bytes=size,
        sha256=sha256,
        retrieved=utc_now(),
    )
