"""Reading one corpus file and proving it is the file the index stored. Standard library
only, so the quick read path (`corpus.stored`) and the typed store share the one check."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pipeline.errors import StoreError
from pipeline.store.layout import digest_in_name


def read_checked(root: Path, relative: str, expected_sha256: str | None = None) -> bytes:
    """A file the index names; its bytes are checked against the digest in its name (and
    against `expected_sha256` when given), so a corrupted file is never read as data."""
    path = root / relative
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise StoreError(
            f"{path} is listed in index.json but missing; run `rulescorpus verify` and "
            "re-import the document"
        ) from exc
    got = hashlib.sha256(data).hexdigest()
    named = digest_in_name(relative)
    if (expected_sha256 is not None and got != expected_sha256) or (
        named is not None and not got.startswith(named)
    ):
        raise StoreError(
            f"{path} changed since it was stored: index.json says "
            f"{expected_sha256 or named}, the file hashes to {got}; restore it from a "
            "backup or re-import the document"
        )
    return data
