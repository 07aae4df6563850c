"""The site's folder: refused unless it is empty or a site this command made, each file
rewritten only when its bytes changed (a host or a sync tool sees only real changes), and
files of the previous build that this one no longer makes removed.

A site this command made holds MARKER: every file it wrote, with the SHA-256 of the bytes
it wrote there. A file whose digest and size match what a rebuild would write is left
alone without being read again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from pipeline.errors import StorageIOError, UsageError

MARKER = ".rulescorpus-site.json"


class SiteFolder:
    def __init__(self, root: Path, *, force: bool = False) -> None:
        self.root = root
        self.previous = self._claim(force)
        self.written: dict[str, str] = {}  # name -> SHA-256 of its bytes
        self.changed: list[str] = []
        self.bytes = 0

    def _claim(self, force: bool) -> dict[str, str]:
        """The files of the previous build; refuses a folder some other tool filled."""
        if self.root.exists() and not self.root.is_dir():
            raise UsageError(f"site folder {self.root} is a file; give a folder")
        marker = self.root / MARKER
        if marker.is_file():
            try:
                listed = json.loads(marker.read_text(encoding="utf-8"))["files"]
                return {str(name): str(digest) for name, digest in dict(listed).items()}
            except (ValueError, KeyError, TypeError) as exc:
                raise UsageError(
                    f"site folder {self.root}: {MARKER} is damaged ({exc}); remove the folder "
                    "or pass --force to write over it"
                ) from exc
        if self.root.is_dir() and any(self.root.iterdir()) and not force:
            raise UsageError(
                f"site folder {self.root} is not empty and is not a site rulescorpus made; "
                "choose an empty or new folder, or pass --force to write into it"
            )
        return {}

    def write(self, name: str, data: bytes) -> None:
        """Write OUT/name unless it already holds exactly these bytes."""
        if name in self.written:
            raise UsageError(f"two pages of the site would both be {name}")
        digest = hashlib.sha256(data).hexdigest()
        self.written[name] = digest
        self.bytes += len(data)
        path = self.root / name
        if self.previous.get(name) == digest and _size(path) == len(data):
            return
        if _store(path, data):
            self.changed.append(name)

    def abandon(self) -> None:
        """After a failed build: list every file of this folder's builds so far, so the next
        run knows the folder as its own and removes what it no longer makes."""
        self._list({**self.previous, **self.written})

    def finish(self) -> list[str]:
        """Remove the previous build's files this one did not write, then list this one's.
        Returns the names removed."""
        stale = sorted(set(self.previous) - set(self.written))
        try:
            for name in stale:
                (self.root / name).unlink(missing_ok=True)
            # Deepest first, each folder once: a folder of thousands of stale files is
            # listed once, not once per file.
            folders = {(self.root / name).parent for name in stale}
            for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
                _prune(folder, self.root)
        except OSError as exc:
            raise StorageIOError(str(self.root), exc.strerror or str(exc)) from exc
        self._list(self.written)
        return stale

    def _list(self, files: dict[str, str]) -> None:
        listing = json.dumps({"files": dict(sorted(files.items()))}, indent=0) + "\n"
        _store(self.root / MARKER, listing.encode("utf-8"))


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def _store(path: Path, data: bytes) -> bool:
    """Replace the file atomically unless it already holds these bytes; True if written."""
    try:
        if path.is_file() and path.read_bytes() == data:
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.tmp")
        temp.write_bytes(data)
        os.replace(temp, path)
    except OSError as exc:
        raise StorageIOError(str(path), exc.strerror or str(exc)) from exc
    return True


def _prune(folder: Path, root: Path) -> None:
    """Remove folders left empty up to (not including) the site's root."""
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
