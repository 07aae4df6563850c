"""The id index of a stored version: where each record's bytes sit in the version's file.

A rules bot asks `show cr:702.19c` many times a day; the MTG version file is 2.8 MB
and decoding all of it costs more than Python's start. The id index, written beside
each version when it is stored, names for every record, glossary term and ruling its
byte span in the version file, its parent, and the SHA-256 of those bytes, plus the
document-level fields a citation's provenance needs (`head`). A reader then decodes
only the index and the one record it wants, and still checks the bytes it read.

The format (corpus/README.md, "Id index"), canonical JSON like every corpus file:

    {"format": 1, "file": <version file>, "sha256": <its SHA-256>, "head": {title, ...},
     "ids": {"cr:702.19c": [list, start, end, parent or null, sha256 of data[start:end]]}}

where `list` is the Document list holding it (`records`, `glossary` or `rulings`).

Pure (json and hashlib only, so the quick `show` path can read it without the models):
the bytes in, the index out; the store decides where it goes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, BinaryIO

FORMAT = 1  # a reader that finds another format reads the version file whole
KEYS = ("records", "glossary", "rulings")
HEAD = (
    "game", "document", "title", "version", "published", "effective", "source",
    "renditions", "parser",
)  # fmt: skip
# The version file is canonical JSON (store.canonical.canonical_json): sorted keys, 2-space
# indent. A top-level list's item opens with `{` on a line of its own at 4 spaces and
# closes at the first line that is exactly 4 spaces and `}`: anything nested in it sits
# deeper, and a JSON string never holds a raw newline. So spans are found by scanning
# the bytes, not by serialising each record again.
_ITEM_OPEN = b"\n    {"
_ITEM_CLOSE = b"\n    }"


def _id_line(ident: Any) -> bytes:
    """A record's `id` line as its canonical JSON writes it (the key sorts anywhere)."""
    return ('\n      "id": ' + json.dumps(ident, ensure_ascii=False)).encode("utf-8")


def records_by_id(doc: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """A decoded version's records by id, each with the list holding it (KEYS); the first
    of an id held twice, as a reader of the id index finds it."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for key in KEYS:
        for record in doc.get(key) or []:
            found.setdefault(record["id"], (key, record))
    return found


def build_id_index(file: str, data: bytes) -> dict[str, Any]:
    """The id index of the canonical version file `data` (stored as `file`).

    Raises ValueError when `data` is not in the canonical layout (it always is, when the
    store wrote it): an index that pointed at the wrong bytes would be worse than none."""
    doc = json.loads(data)
    ids: dict[str, list[Any]] = {}
    for key in KEYS:
        items = doc.get(key) or []
        if not items:
            continue
        header = f'\n  "{key}": ['.encode()
        at = data.find(header)
        if at < 0:
            raise ValueError(f"{file}: no top-level {key!r} list in the canonical layout")
        at += len(header)
        for item in items:
            ident = item.get("id")
            if data[at : at + len(_ITEM_OPEN)] != _ITEM_OPEN:
                raise ValueError(f"{file}: {ident!r} is not where the layout puts it")
            start = at + 5  # the item's `{`, after the newline and its indent
            at = data.find(_ITEM_CLOSE, start) + len(_ITEM_CLOSE)
            piece = data[start:at]
            if at < len(_ITEM_CLOSE) or _id_line(ident) not in piece:
                raise ValueError(f"{file}: {ident!r} is not where the layout puts it")
            digest = hashlib.sha256(piece).hexdigest()
            ids.setdefault(ident, [key, start, at, item.get("parent"), digest])
            if data[at : at + 1] == b",":
                at += 1
        if data[at : at + 4] != b"\n  ]":
            raise ValueError(f"{file}: the {key!r} list does not end where the layout puts it")
    return {
        "format": FORMAT,
        "file": file,
        "sha256": hashlib.sha256(data).hexdigest(),
        "head": {name: doc.get(name) for name in HEAD},
        "ids": ids,
    }


def fits(index: Any, file: str, sha256: str) -> bool:
    """Whether `index` is an id index of this format for exactly this version file."""
    return (
        isinstance(index, dict)
        and index.get("format") == FORMAT
        and (index.get("file"), index.get("sha256")) == (file, sha256)
        and isinstance(index.get("ids"), dict)
    )


def read_span(handle: BinaryIO, ident: str, entry: list[Any]) -> dict[str, Any] | None:
    """The record `ident` read from the version file at the span its entry names; None
    when those bytes are not the ones the index recorded, or not that record (a damaged
    or replaced file, or an index of some other bytes)."""
    _key, start, end, _parent, digest = entry
    handle.seek(start)
    piece = handle.read(end - start)
    if hashlib.sha256(piece).hexdigest() != digest:
        return None
    record = json.loads(piece)
    return record if isinstance(record, dict) and record.get("id") == ident else None


def record_digests(data: bytes, index: dict[str, Any]) -> dict[str, str]:
    """Id -> SHA-256 of that record's own canonical JSON (store.canonical.canonical_json of
    the record alone), from its span: the span is that JSON with each line after the first
    indented four spaces more (a JSON string never holds a raw newline), less the final
    newline."""
    return {
        ident: hashlib.sha256(data[start:end].replace(b"\n    ", b"\n") + b"\n").hexdigest()
        for ident, (_key, start, end, _parent, _sha) in index["ids"].items()
    }


def children_in(index: dict[str, Any], citation: str) -> list[str]:
    """The rules whose parent is `citation`, in document order."""
    ordered = sorted(index["ids"].items(), key=lambda item: item[1][1])
    return [
        ident
        for ident, (key, _s, _e, parent, _h) in ordered
        if key == "records" and parent == citation
    ]
