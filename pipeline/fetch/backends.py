"""Where a run gets each source's bytes: the publisher (live), or an offline mirror.

A mirror is a folder or a server holding files and a `manifest.json` in the
format of ../shared/sources (game, document, version, date, format, url,
bytes, sha256, path). Each source is answered with the newest file the
manifest lists for it, matched by URL where the manifest has one, else by the
source's manifest key (game, document, format). The manifest's SHA-256 is a
published hash: a file that does not match it is a verification failure.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Protocol
from urllib.parse import quote, urlsplit

from pydantic import BaseModel, ConfigDict, ValidationError

from pipeline.errors import FetchError, HashMismatch, UsageError
from pipeline.fetch.discover import find_link
from pipeline.fetch.http import Fetcher
from pipeline.fetch.policy import utc_now
from pipeline.models import FetchResult, Source
from pipeline.store.blobs import BlobStore


class ManifestEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    game: str
    document: str
    version: str
    date: str | None = None
    format: str
    url: str | None = None
    bytes: int
    sha256: str
    path: str
    tier: str | None = None


def parse_manifest(data: bytes, where: str) -> list[ManifestEntry]:
    try:
        raw = json.loads(data)
        return [ManifestEntry.model_validate(item) for item in raw]
    except (ValueError, TypeError, ValidationError) as exc:
        raise UsageError(f"{where}: not a valid archive manifest: {exc}") from exc


def entries_for(source: Source, entries: list[ManifestEntry]) -> list[ManifestEntry]:
    """Every manifest entry that stands for this source, oldest first."""
    by_url = [e for e in entries if source.url and e.url == source.url and _fits(source, e)]
    if by_url:
        chosen = by_url
    elif source.manifest is not None:
        key = source.manifest
        chosen = [
            e
            for e in entries
            if (e.game, e.document, e.format) == (key.game, key.document, key.format)
        ]
    else:
        chosen = []
    if source.manifest is not None and source.manifest.path_pattern:
        pattern = re.compile(source.manifest.path_pattern)
        chosen = [e for e in chosen if pattern.search(e.path)]
    return sorted(chosen, key=lambda e: (e.date or "", e.version))


def _fits(source: Source, entry: ManifestEntry) -> bool:
    # A URL shared by a rules text and its vendoring notes must not pick the notes.
    return source.manifest is None or entry.document == source.manifest.document


class Backend(Protocol):
    def get(self, source: Source, previous: FetchResult | None) -> FetchResult | None:
        """The fetch record of the source's bytes (now in the blob store), or None if
        this backend does not carry the source."""


class LiveBackend:
    """The publishers' servers, through the Fetcher (conditional GET, redirect policy...)."""

    def __init__(self, fetcher: Fetcher, blobs: BlobStore) -> None:
        self.fetcher = fetcher
        self.blobs = blobs

    def resolve_url(self, source: Source) -> str:
        if source.url is not None:
            return source.url
        if source.discovery is None:
            raise UsageError(f"source {source.id} has neither a url nor a discovery rule")
        record, html = self.fetcher.fetch_page(
            f"{source.id}-page", source.discovery.page, allowed_hosts=source.allowed_hosts
        )
        return find_link(html, record.final_url, source.discovery.link_pattern, source=source.id)

    def get(self, source: Source, previous: FetchResult | None) -> FetchResult | None:
        if source.options.get("archive_only"):
            return None
        if source.rendition == "wiki":
            return self.get_wiki(source)
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
        sha256, size = self.blobs.add_bytes(bundle)
        return FetchResult(
            source=source.id,
            url=api,
            final_url=api,
            status=200,
            bytes=size,
            sha256=sha256,
            retrieved=utc_now(),
        )


class MirrorDirBackend:
    """A local folder laid out like ../shared/sources."""

    def __init__(self, root: Path, blobs: BlobStore) -> None:
        self.root = root
        self.blobs = blobs
        manifest = root / "manifest.json"
        if not manifest.exists():
            raise UsageError(f"mirror {root}: no manifest.json in it")
        self.entries = parse_manifest(manifest.read_bytes(), str(manifest))

    def get(self, source: Source, previous: FetchResult | None) -> FetchResult | None:
        matches = entries_for(source, self.entries)
        if not matches:
            return None
        return read_archive_file(source, matches[-1], self.root, self.blobs)


def read_archive_file(
    source: Source, entry: ManifestEntry, root: Path, blobs: BlobStore
) -> FetchResult:
    """A file of an archive folder into the blob store, checked against the manifest's hash.

    The fetch record names the publisher's URL where the manifest knows it, and the
    file itself (absolutely) as where the bytes really came from. The path must stay inside
    the folder and the file within the source's size limit, both checked before a byte is
    read: a manifest is input like any other."""
    path = confined_path(root, entry.path, source.id)
    try:
        size = path.stat().st_size
        if size > source.max_bytes:
            raise FetchError(
                source.id,
                str(path),
                f"the file has {size} bytes, over the source's limit of {source.max_bytes}",
                "if the document really grew, raise max_bytes for this source in the registry",
            )
        data = path.read_bytes()
    except OSError as exc:
        raise FetchError(
            source.id,
            str(path),
            f"listed in the manifest but unreadable ({exc.strerror})",
            "check the archive folder against its manifest.json",
        ) from exc
    sha256, size = blobs.add_bytes(data)
    if sha256 != entry.sha256:
        raise HashMismatch(
            str(path), entry.sha256, sha256, "checked against the archive's manifest.json"
        )
    return FetchResult(
        source=source.id,
        url=entry.url or source.url or path.resolve().as_uri(),
        final_url=path.resolve().as_uri(),
        status=200,
        bytes=size,
        sha256=sha256,
        retrieved=utc_now(),
    )


def confined_path(root: Path, relative: str, source: str) -> Path:
    """`root / relative`, refused unless it names a file inside `root`: no absolute path, no
    `..`, no symbolic link (anywhere on the way) that leads out of the folder."""
    parts = Path(relative).parts
    if Path(relative).is_absolute() or ".." in parts or not parts:
        raise FetchError(
            source,
            relative,
            "the manifest path is absolute or climbs out of the archive folder with '..'",
            "a manifest lists files inside its own folder; check manifest.json",
        )
    base = root.resolve()
    resolved = (root / relative).resolve()
    if not resolved.is_relative_to(base):
        raise FetchError(
            source,
            relative,
            f"the manifest path leads outside {base} (through a symbolic link)",
            "a manifest lists files inside its own folder; check manifest.json",
        )
    return resolved


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
        matches = entries_for(source, self.entries)
        if not matches:
            return None
        entry = matches[-1]
        url = self.base + quote(entry.path)
        usable = previous if previous is not None and previous.final_url == url else None
        record = self.fetcher.fetch(
            source.id,
            url,
            allowed_hosts=[self.host],
            expect=source.rendition,
            previous=usable,
            max_bytes=source.max_bytes,
        )
        if record.sha256 != entry.sha256:
            raise HashMismatch(url, entry.sha256, record.sha256, "the mirror's manifest.json")
        return record.model_copy(update={"url": entry.url or source.url or url, "final_url": url})


def open_backend(mirror: str | None, fetcher: Fetcher, blobs: BlobStore) -> Backend:
    if mirror is None:
        return LiveBackend(fetcher, blobs)
    if mirror.startswith(("http://", "https://")):
        return MirrorUrlBackend(mirror, fetcher, blobs)
    return MirrorDirBackend(Path(mirror), blobs)
