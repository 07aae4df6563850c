"""Read a corpus folder from Python: documents, versions, records, renumbering, provenance.

Read-only and typed. Every file is read through `pipeline.store.corpus.Corpus`, which
checks each one against the digest `index.json` records, so a caller never sees a
half-written or altered file as data.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import NotFound, UsageError
from pipeline.models.records import Document, GlossaryTerm, Passage, Rule, Ruling
from pipeline.models.sources import FetchResult
from pipeline.store import layout
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus, DocumentEntry, VersionEntry

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
    renumberings crossed on the way, oldest first."""

    asked: str
    document: str
    since: str
    version: str
    citation: str | None
    steps: tuple[Renumbered, ...] = ()
    removed_in: str | None = None


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


class CorpusReader:
    """A corpus folder opened for reading. Documents are parsed once and kept."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        if not (self.root / layout.INDEX).is_file():
            raise NotFound(
                f"a corpus at {self.root}",
                "the folder has no index.json; run `rulescorpus import` or `update` first",
            )
        self._store = Corpus(self.root)
        self._index = self._store.index()
        self._docs: dict[tuple[str, str], Document] = {}
        self._by_id: dict[tuple[str, str], dict[str, Record]] = {}

    # ------------------------------------------------------------------ documents, versions

    def _entry(self, document: str) -> DocumentEntry:
        entry = self._index.documents.get(document)
        if entry is None:
            known = ", ".join(sorted(self._index.documents)) or "none yet"
            raise NotFound(f"document {document}", f"the corpus at {self.root} has: {known}")
        return entry

    def _version(self, document: str, version: str | None) -> VersionEntry:
        entry = self._entry(document)
        wanted = version or entry.current
        item = entry.entry(wanted) if wanted else None
        if item is None:
            known = ", ".join(v.version for v in entry.versions)
            raise NotFound(f"version {wanted} of {document}", f"stored versions: {known}")
        return item

    def documents(self) -> list[DocumentInfo]:
        return [self.document_info(name) for name in sorted(self._index.documents)]

    def document_info(self, document: str) -> DocumentInfo:
        entry = self._entry(document)
        return DocumentInfo(
            id=document,
            title=entry.title,
            family=entry.family,
            current=entry.current,
            versions=tuple(self._info(document, entry, v) for v in entry.versions),
        )

    @staticmethod
    def _info(document: str, entry: DocumentEntry, v: VersionEntry) -> VersionInfo:
        return VersionInfo(
            document=document,
            version=v.version,
            status=v.status,
            current=v.version == entry.current,
            published=v.published,
            effective=v.effective,
            records=v.records,
            glossary=v.glossary,
            rulings=v.rulings,
            warnings=v.warnings,
            sha256=v.sha256,
            sources=dict(v.sources),
        )

    def versions(self, document: str) -> list[VersionInfo]:
        """Every stored version, oldest first (staged ones included, with their status)."""
        return list(self.document_info(document).versions)

    def document(self, document: str, version: str | None = None) -> Document:
        """One version (default: the current one) as the pydantic Document."""
        item = self._version(document, version)
        key = (document, item.version)
        if key not in self._docs:
            self._docs[key] = self._store.load_document(document, item.version)
        return self._docs[key]

    # ------------------------------------------------------------------ records

    def _records_by_id(self, document: str, version: str) -> dict[str, Record]:
        key = (document, version)
        if key not in self._by_id:
            doc = self.document(document, version)
            table: dict[str, Record] = {}
            for collection in (
                doc.records,
                doc.glossary,
                doc.rulings,
                doc.front_matter,
                doc.back_matter,
            ):
                for record in collection:
                    table.setdefault(record.id, record)
            self._by_id[key] = table
        return self._by_id[key]

    def record(self, document: str, citation: str, version: str | None = None) -> Record:
        """A rule, glossary term, ruling or passage by its citation id (`cr:702.19c`)."""
        item = self._version(document, version)
        found = self._records_by_id(document, item.version).get(citation)
        if found is not None:
            return found
        hint = "check the number"
        moved = self.follow(document, citation, to=item.version)
        if moved.citation and moved.citation != citation:
            hint = f"it is {moved.citation} in this version (renumbered; see follow())"
        raise NotFound(f"{citation} in {document} {item.version}", hint)

    def records(self, document: str, version: str | None = None) -> Iterator[Rule]:
        """The numbered records of a version, in document order."""
        yield from self.document(document, version).records

    def glossary(self, document: str, version: str | None = None) -> Iterator[GlossaryTerm]:
        yield from self.document(document, version).glossary

    def rulings(self, document: str, version: str | None = None) -> Iterator[Ruling]:
        yield from self.document(document, version).rulings

    # ------------------------------------------------------------------ renumbering

    def aliases(self, document: str, version: str | None = None) -> dict[str, str]:
        """The version's alias table: old citation id -> its id in this version."""
        item = self._version(document, version)
        return self._store.load_aliases(document, item.version)

    def diffs(self, document: str) -> list[tuple[str, str]]:
        """The (old, new) version pairs whose diff is stored, in the order they were made."""
        return [(d.old, d.new) for d in self._entry(document).diffs]

    def diff_data(self, document: str, old: str, new: str) -> dict[str, Any]:
        """A stored diff's JSON as written (whatever fields the diff stage stores)."""
        stored = next(
            (d for d in self._entry(document).diffs if (d.old, d.new) == (old, new)), None
        )
        if stored is None:
            pairs = ", ".join(f"{d.old}..{d.new}" for d in self._entry(document).diffs)
            raise NotFound(f"a stored diff {old}..{new} of {document}", f"stored: {pairs}")
        data: dict[str, Any] = json.loads(self._store.read_file(stored.json_file))
        return data

    def renumbering(self, document: str, old: str, new: str) -> list[Renumbered]:
        """The renumbering map (old_id -> new_id) of the stored diff between two versions."""
        return [
            Renumbered(
                old_version=old,
                new_version=new,
                old_id=str(row["old_id"]),
                new_id=str(row["new_id"]),
                method=row.get("method"),
                similarity=row.get("similarity"),
            )
            for row in self.diff_data(document, old, new).get("renumbering", [])
            if row.get("old_id") and row.get("new_id")
        ]

    def _published(self, document: str) -> list[str]:
        return [v.version for v in self._entry(document).versions if v.status == "published"]

    def follow(
        self, document: str, citation: str, *, to: str | None = None, since: str | None = None
    ) -> Followed:
        """Where `citation` lives in version `to` (default: current).

        Starts from `since` (default: the newest version before `to` that has the
        citation, or `to` itself when it has it) and crosses each stored diff's
        renumbering map, so `cr:603.2f` of 2025-07-25 becomes `cr:603.2e` of 2025-11-14."""
        target = self._version(document, to).version
        versions = self._published(document)
        if target not in versions:
            versions = [*versions, target]
        end = versions.index(target)
        if since is None:
            if citation in self._records_by_id(document, target):
                return Followed(citation, document, target, target, citation)
            alias = self._store.load_aliases(document, target).get(citation)
            starts = [
                i
                for i in range(end - 1, -1, -1)
                if citation in self._records_by_id(document, versions[i])
            ]
            if not starts:
                if alias:
                    return Followed(citation, document, target, target, alias)
                raise NotFound(f"{citation} in any stored version of {document} up to {target}")
            start = starts[0]
        else:
            origin = self._version(document, since).version
            if origin not in versions or versions.index(origin) > end:
                raise UsageError(f"follow {citation}: {origin} is not a version before {target}")
            if citation not in self._records_by_id(document, origin):
                raise NotFound(f"{citation} in {document} {origin}", "check the number")
            start = versions.index(origin)
        current: str | None = citation
        steps: list[Renumbered] = []
        for old, new in zip(versions[start:end], versions[start + 1 : end + 1], strict=True):
            assert current is not None
            try:
                moved = {r.old_id: r for r in self.renumbering(document, old, new)}
            except NotFound:
                moved = {}
            step = moved.get(current)
            if step is not None:
                steps.append(step)
                current = step.new_id
            elif current not in self._records_by_id(document, new):
                alias = self._store.load_aliases(document, new).get(current)
                if alias is None:
                    return Followed(
                        citation,
                        document,
                        versions[start],
                        target,
                        None,
                        tuple(steps),
                        removed_in=new,
                    )
                current = alias
        return Followed(citation, document, versions[start], target, current, tuple(steps))

    # ------------------------------------------------------------------ provenance

    def version_provenance(self, document: str, version: str | None = None) -> dict[str, Any]:
        """The version's provenance file (fetch records, pins, parser) as stored; {} if none."""
        item = self._version(document, version)
        return self._store.load_provenance(document, item.version) or {}

    def provenance(
        self, document: str, citation: str, version: str | None = None
    ) -> RecordProvenance:
        """Everything that says where a record came from, down to the bytes and the line."""
        item = self._version(document, version)
        doc = self.document(document, item.version)
        record = self.record(document, citation, item.version)
        fetches = tuple(
            FetchResult.model_validate(f)
            for f in self.version_provenance(document, item.version).get("fetches", [])
        )
        src = doc.source
        primary = next((f for f in fetches if src and f.sha256 == src.sha256), None)
        location = record.location.model_dump(mode="json") if record.location else {}
        return RecordProvenance(
            document=document,
            title=self._entry(document).title or doc.title,
            version=item.version,
            published=doc.published,
            effective=doc.effective,
            citation=record.id,
            url=src.url if src else None,
            sha256=src.sha256 if src else None,
            bytes=src.bytes if src else None,
            rendition=src.rendition if src else None,
            retrieved=primary.retrieved if primary else None,
            retrieved_from=primary.final_url if primary else None,
            parser_family=doc.parser.family,
            parser_version=doc.parser.version,
            engine=doc.parser.engine,
            engine_version=doc.parser.engine_version,
            location=location,
            record_sha256=sha256_of(record),
            document_sha256=sha256_of(doc),
            fetches=fetches,
        )


def open_corpus(root: Path | str) -> CorpusReader:
    """Open a corpus folder (the one `rulescorpus update` writes) for reading."""
    return CorpusReader(root)
