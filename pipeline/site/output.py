"""The site's folder: refused unless it is empty or a site this command made, each file
rewritten only when its bytes changed (a host or a sync tool sees only real changes), and
files of the previous build that this one no longer makes removed.

A site this command made holds MARKER: every file it wrote, with the SHA-256 of the bytes
it wrote there. A file whose digest and size match what a rebuild would write is left
alone without being read again. The marker is trusted only when every file it lists is a
plain relative path inside the folder: a marker listing `../x`, `/etc/x` or anything else
is foreign (a cloned folder, a hand-made file), and the build refuses it, removing nothing.

Every file is written inside the folder only (`site.confined`), and one build at a time
writes into a folder: a second one meanwhile exits 75 (LOCK).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import EXIT_LOCKED, RulesCorpusError, UsageError, shorten
from pipeline.site.confined import TEMP_SUFFIX, Confined, name_problem

MARKER = ".rulescorpus-site.json"
LOCK = ".rulescorpus-site.lock"
_MARKER_BYTES = 256 * 1024 * 1024
_OWN = (MARKER, LOCK)
LEFTOVER = re.compile(rf"^\..+\.[0-9a-f]{{16}}{re.escape(TEMP_SUFFIX)}$")


class SiteBusy(RulesCorpusError):
    """Another build is writing into the same folder (exit 75)."""

    exit_code = EXIT_LOCKED

    def __init__(self, root: str) -> None:
        self.root = root
        super().__init__(
            f"site folder {root}: another `rulescorpus site` build is writing into it (it "
            f"holds {LOCK}); run this one again when that build has finished"
        )


def _shown(path: Path) -> str:
    return shorten(str(path), 200)


def check_place(root: Path, guarded: Sequence[tuple[Path, str]]) -> None:
    """OUT is a folder (or nothing yet), not a link to nothing, and neither inside nor
    around a folder the site must never write into (the corpus, the cache)."""
    if root.is_symlink() and not root.exists():
        raise UsageError(
            f"site folder {_shown(root)} is a symbolic link to nothing "
            f"({_shown(Path(os.readlink(root)))}); give a folder, or create the folder it "
            "names first"
        )
    if root.exists() and not root.is_dir():
        raise UsageError(f"site folder {_shown(root)} is a file; give a folder")
    real = root.resolve()
    for folder, what in guarded:
        other = folder.resolve()
        if real == other or other in real.parents or real in other.parents:
            raise UsageError(
                f"site folder {_shown(root)} is inside or around {what} ({_shown(folder)}); "
                f"the site never writes there. Choose a folder outside {what}"
            )


def read_marker(listing: bytes | None, root: Path) -> dict[str, str]:
    """The files a previous build listed; refuses a marker this command did not write."""
    problem = "cannot be read as a regular file"
    if listing is not None:
        try:
            files = json.loads(listing)["files"]
            problem = "does not hold a list of files"
            if isinstance(files, dict):
                for name, digest in files.items():
                    wrong = name_problem(name)
                    if wrong is None and (name in _OWN or not isinstance(digest, str)):
                        wrong = "is not a page"
                    if wrong is not None:
                        problem = f"lists {json.dumps(name)[:120]}, which {wrong}"
                        break
                else:
                    return dict(files)
        except (ValueError, KeyError, TypeError) as exc:
            problem = f"is damaged ({exc})"
    raise UsageError(
        f"site folder {_shown(root)}: its {MARKER} {problem}; rulescorpus did not write that "
        "list and nothing was removed. Remove the folder (or the list), choose an empty "
        "folder, or pass --force to write over it without removing anything"
    )


class SiteFolder:
    """The folder being written: locked, confined, its previous build known."""

    def __init__(
        self, root: Path, *, force: bool = False, guarded: Sequence[tuple[Path, str]] = ()
    ) -> None:
        check_place(root, guarded)
        self.root = root
        self.files = Confined(root)
        self._lock = -1
        try:
            # Claimed before the lock is made, so a refused folder is left untouched; and
            # again once it is held, since a build that held it may have changed the list.
            try:
                self._claim(force)
            except UsageError:
                # A build that holds the folder has not listed its files yet: busy, not
                # foreign. A folder never locked is left without a lock file.
                if os.path.lexists(root / LOCK):
                    self._lock = self._take_lock()
                raise
            self._lock = self._take_lock()
            self.previous = self._claim(force)
        except BaseException:
            self.close()
            raise
        self.written: dict[str, str] = {}  # name -> SHA-256 of its bytes
        self.changed: list[str] = []
        self.bytes = 0

    def _take_lock(self) -> int:
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(LOCK, flags, 0o666, dir_fd=self.files.fd)
        except OSError as exc:
            raise self.files.failed(self.root / LOCK, exc) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            raise SiteBusy(_shown(self.root)) from exc
        return fd

    def close(self) -> None:
        """Release the folder (its lock and descriptor)."""
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1
        with contextlib.suppress(OSError):
            self.files.close()

    def _claim(self, force: bool) -> dict[str, str]:
        """The files of the previous build; refuses a folder some other tool filled."""
        listed = os.path.lexists(self.root / MARKER)
        if listed:
            try:
                return read_marker(self.files.read(MARKER, _MARKER_BYTES), self.root)
            except UsageError:
                if not force:
                    raise
                return {}
        if any(p.name not in _OWN for p in self.root.iterdir()) and not force:
            raise UsageError(
                f"site folder {_shown(self.root)} is not empty and is not a site rulescorpus "
                "made; choose an empty or new folder, or pass --force to write into it"
            )
        return {}

    def write(self, name: str, data: bytes) -> None:
        """Write OUT/name unless it already holds exactly these bytes."""
        if name in self.written:
            raise UsageError(f"two pages of the site would both be {name}")
        digest = hashlib.sha256(data).hexdigest()
        self.written[name] = digest
        self.bytes += len(data)
        if self.previous.get(name) == digest and self.files.size(name) == len(data):
            return
        if self.files.same_bytes(name, data):
            return
        self.files.replace(name, data)
        self.changed.append(name)

    def abandon(self) -> None:
        """After a failed build: list every file of this folder's builds so far, so the next
        run knows the folder as its own and removes what it no longer makes."""
        self._list({**self.previous, **self.written})

    def finish(self) -> list[str]:
        """Remove the previous build's files this one did not write, then list this one's.
        Returns the names removed."""
        stale = sorted(set(self.previous) - set(self.written))
        # Deepest first, so each folder left empty is removed once its files are gone.
        for name in sorted(stale, key=lambda n: n.count("/"), reverse=True):
            self.files.remove(name)
        for name in self._leftovers():
            self.files.remove(name)
        self._list(self.written)
        return stale

    def _leftovers(self) -> list[str]:
        """Temporary files a killed build left (this build holds the lock, so no other
        build is writing one now), found without following links."""
        found = []
        for folder, _, names in os.walk(self.root):
            for name in names:
                if LEFTOVER.match(name):
                    found.append(Path(folder, name).relative_to(self.root).as_posix())
        return sorted(found)

    def _list(self, files: dict[str, str]) -> None:
        listing = json.dumps({"files": dict(sorted(files.items()))}, indent=0) + "\n"
        if not self.files.same_bytes(MARKER, listing.encode("utf-8")):
            self.files.replace(MARKER, listing.encode("utf-8"))
