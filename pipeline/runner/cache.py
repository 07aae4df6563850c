"""Never parse the same bytes twice: parsed Documents kept in the cache beside the blobs.

The key is everything a parse depends on: the blob's SHA-256, the request (family,
document, rendition, fallback version, options), the parser and extraction code
itself (a digest of the source files of `parse/`, `extract/` and `models/`, so an
edited parser can never be answered from an old parse even if nobody bumped its
version) and the versions of the extraction libraries. An entry's first line is the
SHA-256 of the Document JSON after it, checked on every read: a cached parse
damaged on disk (a flipped letter still reads as valid JSON) is never served but
parsed again and replaced. The cache is a cache: an entry that does not load is
parsed again. `verify --reproduce` bypasses it on
purpose, since re-parsing is the point there.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

import pipeline
from pipeline.errors import StorageIOError
from pipeline.models.records import Document
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest
from pipeline.runner.sandbox import parse_isolated
from pipeline.store.files import write_new

LIBRARIES = ("pdfplumber", "pdfminer.six", "pypdfium2", "beautifulsoup4", "PyYAML", "pydantic")


@cache
def code_digest() -> str:
    """SHA-256 over the code a parse runs (computed once per process)."""
    root = Path(pipeline.__file__).parent
    files = [*sorted((root / "models").rglob("*.py")), root / "errors.py"]
    files += sorted((root / "parse").rglob("*.py")) + sorted((root / "extract").rglob("*.py"))
    files.append(root / "runner" / "families.py")
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    # Text exports record the Python that decoded them (parser.engine_version).
    digest.update(f"python={sys.version_info.major}.{sys.version_info.minor}".encode())
    for name in LIBRARIES:
        try:
            digest.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=absent".encode())
    return digest.hexdigest()


def cache_key(blob_sha256: str, request: ParseRequest) -> str:
    fields = {
        "blob": blob_sha256,
        "family": request.family,
        "document": request.document,
        "rendition": request.rendition,
        "version": request.version,
        "options": dict(sorted(request.options.items())),
        "scheme": request.scheme.model_dump(mode="json") if request.scheme else None,
        "code": code_digest(),
    }
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


class ParseCache:
    """Parsed Documents under `root/<aa>/<key>.json`; `None` root disables it."""

    def __init__(self, root: Path | None) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        assert self.root is not None
        return self.root / key[:2] / f"{key}.json"

    def parse(
        self, data: bytes, blob_sha256: str, request: ParseRequest, limits: ParseLimits
    ) -> Document:
        """The Document for these bytes: from the cache, or parsed (isolated) and kept."""
        if self.root is None:
            return parse_isolated(data, request, limits)
        key = cache_key(blob_sha256, request)
        path = self._path(key)
        try:
            # `what` (the request's name for the source) is used in errors only, and errors
            # are never cached, so a hit is the Document this request would have parsed.
            cached = read_entry(path.read_bytes())
            if cached is not None:
                return cached
        except (OSError, ValueError):
            pass
        doc = parse_isolated(data, request, limits)
        with contextlib.suppress(StorageIOError):  # a full cache costs speed, never a run
            write_new(path, make_entry(doc))
        return doc


def make_entry(doc: Document) -> bytes:
    """The entry's bytes: the SHA-256 of the Document's JSON, a newline, the JSON."""
    body = doc.model_dump_json().encode("utf-8")
    return hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body


def read_entry(entry: bytes) -> Document | None:
    """The Document an entry holds, or None when its bytes are not the ones written."""
    head, _, body = entry.partition(b"\n")
    if hashlib.sha256(body).hexdigest().encode("ascii") != head:
        return None
    return Document.model_validate_json(body)
