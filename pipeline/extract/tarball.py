"""Gzip tar archives read from memory, safely: nothing touches the disk, no link is followed.

Upstream data such as NetrunnerDB's card repository arrives as a GitHub archive
tarball (`<repo>-<ref>/...`) or a `git archive` bundle. An archive is hostile
input: a member may name `/etc/passwd` or `../../x`, be a link to anything, or
claim gigabytes. Every such member is refused with a message naming it; the
caller gets plain bytes keyed by a clean relative path, in sorted order.
"""

from __future__ import annotations

import io
import re
import tarfile
import zlib
from collections.abc import Callable
from typing import Any

from pipeline.errors import ExtractError

MiB = 1024 * 1024

_COMMIT = re.compile(r"[0-9a-f]{40}")


def clean_member_path(name: str, *, what: str, strip_components: int = 0) -> str | None:
    """The member's relative path with `strip_components` leading folders removed.

    None when nothing is left (the archive's top folder itself). Absolute paths,
    drive letters, backslashes and `..` components are refused: a well-made
    archive never has them, so their presence means the archive is not what we fetched for.
    """
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name) or "\\" in name:
        raise ExtractError(
            what,
            f"archive member {name!r} has an absolute or non-POSIX path; refusing the "
            "whole archive (check that the URL points at the expected repository archive)",
        )
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ExtractError(
            what,
            f"archive member {name!r} escapes the archive with '..'; refusing the whole "
            "archive (check that the URL points at the expected repository archive)",
        )
    parts = parts[strip_components:]
    return "/".join(parts) if parts else None


# pax ('x', 'g') and GNU long-name ('L', 'K') headers hold metadata the tarfile module reads
# whole into memory before any member limit applies: a 1 MiB archive can declare 1 GiB.
_METADATA_TYPES = frozenset(b"xgLK")
MAX_METADATA_BYTES = 1 * MiB
BLOCK = 512


def check_tar_headers(
    data: bytes, *, what: str, max_total_bytes: int, max_metadata_bytes: int = MAX_METADATA_BYTES
) -> None:
    """Walk the raw headers of a .tar.gz, decompressing as it goes, before tarfile does.

    Refuses metadata headers over `max_metadata_bytes` and archives whose members add up to
    more than `max_total_bytes`, without ever holding more than one block of data beyond
    what has been read: the defence against pax-header and gzip bombs."""
    stream = zlib.decompressobj(16 + zlib.MAX_WBITS)
    buffer = bytearray()
    skip = 0  # bytes of member data still to pass over
    declared = 0
    view = memoryview(data)
    for start in range(0, len(data), 1 << 16):
        try:
            buffer += stream.decompress(view[start : start + (1 << 16)], 1 << 20)
            while stream.unconsumed_tail:
                buffer += stream.decompress(stream.unconsumed_tail, 1 << 20)
                skip, declared = _walk_headers(
                    buffer, skip, declared, what, max_total_bytes, max_metadata_bytes
                )
        except zlib.error as exc:
            raise ExtractError(what, f"not a readable gzip tar archive: {exc}") from exc
        skip, declared = _walk_headers(
            buffer, skip, declared, what, max_total_bytes, max_metadata_bytes
        )


