"""Session fixtures built once per `make test`, whichever pytest-xdist worker asks first.

`make test` runs the suite in two pytest-xdist workers, one per core. Each would build the
real documents' corpora for itself; instead, a fixture's folder is built in the folder all
workers of one run share (the parent of each worker's base temporary folder, as
pytest-xdist documents for session fixtures), under a file lock, by the first worker that
asks, and the other waits for it and reads the same folder. A build that failed half-way
leaves no mark of completion, so the next worker to ask builds it again. In a plain
`pytest` (no workers), each is built once in the session's own temporary folder, as any
session fixture is.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

DONE = ".built"
_BUILT: dict[tuple[Path, str], Path] = {}


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The folder every worker of this run shares, or None outside pytest-xdist."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return None
    return tmp_path_factory.getbasetemp().parent


def build_once(
    name: str, tmp_path_factory: pytest.TempPathFactory, build: Callable[[Path], None]
) -> Path:
    """The folder `name`, built by `build(folder)` once per run of the whole suite."""
    base = run_folder(tmp_path_factory)
    if base is None:
        # One process: built once, whichever module's fixture asks first.
        key = (tmp_path_factory.getbasetemp(), name)
        if key not in _BUILT:
            folder = tmp_path_factory.mktemp(name)
            build(folder)
            _BUILT[key] = folder
        return _BUILT[key]
    folder = base / name
    with FileLock(f"{folder}.lock"):
        if not (folder / DONE).exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            build(folder)
            (folder / DONE).touch()
    return folder


def shared_folder(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every worker writes to and reads from (the parse cache: its files are
    written atomically and named for what they hold)."""
    base = run_folder(tmp_path_factory)
    if base is None:
        return tmp_path_factory.mktemp(name)
    folder = base / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
