"""Temporary files beside a user's file (cite-check's fixes, the SQLite export): created
exclusively under a random name carrying the process id, and removed by a later run once
that process is gone (a kill leaves one behind; nothing else may)."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path


def exclusive_temp(target: Path, suffix: str) -> tuple[int, Path]:
    """A new empty file beside `target` (`O_EXCL`, mode 0600): its descriptor and path.
    Temporary files of earlier runs for the same target whose process is gone are
    removed first."""
    remove_stale(target, suffix)
    fd, name = tempfile.mkstemp(
        prefix=f".{target.name[:100]}.{os.getpid()}.", suffix=suffix, dir=target.parent
    )
    return fd, Path(name)


def remove_stale(target: Path, suffix: str) -> None:
    pattern = re.compile(rf"^\.{re.escape(target.name[:100])}\.(\d+)\.\w+{re.escape(suffix)}$")
    try:
        entries = list(target.parent.iterdir())
    except OSError:
        return
    for entry in entries:
        match = pattern.match(entry.name)
        if match and not _alive(int(match.group(1))) and entry.is_file():
            entry.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
