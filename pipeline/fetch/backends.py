"""Where a run gets each source's bytes: the publisher (live), or an offline mirror.

A mirror is a folder or a server holding files and a `manifest.json` in the
archive format (docs/operations.md, "Archives and mirrors": game, document,
version, date, format, url, bytes, sha256, path). Each source is answered with the newest file the
manifest lists for it, matched by URL where the manifest has one, else by the
source's manifest key (game, document, format). The manifest's SHA-256 is a
published hash: a file that does not match it is a verification failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol
from urllib.parse import quote, urlsplit

from pipeline.errors import FetchError, HashMismatch, UsageError
from pipeline.fetch.discover import PageReaders, find_link
from pipeline.fetch.http import Fetcher
from pipeline.fetch.manifest import (
    ManifestEntry,
    check_size,
    parse_manifest,
    read_archive_files,
    read_manifest,
    versions_of,
)
from pipeline.fetch.sites import store_bytes, store_site_bundle
from pipeline.models.sources import FetchResult, Source
from pipeline.store.blobs import BlobStore


class Backend(Protocol):
    def get(self, source: Source, previous: FetchResult | None) -> FetchResult | None:
        """The fetch record of the source's bytes (now in the blob store), or None if
        this backend does not carry the source."""


class LiveBackend:
    """The publishers' servers, through the Fetcher (conditional GET, redirect policy...).
    `pages` reads the landing pages and site indexes that say what to fetch next."""

    def __init__(self, fetcher: Fetcher, blobs: BlobStore, pages: PageReaders) -> None:
        self.fetcher = fetcher
        self.blobs = blobs
        self.pages = pages

    def resolve_url(self, source: Source) -> str:
        if source.url is not None:
            return source.url
        if source.discovery is None:
            raise UsageError(f"source {source.id} has neither a url nor a discovery rule")
        record, html = self.fetcher.fetch_page(
            f"{source.id}-page", source.discovery.page, allowed_hosts=source.allowed_hosts
        )
        return find_link(
            html,
            record.final_url,
            source.discovery.link_pattern,
            source=source.id,
            list_links=self.pages.list_links,
        )

    def get(self, source: Source, previous: FetchResult | None) -> FetchResult | None:
        if source.options.get("archive_only"):
            return None
        if source.rendition == "wiki":
            return self.get_wiki(source)
        if source.options.get("site"):
            return self.get_site(source)
        url = self.resolve_url(source)
        usable = previous if previous is not None and previous.url == url else None
        return self.fetcher.fetch(
            source.id,
            url,
            allowed_hosts=source.allowed_hosts,
            expect=source.rendition,
            previous=usable,
            max_bytes=source.max_bytes,
        )

    def get_site(self, source: Source) -> FetchResult:
        """A multi-page rules site: the index page, then every page its navigation lists,
        stored together as one bundle blob (the same bundle an archive folder gives)."""
        index, html = self.fetcher.fetch_page(
            f"{source.id}-index", source.url or "", allowed_hosts=source.allowed_hosts
        )
        pages = {index.final_url: html}
        for url in self.pages.list_site_pages(html, index.final_url, what=source.id)[1:]:
            try:
                _, page = self.fetcher.fetch_page(
                    f"{source.id}-page", url, allowed_hosts=source.allowed_hosts
                )
            except FetchError as exc:
                # A page the index lists but the site does not serve is the site's own gap:
                # the parser reports it (page-missing). Anything else fails the fetch.
                if not exc.problem.startswith("HTTP 404"):
                    raise
                continue
            pages[url] = page
        return store_site_bundle(
            source, index.final_url, pages, self.blobs, final_url=index.final_url, what=source.id
        )

    def get_wiki(self, source: Source) -> FetchResult:
        """A MediaWiki page: its revision (SHA-1 checked against the wiki's own) and the
        rendering of that same revision, stored together as one bundle blob."""
        from pipeline.fetch.mediawiki import fetch_revision_bundle

        api = source.url or ""

        def get(url: str) -> bytes:
            record = self.fetcher.fetch(
                f"{source.id}-api", url, allowed_hosts=source.allowed_hosts, expect="json"
            )
            return self.blobs.read(record.sha256)

        revid = source.options.get("revid")
        bundle = fetch_revision_bundle(
            get, api, title=source.options.get("title"), revid=int(revid) if revid else None
        )
        return store_bytes(self.blobs, bundle, source=source.id, url=api, final_url=api)


class MirrorDirBackend:
    """A local folder holding files and their archive `manifest.json`."""

    def __init__(self, root: Path, blobs: BlobStore) -> None:
        self.root = root
        self.blobs = blobs
        self.entries = read_manifest(root, "mirror")

    def get(self, source: Source, previous: FetchResult | None) -> FetchResult | None:
        versions = versions_of(source, self.entries)
        if not versions:
            return None
        return read_archive_files(source, versions[-1], self.root, self.blobs)


class MirrorUrlBackend:
    """A server holding the same files and manifest.json (e.g. a team's own mirror)."""

    def __init__(self, base: str, fetcher: Fetcher, blobs: BlobStore) -> None:
        self.base = base.rstrip("/") + "/"
        self.fetcher = fetcher
        self.blobs = blobs
        self.host = urlsplit(self.base).hostname or ""
        record = fetcher.fetch(
            "mirror-manifest", self.base + "manifest.json", allowed_hosts=[self.host], expect="json"
        )
        self.entries = parse_manifest(blobs.read(record.sha256), self.base + "manifest.json")

    def get(self, source: Source, previous: FetchResult | None) -> FetchResult | None:
        versions = versions_of(source, self.entries)
        if not versions:
            return None
        if source.options.get("site"):
            return self.get_site(source, versions[-1])
        entry = versions[-1][0]
        url = self.base + quote(entry.path)
        usable = previous if previous is not None and previous.final_url == url else None
        record = self.fetch_checked(source, entry, source.rendition, usable)
        return record.model_copy(update={"url": entry.url or source.url or url, "final_url": url})

    def fetch_checked(
        self,
        source: Source,
        entry: ManifestEntry,
        expect: str | None = None,
        previous: FetchResult | None = None,
    ) -> FetchResult:
        """One file the mirror lists, checked against its manifest's SHA-256 and size."""
        url = self.base + quote(entry.path)
        record = self.fetcher.fetch(
            source.id,
            url,
            allowed_hosts=[self.host],
            expect=expect,
            previous=previous,
            max_bytes=source.max_bytes,
        )
        if record.sha256 != entry.sha256:
            raise HashMismatch(url, entry.sha256, record.sha256, "the mirror's manifest.json")
        check_size(url, entry, record.bytes)
        return record

    def get_site(self, source: Source, entries: list[ManifestEntry]) -> FetchResult:
        """Every page of the newest version the mirror lists, each checked, as one bundle."""
        pages: dict[str, bytes] = {}
        for entry in entries:
            record = self.fetch_checked(source, entry)
            pages[entry.url or self.base + quote(entry.path)] = self.blobs.read(record.sha256)
        return store_site_bundle(
            source,
            source.url or "",
            pages,
            self.blobs,
            final_url=self.base + "manifest.json",
            what=f"{source.id} ({self.base})",
        )


def open_backend(
    mirror: str | None, fetcher: Fetcher, blobs: BlobStore, pages: PageReaders
) -> Backend:
    """The mirror's backend, or the live one (the only one that reads pages) without one."""
    if mirror is None:
        return LiveBackend(fetcher, blobs, pages)
    if mirror.startswith(("http://", "https://")):
        return MirrorUrlBackend(mirror, fetcher, blobs)
    return MirrorDirBackend(Path(mirror), blobs)