def _walk_headers(
    buffer: bytearray, skip: int, declared: int, what: str, max_total: int, max_metadata: int
) -> tuple[int, int]:
    while True:
        if skip:
            step = min(skip, len(buffer))
            del buffer[:step]
            skip -= step
            if skip:
                return skip, declared
        if len(buffer) < BLOCK:
            return 0, declared
        header = bytes(buffer[:BLOCK])
        del buffer[:BLOCK]
        if header == bytes(BLOCK):
            continue
        size = _header_size(header, what)
        kind = header[156]
        if kind in _METADATA_TYPES and size > max_metadata:
            raise ExtractError(
                what,
                f"archive has a {chr(kind)!r} metadata header of {size} bytes (limit "
                f"{max_metadata}); refusing it as a decompression bomb",
            )
        declared += size
        if declared > max_total:
            raise ExtractError(
                what,
                f"archive members add up to more than {max_total} bytes; refusing it "
                "(raise the source's max_bytes in the registry if the archive is genuine)",
            )
        skip = -(-size // BLOCK) * BLOCK


def _header_size(header: bytes, what: str) -> int:
    field = header[124:136]
    if field[0] & 0x80:  # GNU base-256 for sizes over 8 GiB: never a rules archive
        raise ExtractError(what, "archive declares a member over 8 GiB; refusing it")
    try:
        return int(field.rstrip(b"\0 ").strip() or b"0", 8)
    except ValueError as exc:
        raise ExtractError(what, f"archive header has a corrupt size field {field!r}") from exc


def read_tar_members(
    data: bytes,
    *,
    what: str,
    include: Callable[[str], bool] | None = None,
    strip_components: int = 0,
    max_members: int = 20000,
    max_total_bytes: int = 256 * MiB,
    max_member_bytes: int = 64 * MiB,
    max_archive_bytes: int = 1024 * MiB,
) -> dict[str, bytes]:
    """Regular files of a .tar.gz held in memory, {clean path: bytes}, sorted by path.

    `include` sees the cleaned path (after `strip_components`) and selects what
    is read; unselected regular files are skipped unread. A selected link or
    device is an error (never followed); links outside the selection are never
    read, so they are harmless and skipped. Limits are checked against the
    sizes the headers declare, before any member's bytes are read.
    """
    check_tar_headers(data, what=what, max_total_bytes=max_archive_bytes)
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")  # noqa: SIM115 - `with` below
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise ExtractError(what, f"not a readable gzip tar archive: {exc}") from exc
    out: dict[str, bytes] = {}
    members = 0
    total = 0
    with archive:
        while True:
            try:
                member = archive.next()
            except (tarfile.TarError, OSError, EOFError) as exc:
                raise ExtractError(what, f"archive is truncated or corrupt: {exc}") from exc
            if member is None:
                break
            members += 1
            if members > max_members:
                raise ExtractError(
                    what,
                    f"archive has more than {max_members} members; raise max_members if "
                    "this repository really grew that large",
                )
            path = clean_member_path(member.name, what=what, strip_components=strip_components)
            if path is None or member.isdir():
                continue
            selected = include is None or include(path)
            if not selected:
                continue
            if member.issym() or member.islnk():
                raise ExtractError(
                    what,
                    f"archive member {member.name!r} is a link to {member.linkname!r}; links "
                    "are never followed - fetch an archive whose selected files are regular files",
                )
            if not member.isreg():
                raise ExtractError(
                    what,
                    f"archive member {member.name!r} is not a regular file (tar type "
                    f"{member.type!r}); refusing it",
                )
            if member.size > max_member_bytes:
                raise ExtractError(
                    what,
                    f"archive member {member.name!r} declares {member.size} bytes, over the "
                    f"{max_member_bytes}-byte limit per member",
                )
            total += member.size
            if total > max_total_bytes:
                raise ExtractError(
                    what,
                    f"selected archive members exceed {max_total_bytes} bytes in total "
                    f"(reached at {member.name!r}); raise max_total_bytes or narrow the selection",
                )
            if path in out:
                raise ExtractError(
                    what,
                    f"archive has two members named {path!r}; which one is meant is "
                    "ambiguous, refusing the archive",
                )
            handle = archive.extractfile(member)
            if handle is None:  # pragma: no cover - isreg() members always have a handle
                raise ExtractError(what, f"archive member {member.name!r} has no data")
            try:
                content = handle.read()
            except (tarfile.TarError, OSError, EOFError) as exc:
                raise ExtractError(
                    what, f"archive member {member.name!r} is truncated: {exc}"
                ) from exc
            if len(content) != member.size:
                raise ExtractError(
                    what,
                    f"archive member {member.name!r} declares {member.size} bytes but holds "
                    f"{len(content)}",
                )
            out[path] = content
    return dict(sorted(out.items()))


def read_archive_commit(data: bytes) -> str | None:
    """The commit id `git archive` (and GitHub's archive endpoint) writes in the pax header.

    None when the archive carries none. Proof of which commit the bytes came
    from, independent of the ref that was asked for. Only the first header is read
    (git writes the global pax header first), and at most MAX_METADATA_BYTES of it:
    tarfile would read a header that declares a gigabyte whole, and this runs before
    the parse's memory limit applies.
    """
    stream = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        header = _inflate(stream, data, BLOCK)
        if len(header) < BLOCK or header[156] != ord("g"):
            return None
        size = _header_size(header, "archive")
        if size > MAX_METADATA_BYTES:
            return None
        records = _inflate(stream, stream.unconsumed_tail or b"", size)
    except (zlib.error, ExtractError):
        return None
    comment = _pax_records(records).get("comment", "")
    return comment if _COMMIT.fullmatch(comment) else None


def _inflate(stream: Any, data: bytes, size: int) -> bytes:
    """The next `size` decompressed bytes of `stream` (fewer at the end of the data)."""
    out = stream.decompress(data, size)
    while len(out) < size and stream.unconsumed_tail:
        out += stream.decompress(stream.unconsumed_tail, size - len(out))
    return bytes(out)


def _pax_records(block: bytes) -> dict[str, str]:
    """`<length> <key>=<value>\\n` records of a pax header; a malformed one ends the read."""
    records: dict[str, str] = {}
    at = 0
    while at < len(block) and block[at] != 0:
        space = block.find(b" ", at)
        if space < 0 or not block[at:space].isdigit():
            break
        end = at + int(block[at:space])
        key, sep, value = block[space + 1 : end].rstrip(b"\n").partition(b"=")
        if not sep or end <= space:
            break
        records[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
        at = end
    return records
