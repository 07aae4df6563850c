"""Temporary files beside the file they replace (a site's pages, cite-check's fixes, the
SQLite export): created exclusively and never through a link (`O_EXCL | O_NOFOLLOW`),
relative to the descriptor of their folder, under a random name carrying the process id,
and renamed over their file only while that name still holds the file created. A link
planted at any name, or put in the temporary file's place meanwhile, is never followed
nor renamed into place. A kill leaves one behind; a later run removes it once that
process is gone, and nothing else may.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

_NEW_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class TempFile:
    """A new empty file in the folder open as `folder`, to replace `name` there; removed on
    leaving its `with` block unless `replace` renamed it over `name`."""

    def __init__(self, folder: int, name: str, suffix: str, mode: int = 0o600) -> None:
        self.folder, self.name = folder, name
        self.temp = f".{name[:100]}.{os.getpid()}.{secrets.token_hex(8)}{suffix}"
        self.fd = os.open(self.temp, _NEW_FLAGS, mode, dir_fd=folder)

    def __enter__(self) -> TempFile:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)
        with contextlib.suppress(OSError):
            os.unlink(self.temp, dir_fd=self.folder)

    def write(self, data: bytes) -> None:
        with os.fdopen(self.fd, "wb", closefd=False) as writer:
            writer.write(data)

    def replace(self) -> None:
        """Rename the file over `name`, unless its name now holds something else (a link
        put there meanwhile), which is never renamed into place."""
        made = os.fstat(self.fd)
        now = os.stat(self.temp, dir_fd=self.folder, follow_symlinks=False)
        if (made.st_dev, made.st_ino) != (now.st_dev, now.st_ino):
            raise OSError(errno.EBUSY, "its temporary file was replaced by another meanwhile")
        os.replace(self.temp, self.name, src_dir_fd=self.folder, dst_dir_fd=self.folder)


@contextlib.contextmanager
def temp_beside(target: Path, suffix: str) -> Iterator[TempFile]:
    """A TempFile for `target` in its folder (opened without following a link), once the
    temporary files of earlier runs for `target` whose process is gone are removed."""
    folder = os.open(target.parent, DIR_FLAGS)
    try:
        remove_stale(folder, target.name, suffix)
        with TempFile(folder, target.name, suffix) as temp:
            yield temp
    finally:
        os.close(folder)


def remove_stale(folder: int, name: str, suffix: str) -> None:
    """Remove the regular files of `folder` named as temporary files for `name` by a
    process that is gone (a link or a folder of such a name is left alone)."""
    pattern = re.compile(rf"^\.{re.escape(name[:100])}\.(\d+)\.\w+{re.escape(suffix)}$")
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError:
        return
    for entry in entries:
        match = pattern.match(entry.name)
        if match and not _alive(int(match.group(1))) and entry.is_file(follow_symlinks=False):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.name, dir_fd=folder)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
