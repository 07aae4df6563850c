"""Files inside one folder, and never outside it: every path is opened one folder at a time
from the folder's own descriptor, refusing links (`O_NOFOLLOW`), so a link planted at any
depth (a sub-folder that is a link out of the folder, a link where a page or a temporary
file goes) is never followed, even if it appears while the site is being written.

A file is replaced by writing a temporary file created exclusively under a random name in
its own folder, then renaming it over the file: a reader sees the old bytes or the new.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from pipeline.errors import StorageIOError, UsageError, shorten
from pipeline.store.temp_files import DIR_FLAGS, TempFile

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
TEMP_SUFFIX = ".rulescorpus-site"
SITE_ADVICE = "the site folder keeps its previous pages. Free space or fix its permissions"


def name_problem(name: object) -> str | None:
    """Why `name` cannot be a file of the folder (a relative path inside it), or None."""
    if not isinstance(name, str) or not name:
        return "is not a file name"
    if "\0" in name:
        return "holds a NUL character"
    path = PurePosixPath(name)
    if path.is_absolute():
        return "is an absolute path"
    if ".." in path.parts:
        return "climbs out of the folder with `..`"
    if str(path) != name or "." in path.parts:
        return "is not a plain relative path"
    return None


class Confined:
    """The folder at `root` (created if absent), written and read only inside itself."""

    def __init__(self, root: Path) -> None:
        self.root = root
        try:
            root.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            raise self.failed(root, exc) from exc

    def close(self) -> None:
        os.close(self.fd)

    def failed(self, path: Path | str, exc: OSError) -> StorageIOError:
        shown = shorten(str(path), 200)
        if exc.errno == errno.EEXIST:
            problem = "something that is not a folder is in the way"
        else:
            problem = exc.strerror or str(exc)
        return StorageIOError(shown, problem, SITE_ADVICE)

    @contextmanager
    def folder_of(self, name: str, *, create: bool) -> Iterator[tuple[int, str] | None]:
        """(descriptor of the folder holding `name`, its last part); None when a folder on
        the way is absent and `create` is False. A link on the way is refused."""
        parts = PurePosixPath(name).parts
        fd = os.dup(self.fd)
        try:
            for at, part in enumerate(parts[:-1]):
                # _enter closes the descriptor it is given, whatever happens
                current, fd = fd, -1
                fd = self._enter(current, part, "/".join(parts[: at + 1]), create=create)
                if fd < 0:
                    yield None
                    return
            yield fd, parts[-1]
        finally:
            if fd >= 0:
                os.close(fd)

    def _enter(self, fd: int, part: str, shown: str, *, create: bool) -> int:
        """The descriptor of sub-folder `part` of `fd` (closing `fd`), or -1 if absent."""
        try:
            try:
                return os.open(part, DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    return -1
                # made meanwhile by someone else: opened below like any folder
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, dir_fd=fd)
                return os.open(part, DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(fd, part):
                    raise UsageError(
                        f"{shorten(str(self.root / shown), 200)} is a symbolic link; the site "
                        "never writes through links. Remove the link (or choose another "
                        "folder) and build again"
                    ) from exc
                raise self.failed(self.root / shown, exc) from exc
        finally:
            os.close(fd)

    def read(self, name: str, limit: int) -> bytes | None:
        """The bytes of regular file `name` (not through a link, never blocking on a FIFO)
        when it holds at most `limit` bytes; None otherwise."""
        with self.folder_of(name, create=False) as found:
            if found is None:
                return None
            fd, leaf = found
            try:
                handle = os.open(leaf, _READ_FLAGS, dir_fd=fd)
            except OSError:
                return None
            try:
                info = os.fstat(handle)
                if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                    return None
                with os.fdopen(handle, "rb", closefd=False) as reader:
                    data = reader.read(limit + 1)
                return data if len(data) <= limit else None
            except OSError:
                return None
            finally:
                os.close(handle)

    def same_bytes(self, name: str, data: bytes) -> bool:
        """Whether `name` is a regular file (not a link) holding exactly `data`."""
        return self.size(name) == len(data) and self.read(name, len(data)) == data

    def size(self, name: str) -> int | None:
        """The size of regular file `name` (not through a link), or None."""
        with self.folder_of(name, create=False) as found:
            if found is None:
                return None
            fd, leaf = found
            try:
                info = os.stat(leaf, dir_fd=fd, follow_symlinks=False)
            except OSError:
                return None
            return info.st_size if stat.S_ISREG(info.st_mode) else None

    def replace(self, name: str, data: bytes) -> None:
        """Write `name` whole: a new temporary file renamed over it (a link at `name` is
        replaced, never written through)."""
        with self.folder_of(name, create=True) as found:
            assert found is not None
            fd, leaf = found
            try:
                with TempFile(fd, leaf, TEMP_SUFFIX, 0o666) as temp:
                    temp.write(data)
                    temp.replace()
            except OSError as exc:
                raise self.failed(self.root / name, exc) from exc

    def remove(self, name: str) -> None:
        """Remove file `name` if it is there (a link is removed, not followed), then the
        folders it leaves empty, up to the root."""
        parts = PurePosixPath(name).parts
        with self.folder_of(name, create=False) as found:
            if found is None:
                return
            fd, leaf = found
            try:
                os.unlink(leaf, dir_fd=fd)
            except FileNotFoundError:
                pass
            except IsADirectoryError:
                return  # a folder where a page was: someone else's, left alone
            except OSError as exc:
                raise self.failed(self.root / name, exc) from exc
        for depth in range(len(parts) - 1, 0, -1):
            folder = "/".join(parts[:depth])
            with self.folder_of(folder, create=False) as parent:
                if parent is None:
                    continue
                try:
                    os.rmdir(parent[1], dir_fd=parent[0])
                except OSError:
                    return  # not empty (or not a folder): so are the ones above it


def _is_link(fd: int, part: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode)
    except OSError:
        return False
