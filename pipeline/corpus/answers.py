"""What the Python API answers with: frozen dataclasses over the stored JSON."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any

from pipeline.models.records import Document, GlossaryTerm, Passage, Rule, Ruling
from pipeline.models.sources import FetchResult
from pipeline.store.canonical import canonical_json

Record = Rule | GlossaryTerm | Ruling | Passage


@dataclass(frozen=True)
class VersionInfo:
    """One stored version of a document, as index.json lists it."""

    document: str
    version: str
    status: str
    current: bool
    published: str | None
    effective: str | None
    records: int
    glossary: int
    rulings: int
    warnings: int
    sha256: str  # of the version's canonical JSON file
    sources: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DocumentInfo:
    id: str
    title: str | None
    family: str
    current: str | None
    versions: tuple[VersionInfo, ...]


@dataclass(frozen=True)
class Renumbered:
    """One entry of a stored diff's renumbering map."""

    old_version: str
    new_version: str
    old_id: str
    new_id: str
    method: str | None = None
    similarity: float | None = None


@dataclass(frozen=True)
class Followed:
    """Where a citation lives in a version, following the renumbering map forward.

    `citation` is None when the record was removed (in `removed_in`); `steps` are the
    renumberings crossed on the way, oldest first; `citations` every id it lives at (a
    split leaves several; `citation` is the first)."""

    asked: str
    document: str
    since: str
    version: str
    citation: str | None
    steps: tuple[Renumbered, ...] = ()
    removed_in: str | None = None
    citations: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecordProvenance:
    """Which bytes a record came from, and digests to prove the JSON is what was stored.

    `engine` and `engine_version` are what extracted the text (the Document's `parser`);
    `location` is the record's Location as stored: first and last line (`line`,
    `end_line`), first and last page for PDFs, and `char_start`/`char_end` in the
    extracted text (README, "Record contract"); None where the family does not read lines.
    """

    document: str
    title: str | None
    version: str
    published: str | None
    effective: str | None
    citation: str
    url: str | None
    sha256: str | None
    bytes: int | None
    rendition: str | None
    retrieved: str | None
    retrieved_from: str | None
    parser_family: str
    parser_version: str
    engine: str | None
    engine_version: str | None
    location: dict[str, Any]
    record_sha256: str
    document_sha256: str
    fetches: tuple[FetchResult, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["fetches"] = [f.model_dump(mode="json") for f in self.fetches]
        return data


def sha256_of(value: Record | Document) -> str:
    """SHA-256 of a record's or a document's canonical JSON (the corpus's one serialisation)."""
    return hashlib.sha256(canonical_json(value)).hexdigest()
