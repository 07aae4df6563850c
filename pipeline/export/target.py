"""Where `export sqlite PATH` may write, and how it replaces a file without harming one.

PATH is written only when it is absent or is a database this export made (its
application id and its `rulescorpus_export` table say so); Datasette's metadata file
beside it only when absent or one this export wrote. Anything else (another database, a
text file, a folder, a file inside the corpus) is refused, the first two unless
`--force`, the last always. The new database is built in a temporary file created
exclusively beside PATH, never through a link (`store.temp_files`), and renamed over it,
so PATH is either the old file or the whole new one; a temporary file left by a killed
export is removed by the next one.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.errors import StorageIOError, UnreadableInput, UsageError, shorten
from pipeline.export.datasette.metadata import metadata_path
from pipeline.export.schema import APPLICATION_ID, MARK_TABLE, TABLE_ORDER
from pipeline.store.files import FILE_MODE, SIDE_FILE_BYTES, read_input
from pipeline.store.temp_files import TempFile, temp_beside

TEMP_SUFFIX = ".rulescorpus-export"
EXPORT_ADVICE = "it was left as it was. Free space or fix the permissions of that folder"


def _shown(path: Path) -> str:
    return shorten(str(path), 200)


def check_name(path: Path) -> None:
    """PATH must name a file (`""` is the current folder to pathlib)."""
    if not str(path) or path.name in ("", ".", ".."):
        raise UsageError("export sqlite needs a file name for the database, e.g. corpus.sqlite")


def check_target(corpus_dir: Path, path: Path, *, force: bool) -> Path:
    """The file to replace (a symlink's target); refused with a usage error (exit 2) when
    it, or the metadata file beside it, is not this export's to replace."""
    check_name(path)
    if path.is_symlink() and not path.exists() and not force:
        raise UsageError(
            f"{_shown(path)} is a link to nothing; refusing to create the file it names "
            "(give another path, or --force)"
        )
    target = path.resolve()
    metadata = metadata_path(target)
    corpus = corpus_dir.resolve()
    if target == corpus or corpus in target.parents:
        raise UsageError(
            f"{_shown(path)} is inside the corpus {_shown(corpus_dir)}; write the database "
            "outside it (the corpus holds only what the pipeline stores)"
        )
    if target.is_dir():
        raise UsageError(f"{_shown(path)} is a folder; give a file name for the database")
    if target.exists() and not force:
        problem = _not_ours(target)
        if problem is not None:
            raise UsageError(
                f"{_shown(path)} {problem}; refusing to replace it (give another path, or "
                "--force to replace it anyway)"
            )
    problem = None if force else _metadata_problem(metadata)
    if problem is not None:
        raise UsageError(
            f"{_shown(metadata)} {problem}; refusing to replace it (move it, or --force)"
        )
    return target


def _not_ours(path: Path) -> str | None:
    if not path.is_file():
        return "is not a regular file"
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return "is not a SQLite database"
    try:
        (application,) = conn.execute("pragma application_id").fetchone()
        tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    except sqlite3.Error:
        return "is not a SQLite database"
    finally:
        conn.close()
    if application == APPLICATION_ID and MARK_TABLE in tables:
        return None
    # An export made before databases were marked: no application id, and every table of
    # the export (no other database has them all), so `make serve` keeps working.
    if application == 0 and set(TABLE_ORDER) <= tables:
        return None
    return "is a database this export did not make"


def _metadata_problem(path: Path) -> str | None:
    """Why the metadata file beside the database is not this export's to replace, or None
    (absent, or written by it). Read by the one reader of input files: a FIFO or a link to
    a device there is refused, never waited on or read without end."""
    if not path.exists() and not path.is_symlink():
        return None
    try:
        data = json.loads(read_input(path, SIDE_FILE_BYTES, what="metadata file"))
    except UnreadableInput as exc:
        return f"cannot be checked: {exc.problem}"
    except ValueError:
        data = None
    if isinstance(data, dict) and data.get("title") == "rulescorpus":
        return None
    return "exists and is not metadata this export wrote"


@contextmanager
def replacing(target: Path) -> Iterator[TempFile]:
    """A temporary file beside `target` to build the new file in; renamed over `target`
    when the block ends well, removed when it does not."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with temp_beside(target, TEMP_SUFFIX) as temp:
            try:
                yield temp
                os.fchmod(temp.fd, _mode_for(target))
                os.fsync(temp.fd)
                temp.replace()
            except (OSError, sqlite3.Error) as exc:
                raise StorageIOError(_shown(target), _problem(exc), EXPORT_ADVICE) from exc
    except OSError as exc:
        raise StorageIOError(_shown(target), exc.strerror or str(exc), EXPORT_ADVICE) from exc


def _mode_for(target: Path) -> int:
    """The replaced file's mode, or what a new file gets under the umask (a temporary file
    is created private)."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        return FILE_MODE


def _problem(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return f"cannot write it ({exc.strerror or exc})"
    return f"cannot write it (SQLite: {exc})"


def write_atomically(target: Path, data: bytes) -> None:
    with replacing(target) as temp:
        temp.write(data)
