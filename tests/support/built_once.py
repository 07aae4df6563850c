"""Session fixtures built once per `make test`, whichever of its processes asks first.

`make test` runs two pytest processes (tests/support/shards.py). Each used to build the
real documents' corpora for itself, or every file using them had to run in one process,
which left the other core idle. With RULESCORPUS_TEST_BUILDS naming a folder (shards.py
makes one per run), a fixture's folder is built there by the first process that asks,
under a file lock, and the other process waits for it and reads the same folder. A build
that failed half-way leaves no mark of completion, so the next process to ask builds it
again. Without the variable (a plain `pytest`), each fixture is built in the session's
own temporary folder, as any session fixture is.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

BUILDS = "RULESCORPUS_TEST_BUILDS"
DONE = ".built"


def build_once(
    name: str, tmp_path_factory: pytest.TempPathFactory, build: Callable[[Path], None]
) -> Path:
    """The folder `name`, built by `build(folder)` once per run of the whole suite."""
    base = os.environ.get(BUILDS)
    if not base:
        folder = tmp_path_factory.mktemp(name)
        build(folder)
        return folder
    folder = Path(base) / name
    with FileLock(f"{folder}.lock"):
        if not (folder / DONE).exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            build(folder)
            (folder / DONE).touch()
    return folder


def shared_folder(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder both processes write to and read from (the parse cache: its files are
    written atomically and named for what they hold)."""
    base = os.environ.get(BUILDS)
    if not base:
        return tmp_path_factory.mktemp(name)
    folder = Path(base) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
