"""Content-addressed byte store: every downloaded file is kept under its SHA-256.

Layout: ``root/sha256/ab/cdef…`` (the first two hex digits name the folder, the
other 62 the file) and ``root/tmp/`` for writes in progress. A blob is written to
``tmp/`` while it is hashed and only then renamed into place, so a blob path
either holds complete bytes or does not exist. Reads re-hash, so a blob altered
on disk is caught rather than parsed.

The hashing core works on iterables of chunks (the shape of pip's
``utils/hashes.py``), the file wrappers are thin.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import filelock

from pipeline.errors import HashMismatch, LockHeld, NotFound
from pipeline.store.files import (
    FILE_MODE,
    durable_step,
    fsync_dir,
    io_errors,
    remove_temporaries,
)
from pipeline.store.layout import TEMP_PREFIX

CHUNK_SIZE = 1 << 16
_SHA256_RE = re.compile(r"[0-9a-f]{64}")


# --------------------------------------------------------------------------- pure core


def digest_chunks(chunks: Iterable[bytes]) -> tuple[str, int]:
    """SHA-256 hex digest and total length of the concatenated chunks."""
    hasher = hashlib.sha256()
    size = 0
    for chunk in chunks:
        hasher.update(chunk)
        size += len(chunk)
    return hasher.hexdigest(), size


def check_against_chunks(chunks: Iterable[bytes], expected: str, *, what: str) -> int:
    """Hash the chunks; return their length, or raise HashMismatch naming `what`."""
    got, size = digest_chunks(chunks)
    if got != expected:
        raise HashMismatch(
            what,
            expected,
            got,
            "the stored file was altered or corrupted; delete it and fetch the source again",
        )
    return size


def is_sha256(value: str) -> bool:
    """True for a lowercase 64-hex-digit SHA-256 (the only names the store accepts)."""
    return _SHA256_RE.fullmatch(value) is not None


def iter_file(path: Path, chunk_size: int = CHUNK_SIZE) -> Iterator[bytes]:
    """Yield a file's bytes in chunks, so large blobs are never held whole to hash them."""
    with path.open("rb") as handle:
        while chunk := handle.read(chunk_size):
            yield chunk


# --------------------------------------------------------------------------- store


class BlobStore:
    """Bytes addressed by their SHA-256 under `root`."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.objects = self.root / "sha256"
        self.tmp = self.root / "tmp"
        # Created up front so a failed write never leaves a new folder behind.
        with io_errors(self.root):
            self.objects.mkdir(parents=True, exist_ok=True)
            self.tmp.mkdir(parents=True, exist_ok=True)

    def path_for(self, sha256: str) -> Path:
        """Where the blob with this digest lives (whether or not it exists)."""
        if not is_sha256(sha256):
            # A digest becomes a path: refuse anything that could climb out of the store.
            raise ValueError(f"not a lowercase SHA-256 hex digest: {sha256!r}")
        return self.objects / sha256[:2] / sha256[2:]

    def has(self, sha256: str) -> bool:
        return self.path_for(sha256).is_file()

    def add_bytes(self, data: bytes) -> tuple[str, int]:
        """Store bytes already in memory; return (sha256, size)."""
        return self.write_stream((data,))

    def write_stream(self, chunks: Iterable[bytes]) -> tuple[str, int]:
        """Hash chunks while writing them to a temp file, then rename it into place.

        Any exception raised while the chunks are produced (a size cap, a dropped
        connection, a failed sniff) removes the temp file and stores nothing.
        """
        hasher = hashlib.sha256()
        size = 0
        with io_errors(self.tmp):
            fd, tmp_name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".part", dir=self.tmp)
        tmp_path = Path(tmp_name)
        try:
            # Only the writes are the disk's errors (exit 74); a failing chunk source (a
            # dropped connection, a size cap) raises its own error unchanged.
            with os.fdopen(fd, "wb") as handle:
                for chunk in chunks:
                    hasher.update(chunk)
                    size += len(chunk)
                    with io_errors(tmp_path):
                        handle.write(chunk)
                with io_errors(tmp_path):
                    handle.flush()
                    durable_step(f"fsync {tmp_path}")
                    os.fsync(handle.fileno())
            sha256 = hasher.hexdigest()
            target = self.path_for(sha256)
            with io_errors(target):
                os.chmod(tmp_path, FILE_MODE)
                target.parent.mkdir(parents=True, exist_ok=True)
                # Replacing an existing blob rewrites identical bytes, and heals an altered one.
                durable_step(f"rename {target}")
                os.replace(tmp_path, target)
                fsync_dir(target.parent)
        except BaseException:
            tmp_path.unlink(missing_ok=True)
            raise
        return sha256, size

    @contextmanager
    def locked(self) -> Iterator[int]:
        """Exclusive use of the cache for a run (exit 75 if another run has it); yields the
        number of temporary files a killed run had left, which it removes."""
        lock = filelock.FileLock(str(self.root / ".lock"), timeout=0)
        try:
            lock.acquire()
        except filelock.Timeout as exc:
            raise LockHeld(str(self.root / ".lock")) from exc
        try:
            yield self.remove_temporaries()
        finally:
            lock.release()

    def remove_temporaries(self) -> int:
        """Delete what a killed run left half-written anywhere in the cache: partial
        downloads in tmp/, and the temporary files of durable writes beside their targets
        (the parsed Documents kept under the cache). Call under the run lock."""
        return remove_temporaries(self.root)

    def check(self, sha256: str) -> int:
        """Re-hash a stored blob without loading it whole; return its size."""
        path = self._existing(sha256)
        return check_against_chunks(iter_file(path), sha256, what=str(path))

    def read(self, sha256: str) -> bytes:
        """The blob's bytes, re-hashed: HashMismatch if altered, NotFound if absent."""
        path = self._existing(sha256)
        data = path.read_bytes()
        check_against_chunks((data,), sha256, what=str(path))
        return data

    def _existing(self, sha256: str) -> Path:
        path = self.path_for(sha256)
        if not path.is_file():
            raise NotFound(f"blob {sha256} in {self.root}", "fetch the source again to store it")
        return path
