"""The corpus on disk: canonical JSON, an index, all-or-nothing commits, the run lock.

Paths come from `store.layout` (the one module that knows them). Every file but
the index is immutable and named by its own digest; `index.json` is the commit
point, written last with write-temp, fsync, rename, fsync of the folder. A run
that dies at any instant leaves either the old index (its new files are
unreferenced leftovers) or the new one (its superseded files are); `recover`,
run at the start of every locked command, removes both kinds and says which
state it found.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import filelock
from pydantic import ValidationError

from pipeline.errors import LockHeld, StoreError
from pipeline.models.index import INDEX_FORMAT, DocumentEntry, Index, VersionEntry
from pipeline.models.records import Document
from pipeline.models.sources import FetchResult, Lock
from pipeline.store import layout
from pipeline.store.canonical import canonical_json
from pipeline.store.files import remove_temporaries, write_new, write_replacing
from pipeline.store.reader import StoredCorpus, read_checked, read_index


def load_document(reader: StoredCorpus, document: str, version: str | None = None) -> Document:
    """One stored version (default: the current one) as the pydantic Document, from bytes
    checked against its digest."""
    item = reader.item(document, version)
    return Document.model_validate_json(reader.read(item["file"], item["sha256"]))


def index_model(reader: StoredCorpus) -> Index:
    """The index a reader read, as the model: a transaction's to change, a read command's
    to trust. One that is not one is a StoreError naming the file."""
    try:
        return Index.model_validate(reader.index)
    except ValidationError as exc:
        raise StoreError(
            f"{reader.root / layout.INDEX} is not a valid index: {exc}; restore it from a "
            "backup or re-import"
        ) from exc


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def referenced_files(index: Index) -> set[str]:
    """Every file the index names: what the corpus is."""
    names = set(index.fetch.values())
    for entry in index.documents.values():
        for item in entry.versions:
            names.add(item.file)
            names.update(n for n in (item.aliases, item.provenance, item.ids) if n)
        for diff in entry.diffs:
            names.update((diff.json_file, diff.markdown, diff.html))
            names.update(n for n in (diff.renumbering,) if n)
    return names


@dataclass(frozen=True)
class Recovery:
    """What `recover` found: the leftovers of an interrupted or superseded commit."""

    temporaries: int = 0
    unreferenced: int = 0
    lock_refreshed: bool = False

    @property
    def message(self) -> str:
        if not (self.temporaries or self.unreferenced or self.lock_refreshed):
            return ""
        state = (
            "the last commit completed (lock.json refreshed from index.json)"
            if self.lock_refreshed
            else "the corpus is the state index.json names"
        )
        return (
            f"recovered from an interrupted run: removed {self.temporaries} temporary and "
            f"{self.unreferenced} unreferenced files; {state}"
        )


class Corpus:
    """A corpus folder read through the one reader (`store.reader`), and transactions that
    commit into it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    # ------------------------------------------------------------------ reading

    def reader(self) -> StoredCorpus:
        """The folder as index.json names it now (a folder without one is an empty corpus)."""
        return StoredCorpus(self.root, index=read_index(self.root, INDEX_FORMAT) or {})

    def index(self) -> Index:
        """The index as a model, to change in a transaction."""
        return index_model(self.reader())

    def lock(self) -> Lock:
        return Lock(pins=list(self.index().pins))

    def fetch_record(self, source_id: str) -> FetchResult | None:
        name = self.index().fetch.get(source_id)
        if name is None:
            return None
        return FetchResult.model_validate_json(self.read_file(name))

    def document_entry(self, document: str) -> DocumentEntry:
        return DocumentEntry.model_validate(self.reader().entry(document))

    def read_file(self, relative: str, expected_sha256: str | None = None) -> bytes:
        """A file the index names, checked against its digests."""
        return read_checked(self.root, relative, expected_sha256)

    def version_entry(self, document: str, version: str | None = None) -> VersionEntry:
        return VersionEntry.model_validate(self.reader().item(document, version))

    def load_document(self, document: str, version: str | None = None) -> Document:
        return load_document(self.reader(), document, version)

    def load_aliases(self, document: str, version: str) -> dict[str, str]:
        return self.reader().aliases(document, version)

    # ------------------------------------------------------------------ writing

    @contextmanager
    def locked(self) -> Iterator[Recovery]:
        """Exclusive lock for the whole run (a second run exits 75 at once); recovers first."""
        self.root.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.root / layout.RUN_LOCK), timeout=0)
        try:
            lock.acquire()
        except filelock.Timeout as exc:
            raise LockHeld(str(self.root / layout.RUN_LOCK)) from exc
        try:
            yield self.recover()
        finally:
            lock.release()

    def recover(self) -> Recovery:
        """Remove what an interrupted commit left and bring lock.json in line with the index.

        Only temporary files and digest-named files the index does not name are removed;
        anything else a person put in the folder is left alone."""
        index_path, lock_path = self.root / layout.INDEX, self.root / layout.LOCK
        if not index_path.exists() and lock_path.exists():
            # lock.json is written after the first commit's index.json: without the index
            # every stored file would look unreferenced and be removed. Refuse instead.
            raise StoreError(
                f"{index_path} is missing, but {lock_path} shows a commit was made: the "
                "corpus has lost its commit point and nothing was removed. Restore "
                "index.json from a backup, or move the folder away to start a new corpus"
            )
        temporaries = remove_temporaries(self.root)
        index = self.index()
        keep = referenced_files(index)
        unreferenced = 0
        for path in sorted(self.root.rglob("*")):
            relative = path.relative_to(self.root).as_posix()
            if path.is_file() and layout.is_managed(relative) and relative not in keep:
                path.unlink()
                unreferenced += 1
        lock_bytes = canonical_json(Lock(pins=index.pins))
        refreshed = False
        if index.documents and (not lock_path.exists() or lock_path.read_bytes() != lock_bytes):
            write_replacing(lock_path, lock_bytes)
            refreshed = True
        return Recovery(temporaries, unreferenced, refreshed)

    def transaction(self) -> Transaction:
        return Transaction(self)


