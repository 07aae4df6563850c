"""Known defects in the publishers' own documents, reviewed by a person (`errata.toml`).

Three checks find such defects: a reference that names no rule in the same document
(`REVIEWED`); the extraction-artefact lint (`ARTEFACTS`, see parse/lint.py), text that no
publisher prints on purpose; and the NSG generator's reading of a YAML source
(`SOURCE_DEFECTS`), what it would not print or would print other than its author meant.
A citation the publisher misprinted is read as meant (`CITATION_SLIPS`).
Once a maintainer has confirmed from the bytes that the defect is the publisher's, it is
listed in errata.toml with the reason, and recorded in `Document.publisher_errata` with
it. The entries name the versions each was reviewed in, but a review holds wherever the
same record's field has the very text it was reviewed in (`REVIEWED_TEXTS`, by
`text_digest`), in any later release, and lapses as soon as the publisher changes that
text; a source defect is matched by its problem, key and detail. An unreviewed finding
is a publisher note or a warning, by its kind (parse/lint.py). Tests check that each
entry still occurs (and that a cited target is really absent).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, TypeVar

Entries = dict[tuple[str, str], str]  # (record id, cited id) -> reason
# (lint code, record id, field, exact offending text) -> reason
Artefacts = dict[tuple[str, str, str, str], str]
K = TypeVar("K")


@dataclass(frozen=True)
class SourceDefect:
    """A defect of a publisher's YAML source the NSG generator reads (parse/nsg)."""

    code: str
    key: str
    contains: str  # a piece of the problem's detail
    cites: str  # what the erratum names (the offending piece of the source)
    reason: str


@dataclass(frozen=True)
class CitationSlip:
    """A citation the publisher misprinted, and the number meant (parse/swu)."""

    document: str
    printed: str  # the citation as printed
    reading: str  # the number the publisher meant
    reason: str


_TABLE: dict[str, list[dict[str, Any]]] = tomllib.loads(
    files(__package__).joinpath("errata.toml").read_text("utf-8")
)


def _load() -> tuple[
    dict[tuple[str, str], Entries],
    dict[tuple[str, str], Artefacts],
    dict[tuple[str, str, str], frozenset[str]],
]:
    """The entries of errata.toml, by (document, version), and the texts each was seen in."""
    reviewed: dict[tuple[str, str], Entries] = {}
    artefacts: dict[tuple[str, str], Artefacts] = {}
    texts: dict[tuple[str, str, str], set[str]] = {}
    for entry in _TABLE.get("reference", []) + _TABLE.get("artefact", []):
        document, record, field = entry["document"], entry["record"], entry["field"]
        texts.setdefault((document, record, field), set()).update(entry["digests"])
        for version in entry["versions"]:
            if "cites" in entry:
                found = reviewed.setdefault((document, version), {})
                found[(record, entry["cites"])] = entry["reason"]
            else:
                listed = artefacts.setdefault((document, version), {})
                listed[(entry["code"], record, field, entry["text"])] = entry["reason"]
    return reviewed, artefacts, {key: frozenset(seen) for key, seen in texts.items()}


# (document, version) -> the defects and the lint findings reviewed in that version; (document,
# record id, field) -> the text_digest of every text of that field a finding was reviewed in
REVIEWED, ARTEFACTS, REVIEWED_TEXTS = _load()
SOURCE_DEFECTS = tuple(SourceDefect(**entry) for entry in _TABLE.get("source_defect", []))
CITATION_SLIPS = tuple(CitationSlip(**entry) for entry in _TABLE.get("citation_slip", []))


def known_source_defect(code: str, key: str | None, detail: str) -> SourceDefect | None:
    """The reviewed entry for this problem of an NSG YAML source, when it is a known defect
    (a later release that keeps the defect is matched too)."""
    for defect in SOURCE_DEFECTS:
        if defect.code == code and defect.key == key and defect.contains in detail:
            return defect
    return None


def known_dangling(document: str, record: str, field: str, cited: str, digest: str) -> str | None:
    """The reviewed reason, when this dangling reference is a known defect of the document,
    found in a text (by its digest) it was reviewed in."""
    if digest not in REVIEWED_TEXTS.get((document, record, field), frozenset()):
        return None
    return _DANGLING_BY_DOCUMENT.get(document, {}).get((record, cited))


def _by_document(table: dict[tuple[str, str], dict[K, str]]) -> dict[str, dict[K, str]]:
    """The findings reviewed in any version of each document (one reason per finding)."""
    merged: dict[str, dict[K, str]] = {}
    for (document, _), entries in table.items():
        for key, reason in entries.items():
            assert merged.setdefault(document, {}).setdefault(key, reason) == reason, key
    return merged


_ARTEFACTS_BY_DOCUMENT = _by_document(ARTEFACTS)
_DANGLING_BY_DOCUMENT = _by_document(REVIEWED)


def known_artefact(
    document: str, code: str, record: str, field: str, text: str, digest: str
) -> str | None:
    """The reviewed reason, when this lint finding is the publisher's own: listed for the
    document, in a text (by its digest) it was reviewed in."""
    if digest not in REVIEWED_TEXTS.get((document, record, field), frozenset()):
        return None
    return _ARTEFACTS_BY_DOCUMENT.get(document, {}).get((str(code), record, field, text))
