"""Archive folders and their manifest: which entries stand for a source, read safely.

An archive folder (a mirror, a backup, a folder of past releases) holds files and a
`manifest.json` listing each one (game, document, version, date, format, url,
bytes, sha256, path). A manifest is input like any other: every path must stay
inside the folder and every file within its source's size limit, both checked
before a byte is read, and every file must match the manifest's SHA-256.
A multi-page HTML site (`options.site` in the registry) is read as one bundle of
all its pages of one version.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pipeline.errors import FetchError, HashMismatch, UnreadableInput, UsageError, VerificationError
from pipeline.fetch.sites import store_bytes, store_site_bundle
from pipeline.models.sources import FetchResult, Source
from pipeline.registry.patterns import use_budget
from pipeline.store.blobs import BlobStore
from pipeline.store.files import MANIFEST_BYTES, read_input


class ManifestEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    game: str
    document: str
    version: str
    date: str | None = None
    format: str
    url: str | None = None
    bytes: int = Field(ge=0)
    sha256: str
    path: str = Field(min_length=1)
    tier: str | None = None

    @field_validator("path")
    @classmethod
    def _no_control(cls, path: str) -> str:
        # A NUL cannot name a file; other control characters are no part of an archive's
        # own file names either.
        if any(ord(c) < 32 or ord(c) == 127 for c in path):
            raise ValueError("a file path holds a control character")
        return path


def parse_manifest(data: bytes, where: str) -> list[ManifestEntry]:
    try:
        raw = json.loads(data)
    except ValueError as exc:
        raise UsageError(f"{where}: not a valid archive manifest: not JSON ({exc})") from exc
    if not isinstance(raw, list):
        raise UsageError(
            f"{where}: not a valid archive manifest: it is a JSON {_json_kind(raw)}, "
            "not a list of entries; an archive's manifest.json is a list with one object per file"
        )
    entries = []
    for n, item in enumerate(raw, 1):
        try:
            entries.append(ManifestEntry.model_validate(item))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'entry'}: {e['msg']}" for e in exc.errors()
            )
            raise UsageError(
                f"{where}: not a valid archive manifest: entry {n}: {problems}"
            ) from exc
    return entries


def _json_kind(value: object) -> str:
    kinds = {dict: "object", str: "string", bool: "boolean", int: "number", float: "number"}
    return kinds.get(type(value), "null")


def read_manifest(folder: Path, what: str = "archive") -> list[ManifestEntry]:
    """The entries of `folder`/manifest.json, read by the one reader of input files."""
    manifest = folder / "manifest.json"
    if not manifest.exists() and not manifest.is_symlink():
        raise UsageError(
            f"{what} {folder}: no manifest.json; an archive folder lists its files there"
        )
    return parse_manifest(read_input(manifest, MANIFEST_BYTES, what="manifest"), str(manifest))


def entries_for(source: Source, entries: list[ManifestEntry]) -> list[ManifestEntry]:
    """Every manifest entry that stands for this source, oldest first."""
    # A site's pages each have their own URL: only its manifest key finds them all.
    by_url = [
        e
        for e in entries
        if source.url
        and e.url == source.url
        and _fits(source, e)
        and not source.options.get("site")
    ]
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
        with use_budget(source.id, "manifest.path_pattern", pattern.pattern):
            chosen = [e for e in chosen if pattern.search(e.path)]
    return sorted(chosen, key=lambda e: (e.date or "", e.version))


def _fits(source: Source, entry: ManifestEntry) -> bool:
    # A URL shared by a rules text and its vendoring notes must not pick the notes.
    return source.manifest is None or entry.document == source.manifest.document


def manifest_version(source: Source, entry: ManifestEntry) -> str:
    """The document version a manifest entry is, as the registry maps it (default: as is)."""
    if source.manifest is None:
        return entry.version
    return source.manifest.version_map.get(entry.version, entry.version)


def versions_of(source: Source, entries: list[ManifestEntry]) -> list[list[ManifestEntry]]:
    """The source's entries grouped by version, oldest first: one file per version, or for a
    site every page of that version."""
    grouped: dict[str, list[ManifestEntry]] = {}
    for entry in entries_for(source, entries):
        key = manifest_version(source, entry)
        if source.options.get("site"):
            grouped.setdefault(key, []).append(entry)
        else:
            grouped.setdefault(f"{key}\0{entry.path}", [entry])
    return list(grouped.values())


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


def read_archive_files(
    source: Source, entries: list[ManifestEntry], root: Path, blobs: BlobStore
) -> FetchResult:
    """One version of the source from an archive folder: its one file, or a site's pages
    bundled into one blob (see `options.site`)."""
    if source.options.get("site"):
        return read_site_pages(source, entries, root, blobs)
    [entry] = entries
    return read_archive_file(source, entry, root, blobs)


def read_archive_file(
    source: Source, entry: ManifestEntry, root: Path, blobs: BlobStore
) -> FetchResult:
    """A file of an archive folder into the blob store, checked against the manifest's hash.

    The fetch record names the publisher's URL where the manifest knows it, and the
    file itself (absolutely) as where the bytes really came from."""
    data = read_checked(source, entry, root)
    uri = confined_path(root, entry.path, source.id).as_uri()
    return store_bytes(
        blobs, data, source=source.id, url=entry.url or source.url or uri, final_url=uri
    )


def read_checked(source: Source, entry: ManifestEntry, root: Path) -> bytes:
    """An archive file's bytes: confined, within the size limit, matching the manifest."""
    path = confined_path(root, entry.path, source.id)
    try:
        data = read_input(path, source.max_bytes, what="archive file")
    except UnreadableInput as exc:
        hint = "check the archive folder against its manifest.json"
        if "over the limit" in exc.problem:
            hint = "if the document really grew, raise max_bytes for this source in the registry"
        raise FetchError(
            source.id, exc.path, f"listed in the manifest, but {exc.problem}", hint
        ) from exc
    got = hashlib.sha256(data).hexdigest()
    if got != entry.sha256:
        raise HashMismatch(
            str(path), entry.sha256, got, "checked against the archive's manifest.json"
        )
    check_size(str(path), entry, len(data))
    return data


def check_size(what: str, entry: ManifestEntry, size: int) -> None:
    """The manifest's `bytes` is checked like its SHA-256: a manifest that misstates a
    file's size does not describe that file (exit 20)."""
    if size != entry.bytes:
        raise VerificationError(
            what,
            [
                f"the manifest says {entry.bytes} bytes, the file has {size}; the "
                "manifest.json does not describe this file: check it against the archive"
            ],
        )


def read_site_pages(
    source: Source, entries: list[ManifestEntry], root: Path, blobs: BlobStore
) -> FetchResult:
    """Every page of one version of a site, each checked, bundled as the live fetch does."""
    pages = {str(e.url or e.path): read_checked(source, e, root) for e in entries}
    return store_site_bundle(
        source,
        source.url or "",
        pages,
        blobs,
        final_url=(root / "manifest.json").resolve().as_uri(),
        what=f"{source.id} ({root})",
    )
