"""Pure verification: digests, pins (the lock), published checksums, rendition agreement.

Nothing here reads a file or the network; callers hand in bytes and records.
"""

from __future__ import annotations

import hashlib
import re
from enum import Enum

from pipeline.errors import HashMismatch
from pipeline.models.records import Document
from pipeline.models.sources import Lock, Pin
from pipeline.models.text import fold_typography

_CHUNK = 1024 * 1024


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class PinStatus(Enum):
    UNCHANGED = "unchanged"  # these exact bytes are already pinned
    NEW = "new"  # new bytes, a version the lock has never seen


def find_pin(lock: Lock, document: str, rendition: str, version: str) -> Pin | None:
    key = (document, rendition, version)
    return next((p for p in lock.pins if (p.document, p.rendition, p.version) == key), None)


def pinned_version_of(lock: Lock, document: str, rendition: str, sha256: str) -> str | None:
    """The version these bytes are pinned as, if any (a re-download of a known file)."""
    key = (document, rendition, sha256)
    return next((p.version for p in lock.pins if (p.document, p.rendition, p.sha256) == key), None)


def check_pin(
    lock: Lock, document: str, rendition: str, version: str, sha256: str, size: int
) -> PinStatus:
    """Compare a download with the lock.

    Bytes equal to the pin are unchanged; a version the lock has never seen is
    new; new bytes claiming a version already pinned to other bytes raise
    HashMismatch, because a publisher silently replacing a released version is
    exactly what the lock exists to catch.
    """
    pin = find_pin(lock, document, rendition, version)
    if pin is None:
        return PinStatus.NEW
    if pin.sha256 == sha256 and pin.bytes == size:
        return PinStatus.UNCHANGED
    raise HashMismatch(
        f"{document} {rendition} version {version}",
        f"{pin.sha256} ({pin.bytes} bytes, pinned in corpus/lock.json)",
        f"{sha256} ({size} bytes)",
        "the bytes claim a version that is already pinned to other bytes; nothing was "
        "stored. If the publisher really re-issued this version, review the change and "
        "remove the old pin from lock.json by hand.",
    )


def add_pin(lock: Lock, pin: Pin) -> Lock:
    """A new lock with the pin added, sorted so the file is deterministic."""
    pins = [
        p
        for p in lock.pins
        if (p.document, p.rendition, p.version) != (pin.document, pin.rendition, pin.version)
    ]
    pins.append(pin)
    pins.sort(key=lambda p: (p.document, p.rendition, p.version))
    return Lock(pins=pins)


_SHA256SUM_LINE = re.compile(
    r"^\s*(?:SHA256\s*\((?P<n1>.+)\)\s*=\s*)?"  # BSD style: SHA256 (name) = hex
    r"(?P<hex>[0-9a-fA-F]{64})\b\s*\*?(?P<n2>\S.*)?$"  # sha256sum style: hex  name
)


def parse_published_checksums(text: str) -> dict[str, str]:
    """Checksums as publishers post them: `sha256sum` lines or BSD `SHA256 (name) = hex`.

    Returns file name -> lowercase hex. A bare digest on its own line maps from "".
    """
    result: dict[str, str] = {}
    for line in text.splitlines():
        match = _SHA256SUM_LINE.match(line)
        if not match:
            continue
        name = (match.group("n1") or match.group("n2") or "").strip()
        result[name.rsplit("/", 1)[-1]] = match.group("hex").lower()
    return result


def check_published(what: str, sha256: str, published: dict[str, str], file_name: str) -> None:
    """Raise HashMismatch unless the published list gives these bytes for this file."""
    expected = published.get(file_name) or (published.get("") if len(published) == 1 else None)
    if expected is None:
        raise HashMismatch(
            what,
            f"a published SHA-256 for {file_name}",
            "none listed",
            "the checksum file does not name this file",
        )
    if expected != sha256:
        raise HashMismatch(what, expected, sha256, "compared with the publisher's checksum file")


# --------------------------------------------------------------------------- renditions


def normalise_typography(text: str) -> str:
    """Text with only typographic differences folded away: the one definition the diff's
    typography-only class uses too (`pipeline.models.text.fold_typography`)."""
    return fold_typography(text)


def _record_texts(doc: Document, glossary: bool = True) -> dict[str, list[str]]:
    texts: dict[str, list[str]] = {}
    for rule in doc.records:
        texts[rule.id] = [
            normalise_typography(rule.title or ""),
            normalise_typography(rule.text),
            *(f"example: {normalise_typography(e)}" for e in rule.examples),
            *(f"note: {normalise_typography(n)}" for n in rule.notes),
            *(f"bullet: {normalise_typography(b)}" for b in rule.bullets),
        ]
    for term in doc.glossary if glossary else []:
        texts[term.id] = [normalise_typography(term.term), normalise_typography(term.definition)]
    return texts


# Differences between renditions a maintainer has checked by hand and found to be the
# source's, not the parser's: (document, version, the rendition lacking the part) -> the
# part it lacks, with the reason. Applied to that version only.
REVIEWED_GAPS: dict[tuple[str, str, str], tuple[str, str]] = {
    ("fab/cr", "2.10.1", "txt"): (
        "glossary",
        "the 2.10.1 text export (a derivative) lost the glossary; the rules site's pages carry "
        "its 261 terms, each checked against its page anchor in tests/parse/test_fab_html.py",
    ),
}


def reviewed_gap(doc: Document, rendition: str) -> str | None:
    """The part this rendition of this version is known to lack, if a maintainer said so."""
    gap = REVIEWED_GAPS.get((doc.document, doc.version or "", rendition))
    return gap[0] if gap else None


def compare_renditions(
    a: Document, b: Document, a_name: str = "txt", b_name: str = "pdf"
) -> list[str]:
    """Every disagreement between two renditions of one version, one line each.

    Same ids, same texts after typography-only normalisation; an empty list
    means the renditions agree record for record. A part a reviewed gap says one
    rendition lacks (REVIEWED_GAPS) is compared only where both have it.
    """
    problems: list[str] = []
    if a.version and b.version and a.version != b.version:
        problems.append(f"version: {a_name} says {a.version}, {b_name} says {b.version}")
    glossary = "glossary" not in {reviewed_gap(a, a_name), reviewed_gap(b, b_name)}
    ta, tb = _record_texts(a, glossary), _record_texts(b, glossary)
    for rid in ta:
        if rid not in tb:
            problems.append(f"{rid}: only in {a_name}")
    for rid in tb:
        if rid not in ta:
            problems.append(f"{rid}: only in {b_name}")
    for rid, parts in ta.items():
        other = tb.get(rid)
        if other is None or other == parts:
            continue
        for x, y in zip(parts, other, strict=False):
            if x != y:
                problems.append(f"{rid}: {a_name} {x[:120]!r} != {b_name} {y[:120]!r}")
                break
        else:
            problems.append(
                f"{rid}: {a_name} has {len(parts) - 1} parts, {b_name} has {len(other) - 1}"
            )
    return problems