def _holds(path: Path, data: bytes) -> bool:
    """Whether `path` already holds exactly `data` (the commit point was passed)."""
    try:
        return path.read_bytes() == data
    except OSError:
        return False


class Transaction:
    """Collects every write of a commit; `commit()` writes them, then the index, last."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.before = corpus.index()
        self.index = self.before.model_copy(deep=True)
        self.files: dict[str, bytes] = {}

    @property
    def lock(self) -> Lock:
        return Lock(pins=list(self.index.pins))

    @lock.setter
    def lock(self, value: Lock) -> None:
        self.index.pins = list(value.pins)

    def put(self, name_for: Any, data: bytes) -> tuple[str, str]:
        """Add a file named by `name_for(digest)`; returns (relative path, digest)."""
        digest = sha256_hex(data)
        relative: str = name_for(digest)
        self.files[relative] = data
        return relative, digest

    def put_fetch_record(self, record: FetchResult) -> None:
        relative, _ = self.put(
            lambda d: layout.fetch_file(record.source, d), canonical_json(record)
        )
        self.index.fetch[record.source] = relative

    def reader(self) -> StoredCorpus:
        """The corpus as this transaction will leave it: its index, and its files before
        the stored ones."""
        index = self.index.model_dump(mode="json", by_alias=True)
        return StoredCorpus(self.corpus.root, index=index, pending=self.files)

    @property
    def dirty(self) -> bool:
        return self.index != self.before

    def commit(self) -> None:
        """Write new files, prove everything the new index names is there, then the index."""
        if not self.dirty:
            return
        root = self.corpus.root
        keep = referenced_files(self.index)
        index_bytes = canonical_json(self.index)
        created = [r for r in sorted(keep & set(self.files)) if not (root / r).exists()]
        try:
            for relative in sorted(keep & set(self.files)):
                write_new(root / relative, self.files[relative])
            for relative in sorted(keep):
                self._check_present(relative)
            write_replacing(root / layout.INDEX, index_bytes)
        except Exception:
            # Refused before the commit point (disk full, permissions): nothing names the
            # files this commit created, so the folder is left as it was found.
            if not _holds(root / layout.INDEX, index_bytes):
                for relative in created:
                    with contextlib.suppress(OSError):
                        (root / relative).unlink(missing_ok=True)
            raise
        # After the commit point: the derived copy and the superseded files. A kill here
        # leaves a state `recover` completes.
        write_replacing(root / layout.LOCK, canonical_json(self.lock))
        for relative in sorted(referenced_files(self.before) - keep):
            if layout.is_managed(relative):
                (root / relative).unlink(missing_ok=True)

    def _check_present(self, relative: str) -> None:
        path = self.corpus.root / relative
        expected = self.files.get(relative)
        if expected is not None:
            if path.read_bytes() != expected:
                raise StoreError(f"{path} does not hold what was just written; check the disk")
        elif not path.exists():
            raise StoreError(
                f"{path} is named by index.json but missing; run `rulescorpus verify` and "
                "re-import the document"
            )
