"""Durable file writes shared by the corpus and the blob store, and the one reader of the
files a user gives or an archive lists (`read_input`).

A write goes to a temporary file beside its target, is flushed and fsynced,
renamed into place, and the folder is fsynced so the rename itself survives a
power cut. Files get the mode the process umask allows (0644 by default), like
any other tool's output, not mkstemp's 0600. The operating system's refusals
(disk full, permissions) become StorageIOError naming the path (exit 74).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.errors import StorageIOError, UnreadableInput, shorten
from pipeline.store.layout import TEMP_PREFIX


def _umask() -> int:
    # os.umask can only be read by setting it; done once, before any thread writes.
    current = os.umask(0o022)
    os.umask(current)
    return current


FILE_MODE = 0o666 & ~_umask()

# Fault injection for the crash campaign (`make faults`) and its regression tests: with
# RULESCORPUS_CRASH_AT=N the process dies like `kill -9` (no cleanup, no finally blocks)
# just before its Nth durable step (a rename or an fsync). Never set in production.
_CRASH_AT = int(os.environ.get("RULESCORPUS_CRASH_AT", "0") or 0)
_steps = 0


def durable_step(label: str) -> None:
    """Count a rename or fsync; the fault-injection point of the crash campaign."""
    global _steps
    _steps += 1
    if _CRASH_AT and _steps >= _CRASH_AT:
        os._exit(137)


@contextmanager
def io_errors(path: Path) -> Iterator[None]:
    """Turn the operating system's refusal into the documented exit 74, naming the path."""
    try:
        yield
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        if exc.errno == errno.ENOSPC:
            reason = "no space left on the device"
        raise StorageIOError(str(path), reason) from exc


def fsync_dir(folder: Path) -> None:
    durable_step(f"fsync {folder}")
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=TEMP_PREFIX, suffix=path.suffix)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            durable_step(f"fsync {tmp}")
            os.fsync(handle.fileno())
        os.chmod(tmp, FILE_MODE)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_replacing(path: Path, data: bytes) -> None:
    """Atomically replace `path` with `data` (for the commit point and its copies)."""
    with io_errors(path):
        tmp = _write_temp(path, data)
        try:
            durable_step(f"rename {path}")
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        fsync_dir(path.parent)


def write_new(path: Path, data: bytes) -> None:
    """Write an immutable, digest-named file. Already there with these bytes: nothing to do.
    There with other bytes: the stored copy was damaged, and the right bytes replace it."""
    with io_errors(path):
        if path.exists() and path.read_bytes() == data:
            return
    write_replacing(path, data)


def remove_temporaries(root: Path) -> int:
    """Delete temporary files a killed run left anywhere under `root`; their count."""
    if not root.exists():
        return 0
    removed = 0
    for path in sorted(root.rglob(f"{TEMP_PREFIX}*")):
        if path.is_file():
            path.unlink(missing_ok=True)
            removed += 1
    return removed


# The reading caps by use. A document is capped by its source's max_bytes (the parse limit).
MANIFEST_BYTES = 16 * 1024 * 1024  # an archive's or a mirror's manifest.json
REGISTRY_BYTES = 4 * 1024 * 1024  # a registry (--sources FILE)
SIDE_FILE_BYTES = 16 * 1024 * 1024  # a small JSON file beside an output (export metadata)
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, as a message names it."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a folder" if stat.S_ISDIR(mode) else "a special file"


def read_input(path: Path, limit: int, *, what: str = "file") -> bytes:
    """The bytes of a regular file a user gave or an archive lists, at most `limit` of them.

    Opened without blocking (a FIFO's open would wait for a writer forever) and checked on
    the opened descriptor, not the name (a name can be swapped for a FIFO or a link to
    /dev/zero between a check and the open); refused before reading when over `limit`, and
    read no further than `limit` should the file grow meanwhile. Every refusal is
    UnreadableInput naming the file and what to do."""
    shown = shorten(str(path), 200)
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise UnreadableInput(shown, f"cannot open the {what} ({reason})") from exc
    except ValueError as exc:  # a NUL in the name
        raise UnreadableInput(shown, f"the {what}'s name holds a NUL character") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableInput(
                shown,
                f"the {what} is {file_kind(info.st_mode)}, not a regular file",
                "give a regular file",
            )
        if info.st_size > limit:
            raise UnreadableInput(
                shown, f"the {what} has {info.st_size} bytes, over the limit of {limit}"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            try:
                chunk = os.read(fd, min(1024 * 1024, limit + 1 - size))
            except BlockingIOError:  # a regular file never blocks; this is no place to wait
                raise UnreadableInput(shown, f"the {what} cannot be read without waiting") from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UnreadableInput(shown, f"the {what} grew past the limit of {limit} bytes")
        return b"".join(chunks)
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise UnreadableInput(shown, f"cannot read the {what} ({reason})") from exc
    finally:
        os.close(fd)
