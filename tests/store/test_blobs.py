"""The content-addressed store: round trip, atomic writes, tampering caught on read."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.errors import HashMismatch, NotFound
from pipeline.store.blobs import BlobStore, check_against_chunks, digest_chunks

KNOWN = b"The quick brown fox jumps over the lazy dog"
KNOWN_SHA = "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"


def files_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_round_trip_uses_the_sha256_layout(tmp_path: Path) -> None:
    store = BlobStore(tmp_path / "cache")
    sha, size = store.add_bytes(KNOWN)
    assert (sha, size) == (KNOWN_SHA, len(KNOWN))
    assert store.path_for(sha) == tmp_path / "cache" / "sha256" / "d7" / KNOWN_SHA[2:]
    assert store.has(sha)
    assert store.read(sha) == KNOWN
    assert store.check(sha) == len(KNOWN)
    assert files_under(tmp_path / "cache") == [store.path_for(sha)]


def test_write_stream_hashes_chunks_as_one_file(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    chunks = [b"a" * 70_000, b"", b"b" * 3, b"c" * 100_000]
    whole = b"".join(chunks)
    sha, size = store.write_stream(iter(chunks))
    assert sha == hashlib.sha256(whole).hexdigest()
    assert size == len(whole)
    assert store.read(sha) == whole


def test_storing_the_same_bytes_twice_keeps_one_blob(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    first = store.add_bytes(KNOWN)
    second = store.write_stream([KNOWN[:10], KNOWN[10:]])
    assert first == second
    assert files_under(tmp_path) == [store.path_for(first[0])]


def test_failed_stream_leaves_no_temp_file_and_stores_nothing(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    store.add_bytes(b"already here")
    before = {p: p.read_bytes() for p in files_under(tmp_path)}

    def broken() -> Iterator[bytes]:
        yield b"partial data that must not be kept"
        raise ConnectionError("connection dropped mid-body")

    with pytest.raises(ConnectionError, match="dropped"):
        store.write_stream(broken())
    assert {p: p.read_bytes() for p in files_under(tmp_path)} == before
    assert list((tmp_path / "tmp").iterdir()) == []
    partial_sha = hashlib.sha256(b"partial data that must not be kept").hexdigest()
    assert not store.has(partial_sha)


def test_tampered_blob_is_detected_on_read(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    sha, _ = store.add_bytes(KNOWN)
    path = store.path_for(sha)
    path.write_bytes(KNOWN.replace(b"fox", b"cat"))
    with pytest.raises(HashMismatch) as info:
        store.read(sha)
    err = info.value
    assert err.what == str(path)
    assert err.expected == KNOWN_SHA
    assert err.got == hashlib.sha256(KNOWN.replace(b"fox", b"cat")).hexdigest()
    with pytest.raises(HashMismatch):
        store.check(sha)


def test_rewriting_heals_a_tampered_blob(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    sha, _ = store.add_bytes(KNOWN)
    store.path_for(sha).write_bytes(b"garbage")
    assert store.add_bytes(KNOWN) == (sha, len(KNOWN))
    assert store.read(sha) == KNOWN


def test_missing_blob_is_not_found(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    assert not store.has(KNOWN_SHA)
    with pytest.raises(NotFound, match=KNOWN_SHA):
        store.read(KNOWN_SHA)


@pytest.mark.parametrize("bad", ["../../etc/passwd", "D7A8" + KNOWN_SHA[4:], KNOWN_SHA[:-1], ""])
def test_path_for_refuses_anything_but_a_sha256(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ValueError, match="SHA-256"):
        BlobStore(tmp_path).path_for(bad)


def test_pure_core_matches_hashlib_and_reports_mismatch() -> None:
    assert digest_chunks([b"The quick ", b"brown fox", b" jumps over the lazy dog"]) == (
        KNOWN_SHA,
        len(KNOWN),
    )
    assert check_against_chunks([KNOWN], KNOWN_SHA, what="x") == len(KNOWN)
    with pytest.raises(HashMismatch, match="x: SHA-256 mismatch"):
        check_against_chunks([KNOWN, b"!"], KNOWN_SHA, what="x")
