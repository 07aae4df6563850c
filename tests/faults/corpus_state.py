"""What a corpus and a blob store hold, compared byte for byte, and what should not be there.

Reads the folders directly (never through the pipeline), so a bug in the store
cannot hide itself: the index is plain JSON, the names it references are read
as listed, and every file under the folders is accounted for.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TEMP_PREFIX = ".tmp-"
MANAGED = re.compile(r"\.[0-9a-f]{12}\.(?:json|md|html)$")
# Files a corpus folder may hold besides the ones its index names.
CORPUS_FIXED = {"index.json", "lock.json", ".lock"}


def tree(root: Path) -> dict[str, str]:
    """Every file under root with its SHA-256 (the run lock file aside)."""
    if not root.exists():
        return {}
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def referenced(index: Any) -> set[str]:
    """The files index.json names: every string in it shaped like a digest-named corpus
    path (read without the pipeline, so a new kind of artefact is counted without a
    change here)."""
    if isinstance(index, str):
        return {index} if MANAGED.search(index) and "/" in index else set()
    if isinstance(index, dict):
        return set().union(*(referenced(v) for v in index.values())) if index else set()
    if isinstance(index, list):
        return set().union(*(referenced(v) for v in index)) if index else set()
    return set()


@dataclass(frozen=True)
class Snapshot:
    """A corpus folder before a run: every file, and the published part alone (what a
    version staged for review, exit 40, must leave as it was)."""

    files: dict[str, str]
    published: str

    @classmethod
    def of(cls, corpus: Path) -> Snapshot:
        files = tree(corpus)
        try:
            index = read_index(corpus)
        except ValueError:
            return cls(files, "<unreadable index>")
        documents = {}
        for name, entry in index.get("documents", {}).items():
            versions = [v for v in entry.get("versions", []) if v.get("status") != "staged"]
            documents[name] = {**entry, "versions": versions}
        named = referenced({"documents": documents})
        view = {
            "documents": documents,
            "pins": index.get("pins", []),
            "files": {n: files.get(n) for n in sorted(named)},
        }
        return cls(files, json.dumps(view, sort_keys=True))


def read_index(corpus: Path) -> dict[str, Any]:
    path = corpus / "index.json"
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_bytes())
    return data


@dataclass(frozen=True)
class Published:
    """The corpus as its index defines it: index.json and every file it names, as bytes."""

    files: dict[str, bytes]

    @classmethod
    def of(cls, corpus: Path) -> Published:
        files = {"index.json": (corpus / "index.json").read_bytes()}
        for name in sorted(referenced(read_index(corpus))):
            path = corpus / name
            files[name] = path.read_bytes() if path.exists() else b"<missing>"
        return cls(files)

    def differences(self, other: Published) -> list[str]:
        problems = []
        for name in sorted(set(self.files) | set(other.files)):
            mine, theirs = self.files.get(name), other.files.get(name)
            if mine is None or theirs is None:
                problems.append(f"{name}: only in {'the reference' if theirs else 'this run'}")
            elif mine != theirs:
                problems.append(f"{name}: bytes differ")
        return problems


def leftovers(corpus: Path, cache: Path) -> list[str]:
    """Temporary files anywhere, corpus files the index does not name, partial downloads."""
    found: list[str] = []
    keep: set[str] | None = None  # no index (or one damaged on purpose): judge temporaries
    if (corpus / "index.json").exists():
        with contextlib.suppress(ValueError):
            keep = referenced(read_index(corpus))
    if corpus.exists():
        for path in sorted(corpus.rglob("*")):
            if not path.is_file():
                continue
            relative = path.relative_to(corpus).as_posix()
            if path.name.startswith(TEMP_PREFIX):
                found.append(f"corpus/{relative} (temporary)")
            elif keep is not None and relative not in CORPUS_FIXED and relative not in keep:
                found.append(f"corpus/{relative} (not named by index.json)")
    if cache.exists():
        for path in sorted(cache.rglob("*")):
            relative = path.relative_to(cache).as_posix()
            if path.is_file() and (
                path.name.startswith(TEMP_PREFIX) or relative.startswith("tmp/")
            ):
                found.append(f"cache/{relative} (temporary)")
    return found


def blobs_ok(cache: Path) -> list[str]:
    """Every blob must hash to its own name."""
    bad = []
    objects = cache / "sha256"
    if objects.exists():
        for path in sorted(objects.rglob("*")):
            if path.is_file():
                name = path.parent.name + path.name
                if hashlib.sha256(path.read_bytes()).hexdigest() != name:
                    bad.append(f"cache/{path.relative_to(cache).as_posix()} (altered blob)")
    return bad


def copy_state(source: Path, target: Path) -> None:
    """A fresh copy of a prepared corpus or cache folder."""
    if target.exists():
        shutil.rmtree(target)
    if source.exists():
        shutil.copytree(source, target, symlinks=True)
    else:
        target.mkdir(parents=True)


def flip_bit(path: Path, offset: int | None = None, bit: int = 0) -> None:
    """Flip one bit of a file in place (the middle byte unless told)."""
    data = bytearray(path.read_bytes())
    where = len(data) // 2 if offset is None else offset
    data[where] ^= 1 << bit
    path.write_bytes(bytes(data))
