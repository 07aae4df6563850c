"""Which files `cite-check` reads, and how: the user's files and folders, never the
corpus, the blob cache or a Python environment, each file read once, as text in the
encoding it is written in.

A folder is walked without following links into other folders; hidden names are skipped.
What cannot be read as a text file is a note, never a hang or an abort: a FIFO, a socket
or a device (opening one would block or read forever), a dangling link, a binary file, a
file over the size cap, bytes that are not the encoding their byte-order mark names.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import NotFound, UnreadableInput, UsageError, shorten
from pipeline.extract.text import sniff_encoding
from pipeline.store.files import file_kind, read_input
from pipeline.store.layout import INDEX

MAX_FILE_BYTES = 64 * 1024 * 1024
_BINARY_SNIFF = 8192
_HTML = (".html", ".htm", ".xhtml")


def shown(path: Path | str) -> str:
    """A path as a message names it (a file name may hold control characters)."""
    return shorten(str(path), 200)


@dataclass(frozen=True)
class Protected:
    """Folders cite-check never reads or writes: each resolved path and what it is, and
    any folder that its own files mark as a corpus or an environment."""

    folders: dict[Path, str]
    _marks: dict[Path, str | None] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, corpus: Path, others: Iterable[tuple[Path, str]] = ()) -> Protected:
        named = [(corpus, "the corpus"), *others, (Path(sys.prefix), "the Python environment")]
        return cls({path.resolve(): what for path, what in named})

    def reason(self, path: Path) -> str | None:
        """Why `path` (a file or folder, links resolved) is out of bounds, or None: inside a
        named folder, or inside any folder marked as a corpus or an environment (a
        sub-folder of another corpus, a link from the user's folder into one)."""
        real = path.resolve()
        for folder, what in self.folders.items():
            if real == folder or folder in real.parents:
                return f"{what} ({shown(folder)})"
        for folder in (real, *real.parents) if real.is_dir() else real.parents:
            if folder not in self._marks:
                self._marks[folder] = _marked(folder)
            if self._marks[folder] is not None:
                return self._marks[folder]
        return None


def _marked(folder: Path) -> str | None:
    """A folder that is some corpus or virtual environment, whatever its name."""
    if (folder / "pyvenv.cfg").is_file():
        return f"a Python environment ({shown(folder)})"
    index = folder / INDEX
    try:
        if index.is_file():
            data = json.loads(read_input(index, MAX_FILE_BYTES))
            if isinstance(data, dict) and "documents" in data:
                return f"a corpus ({shown(folder)})"
    except (OSError, ValueError, UnreadableInput):
        return None
    return None


@dataclass
class Walk:
    """The files to read, in order, each once; and a note for each thing skipped."""

    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _seen: set[tuple[int, int]] = field(default_factory=set)

    def add(self, path: Path, protected: Protected) -> None:
        try:
            info = path.stat()
        except FileNotFoundError:
            self.notes.append(f"skipped {shown(path)}: a link to nothing")
            return
        except OSError as exc:
            self.notes.append(f"skipped {shown(path)}: cannot read it ({exc.strerror})")
            return
        if not stat.S_ISREG(info.st_mode):
            self.notes.append(f"skipped {shown(path)}: not a regular file ({_kind(info)})")
            return
        if (info.st_dev, info.st_ino) in self._seen:
            return  # the same file given twice, or by another name: checked once
        reason = protected.reason(path)
        if reason is not None:
            self.notes.append(f"skipped {shown(path)}: it is inside {reason}")
            return
        self._seen.add((info.st_dev, info.st_ino))
        self.files.append(path)


def _kind(info: os.stat_result) -> str:
    return file_kind(info.st_mode)


def _walk(folder: Path, protected: Protected, walk: Walk) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        kept = []
        for name in sorted(d for d in dirs if not d.startswith(".")):
            reason = protected.reason(Path(root) / name)
            if reason is None:
                kept.append(name)
            else:
                walk.notes.append(f"skipped {reason}: cite-check never reads or writes there")
        dirs[:] = kept
        yield from (Path(root) / f for f in sorted(files) if not f.startswith("."))


def collect_files(paths: Sequence[Path], protected: Protected) -> Walk:
    """Files as given, and every file under a folder; a path given that is (or is inside)
    the corpus, the cache or an environment is refused, one met in a folder skipped."""
    walk = Walk()
    for path in paths:
        if not path.exists() and not path.is_symlink():
            raise NotFound(shown(path), "give files or folders to check")
        reason = protected.reason(path) if path.exists() else None
        if reason is not None:
            raise UsageError(
                f"{shown(path)} is in {reason}; cite-check never reads or writes there "
                "(give the folders of your own files)"
            )
        if path.is_dir():
            for file in _walk(path, protected, walk):
                walk.add(file, protected)
        else:
            walk.add(path, protected)
    return walk


@dataclass(frozen=True)
class TextFile:
    """A file's bytes as read, and its text in the encoding it is written in."""

    path: Path
    data: bytes
    encoding: str
    bom: bytes
    text: str

    @property
    def searched(self) -> str:
        """The text citations are looked for in: the same length, so columns still point
        into the file (`rule&nbsp;702.19c` reads)."""
        if self.path.suffix.lower() in _HTML:
            return self.text.replace("&nbsp;", "      ").replace("&#160;", "      ")
        return self.text

    def encode(self, text: str) -> bytes:
        return self.bom + text.encode(self.encoding, errors="surrogateescape")

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def read_bytes(path: Path) -> bytes:
    """A regular file's bytes, through the one reader of input files (a FIFO swapped in
    since it was listed is refused, not waited on); OSError saying why when it refuses."""
    try:
        return read_input(path, MAX_FILE_BYTES)
    except UnreadableInput as exc:
        raise OSError(0, exc.problem) from exc


def read_text_file(path: Path) -> TextFile | str:
    """The file as text, or the note saying why it is skipped."""
    try:
        data = read_bytes(path)
    except OSError as exc:
        return f"skipped {shown(path)}: cannot read it ({exc.strerror or exc})"
    encoding, skip = sniff_encoding(data)
    if skip and encoding.startswith(("utf-16", "utf-32")):
        try:
            text = codecs.decode(data[skip:], encoding)
        except UnicodeDecodeError:
            return f"skipped {shown(path)}: it starts as {encoding} but is not valid {encoding}"
        return TextFile(path, data, encoding, data[:skip], text)
    if b"\0" in data[:_BINARY_SNIFF]:
        return f"skipped {shown(path)}: binary, or UTF-16 without a byte-order mark"
    # Not UTF-8 (cp1252, say): citations are ASCII, and undecodable bytes are kept as
    # they are, so a rewrite changes nothing else.
    return TextFile(
        path, data, "utf-8", data[:skip], data[skip:].decode("utf-8", errors="surrogateescape")
    )
