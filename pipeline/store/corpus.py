"""The corpus on disk: canonical JSON, an index, the lock, all-or-nothing publishes.

Layout (documented for downstream tools in corpus/README.md):

    index.json                         documents, versions, current version, file digests
    lock.json                          pins: (document, rendition, version) -> sha256, bytes
    fetch/<source>.json                the last fetch record of each source
    <game>/<doc>/<version>.json        one Document per version
    <game>/<doc>/aliases/<version>.json  old citation id -> id in that version
    <game>/<doc>/diffs/<old>..<new>.json|.md|.html   the diff between two versions
    staged/<game>/<doc>/<version>.json a version waiting for `rulescorpus accept`

index.json is written last: a reader that trusts the index never sees half a
publish, and a run that fails before committing leaves every byte as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import filelock
from pydantic import BaseModel, Field, ValidationError

from pipeline.errors import LockHeld, NotFound, StoreError
from pipeline.models import Document, FetchResult, Lock, Model


def canonical_json(value: BaseModel | dict[str, Any] | list[Any]) -> bytes:
    """The one serialisation of the corpus: sorted keys, 2-space indent, UTF-8, final newline."""
    data = value.model_dump(mode="json", by_alias=True) if isinstance(value, BaseModel) else value
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode("utf-8")


def version_key(version: str) -> tuple[tuple[int, str], ...]:
    """Natural order for '2.10.1' < '2.14.0', '2025-06-02' < '2025-10-01', '1.4' < '22.12'."""
    return tuple(
        (int(part), "") if part.isdigit() else (-1, part)
        for part in re.findall(r"\d+|[^\d.\-]+", version)
    )


class VersionEntry(Model):
    version: str
    file: str
    sha256: str = Field(description="SHA-256 of the stored JSON file")
    status: Literal["published", "staged"] = "published"
    published: str | None = None
    effective: str | None = None
    records: int = 0
    glossary: int = 0
    rulings: int = 0
    warnings: int = 0
    sources: dict[str, str] = Field(
        default_factory=dict, description="rendition -> SHA-256 of the bytes it was parsed from"
    )
    aliases: str | None = None


class DiffEntry(Model):
    old: str
    new: str
    json_file: str = Field(alias="json")
    markdown: str
    html: str
    summary: dict[str, int] = Field(default_factory=dict)

    model_config = Model.model_config | {"populate_by_name": True}


class DocumentEntry(Model):
    title: str | None = None
    family: str
    current: str | None = None
    versions: list[VersionEntry] = Field(default_factory=list)
    diffs: list[DiffEntry] = Field(default_factory=list)

    def entry(self, version: str) -> VersionEntry | None:
        return next((v for v in self.versions if v.version == version), None)


class Index(Model):
    format: int = 1
    documents: dict[str, DocumentEntry] = Field(default_factory=dict)


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Corpus:
    """Read access to a corpus folder, and transactions that publish into it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    # ------------------------------------------------------------------ reading

    def _load(self, name: str, model: type[Model], default: Model) -> Any:
        path = self.root / name
        if not path.exists():
            return default
        try:
            return model.model_validate_json(path.read_bytes())
        except (ValidationError, ValueError) as exc:
            raise StoreError(
                f"{path} is not a valid {model.__name__}: {exc}; restore it from version "
                "control or a backup"
            ) from exc

    def index(self) -> Index:
        result: Index = self._load("index.json", Index, Index())
        return result

    def lock(self) -> Lock:
        """Pins for versions the index lists: a pin without its version is ignored."""
        lock: Lock = self._load("lock.json", Lock, Lock())
        index = self.index()
        pins = [
            p
            for p in lock.pins
            if (doc := index.documents.get(p.document)) is not None and doc.entry(p.version)
        ]
        return Lock(pins=pins)

    def fetch_record(self, source_id: str) -> FetchResult | None:
        path = self.root / "fetch" / f"{source_id}.json"
        if not path.exists():
            return None
        return FetchResult.model_validate_json(path.read_bytes())

    def document_entry(self, document: str) -> DocumentEntry:
        entry = self.index().documents.get(document)
        if entry is None:
            known = ", ".join(sorted(self.index().documents)) or "none yet"
            raise NotFound(f"document {document}", f"the corpus at {self.root} has: {known}")
        return entry

    def read_file(self, relative: str, expected_sha256: str | None = None) -> bytes:
        path = self.root / relative
        if not path.exists():
            raise StoreError(f"{path} is listed in index.json but missing; re-run update")
        data = path.read_bytes()
        if expected_sha256 is not None:
            got = hashlib.sha256(data).hexdigest()
            if got != expected_sha256:
                raise StoreError(
                    f"{path} changed since it was stored: index.json says {expected_sha256}, "
                    f"the file hashes to {got}"
                )
        return data

    def load_document(self, document: str, version: str | None = None) -> Document:
        entry = self.document_entry(document)
        version = version or entry.current
        item = entry.entry(version) if version else None
        if item is None:
            known = ", ".join(v.version for v in entry.versions)
            raise NotFound(f"version {version} of {document}", f"stored versions: {known}")
        return Document.model_validate_json(self.read_file(item.file, item.sha256))

    def load_aliases(self, document: str, version: str) -> dict[str, str]:
        item = self.document_entry(document).entry(version)
        if item is None or item.aliases is None:
            return {}
        data: dict[str, str] = json.loads(self.read_file(item.aliases))
        return data

    # ------------------------------------------------------------------ writing

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Exclusive lock for the whole run; a second run exits 75 at once."""
        self.root.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.root / ".lock"), timeout=0)
        try:
            lock.acquire()
        except filelock.Timeout as exc:
            raise LockHeld(str(self.root / ".lock")) from exc
        try:
            yield
        finally:
            lock.release()

    def transaction(self) -> Transaction:
        return Transaction(self)


def document_dir(document: str) -> str:
    return document.strip("/")


class Transaction:
    """Collects every write of a publish; commit() writes them, index.json last."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.index = corpus.index()
        raw_lock: Lock = corpus._load("lock.json", Lock, Lock())
        self.lock = raw_lock
        self.files: dict[str, bytes] = {}
        self.removals: set[str] = set()

    def put(self, relative: str, data: bytes) -> str:
        self.files[relative] = data
        return hashlib.sha256(data).hexdigest()

    def remove(self, relative: str) -> None:
        """Delete a file once the new index no longer points at it (after the index write)."""
        self.removals.add(relative)

    def put_fetch_record(self, record: FetchResult) -> None:
        self.put(f"fetch/{record.source}.json", canonical_json(record))

    @property
    def dirty(self) -> bool:
        return bool(self.files or self.removals) or self.index != self.corpus.index()

    def commit(self) -> None:
        if not self.dirty:
            return
        for relative in sorted(self.files):
            _atomic_write(self.corpus.root / relative, self.files[relative])
        _atomic_write(self.corpus.root / "lock.json", canonical_json(self.lock))
        _atomic_write(self.corpus.root / "index.json", canonical_json(self.index))
        for relative in sorted(self.removals - set(self.files)):
            (self.corpus.root / relative).unlink(missing_ok=True)
