"""Read a corpus folder from Python: documents, versions, records, show, history, follow,
renumbering, lineages, provenance and search.

Read-only and typed. Every file is checked against the digest `index.json` records for
it (its name, or the id index's digest of a record's own bytes), so a caller never sees
a half-written or altered file as data. The answers come from `store.reader` and
`lookup` (show, the one lineage, search), which read with json alone; this class makes
them models.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pipeline.corpus.answers import (
    DocumentInfo,
    Followed,
    Record,
    RecordProvenance,
    Renumbered,
    VersionInfo,
    sha256_of,
)
from pipeline.corpus.diffs import load_document, stored_diff
from pipeline.corpus.renumbering import lineages_of, lives_now
from pipeline.corpus.renumbering import renumbering as renumbering_map
from pipeline.corpus.shown import Shown
from pipeline.diff.citations import parse_citation
from pipeline.errors import NotFound, UsageError
from pipeline.lookup.lineage import HistoryStep, Step
from pipeline.lookup.search import Hit, search_corpus
from pipeline.lookup.show import history_of, ident_in, shown_json
from pipeline.models.diffs import DocumentDiff, RenumberingMap
from pipeline.models.index import INDEX_FORMAT, DocumentEntry, Index, VersionEntry
from pipeline.models.records import Document, GlossaryTerm, Rule, Ruling
from pipeline.models.sources import FetchResult
from pipeline.store.corpus import index_model
from pipeline.store.reader import StoredCorpus

# The dataclasses lived here first; code that imports them from this module keeps working.
__all__ = [
    "CorpusReader",
    "DocumentInfo",
    "Followed",
    "Record",
    "RecordProvenance",
    "Renumbered",
    "VersionInfo",
    "open_corpus",
    "sha256_of",
]

_MODELS: dict[str, type[Rule | GlossaryTerm | Ruling]] = {
    "records": Rule,
    "glossary": GlossaryTerm,
    "rulings": Ruling,
}


class CorpusReader:
    """A corpus folder opened for reading. A record is read from its own bytes through
    the version's id index; a whole Document only when asked for, then kept.

    Everything is read through one `StoredCorpus` (index.json read once, every other file
    on demand); this class makes its answers models."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        # NotFound when the folder has no index.json, StoreError when it is of another format
        self.stored = StoredCorpus(self.root, expected_format=INDEX_FORMAT)
        self._entries: dict[str, DocumentEntry] = {}
        self._docs: dict[tuple[str, str], Document] = {}
        self._lineages = lineages_of(self.stored)

    # ------------------------------------------------------------------ documents, versions

    def _entry(self, document: str) -> DocumentEntry:
        if document not in self._entries:
            self._entries[document] = DocumentEntry.model_validate(self.stored.entry(document))
        return self._entries[document]

    def _version(self, document: str, version: str | None) -> VersionEntry:
        return VersionEntry.model_validate(self.stored.item(document, version))

    def index(self) -> Index:
        """The whole index.json as its model, validated (StoreError when it is not one)."""
        return index_model(self.stored)

    def documents(self) -> list[DocumentInfo]:
        return [self.document_info(name) for name in self.stored.documents()]

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
            self._docs[key] = load_document(self.stored, document, item.version)
        return self._docs[key]

    # ------------------------------------------------------------------ records

    def _model(self, document: str, version: str, citation: str) -> Record | None:
        """One record made a model from its own bytes (the id index), never the document."""
        here = self.stored.version(document, version)
        raw = here.record(citation)
        if raw is None:
            return None
        return _MODELS[here.kind(citation) or "records"].model_validate(raw)

    def record(self, document: str, citation: str, version: str | None = None) -> Record:
        """A rule, glossary term, ruling or passage by its citation, written as people
        write it (`cr:702.19c`, `702.19C`, `CR 702.19c`, `rule 702.19c`, `Trample`)."""
        item = self._version(document, version)
        asked = parse_citation(citation)
        ident = ident_in(self.stored.version(document, item.version), asked)
        found = self._model(document, item.version, ident) if ident else None
        if found is None and asked.ident is not None:
            found = self._passages(document, item.version).get(asked.ident)
        if found is not None:
            return found
        hint = "check the number"
        try:
            moved = self.follow(document, citation, to=item.version)
        except NotFound:
            moved = None
        if moved is not None and moved.citation and moved.citation != citation:
            hint = f"it is {moved.citation} in this version (renumbered; see follow())"
        raise NotFound(f"{citation} in {document} {item.version}", hint)

    def _passages(self, document: str, version: str) -> dict[str, Record]:
        """Front and back matter: not in the id index, so read with the document."""
        doc = self.document(document, version)
        return {p.id: p for p in [*doc.front_matter, *doc.back_matter]}

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
        return self.stored.aliases(document, item.version)

    def diffs(self, document: str) -> list[tuple[str, str]]:
        """The (old, new) version pairs whose diff is stored, in the order they were made."""
        return [(d.old, d.new) for d in self._entry(document).diffs]

    def diff_data(self, document: str, old: str, new: str) -> dict[str, Any]:
        """A stored diff's JSON as written (whatever fields the diff stage stores)."""
        entry = self.stored.diff_entry(document, old, new)
        if entry is None:
            pairs = ", ".join(f"{d.old}..{d.new}" for d in self._entry(document).diffs)
            raise NotFound(f"a stored diff {old}..{new} of {document}", f"stored: {pairs}")
        data: dict[str, Any] = json.loads(self.stored.read(entry["json"]))
        return data

    def diff(self, document: str, old: str, new: str) -> DocumentDiff:
        """The diff an update stored for two versions, as its model."""
        self.diff_data(document, old, new)  # NotFound, naming the stored pairs
        found = stored_diff(self.stored, document, old, new)
        assert found is not None
        return found

    def moves(self, document: str, old: str, new: str) -> list[Renumbered]:
        """The pairs the stored diff of two consecutive versions renumbered (its own
        `renumbering` list, as stored)."""
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

    def renumbering(self, document: str, old: str, new: str | None = None) -> RenumberingMap:
        """Where every record of `old` lives in `new` (default: current): the map the
        `renumbering` command prints, each record followed along the one lineage."""
        return renumbering_map(self.stored, document, old, new, self._lineages)

    def lineage_step(self, document: str, old: str, new: str) -> Step:
        """The lineage table of two consecutive published versions (built once)."""
        return self._lineages.step(document, old, new)

    def follow(
        self, document: str, citation: str, *, to: str | None = None, since: str | None = None
    ) -> Followed:
        """Where `citation` lives in version `to` (default: current).

        Starts from `since` (default: the newest version up to `to` that has the
        citation, or whose alias table names it) and crosses each stored diff's
        renumbering map, so `cr:603.2f` of 2025-07-25 becomes `cr:603.2e` of
        2025-11-14. A split gives several `citations`; `citation` is the first."""
        target = self._version(document, to).version
        if since is None:
            start, ident = self._lineages.anchor(document, citation, upto=target)
        else:
            start = self._version(document, since).version
            versions = self.stored.published(document)
            known = start in versions and target in versions
            if known and versions.index(start) > versions.index(target):
                raise UsageError(f"follow {citation}: {start} is not a version before {target}")
            if not self.stored.version(document, start).has(citation):
                raise NotFound(f"{citation} in {document} {start}", "check the number")
            ident = citation
        trail = self._lineages.follow(document, ident, start, target)
        steps = tuple(
            Renumbered(c.old_version, c.new_version, c.old_id, new_id, c.method, c.similarity)
            for c in trail.crossed
            for new_id in c.new_ids
        )
        if ident != citation:  # named by an alias table: the renumbering is that table's
            steps = (Renumbered(start, start, citation, ident, "alias"), *steps)
        return Followed(
            citation,
            document,
            start,
            target,
            trail.ids[0] if trail.ids else None,
            steps,
            removed_in=trail.removed_in,
            citations=trail.ids,
        )

    def history(self, document: str, citation: str) -> list[HistoryStep]:
        """The record in every published version, following renumbering both ways from the
        newest version that holds it; each version's id index and map, never the document."""
        return history_of(self._lineages, document, citation)

    def show(self, citation: str, document: str | None = None, version: str | None = None) -> Shown:
        """`show`'s answer: the record with its subrules and provenance, found by a citation
        as people write it, in `document` (default: the one document that has it)."""
        return Shown.of(shown_json(self._lineages, citation, document, version, lives_now))

    def search(
        self,
        words: str,
        *,
        document: str | None = None,
        version: str | None = None,
        limit: int = 20,
    ) -> list[Hit]:
        """Records whose text, title, examples, notes, term or ruling hold every word,
        best first, in the current version of each document (or `document`/`version`)."""
        return search_corpus(self.stored, words, document=document, version=version, limit=limit)

    # ------------------------------------------------------------------ provenance

    def version_provenance(self, document: str, version: str | None = None) -> dict[str, Any]:
        """The version's provenance file (fetch records, pins, parser) as stored; {} if none."""
        item = self._version(document, version)
        return self.stored.provenance(document, item.version)

    def provenance(
        self, document: str, citation: str, version: str | None = None
    ) -> RecordProvenance:
        """Everything that says where a record came from, down to the bytes and the line."""
        item = self._version(document, version)
        head = self.stored.version(document, item.version).head
        record = self.record(document, citation, item.version)
        fetches = tuple(
            FetchResult.model_validate(f)
            for f in self.version_provenance(document, item.version).get("fetches", [])
        )
        src = head.get("source") or {}
        primary = next((f for f in fetches if src and f.sha256 == src.get("sha256")), None)
        location = record.location.model_dump(mode="json") if record.location else {}
        parser = head.get("parser") or {}
        return RecordProvenance(
            document=document,
            title=self._entry(document).title or head.get("title"),
            version=item.version,
            published=head.get("published"),
            effective=head.get("effective"),
            citation=record.id,
            url=src.get("url"),
            sha256=src.get("sha256"),
            bytes=src.get("bytes"),
            rendition=src.get("rendition"),
            retrieved=primary.retrieved if primary else None,
            retrieved_from=primary.final_url if primary else None,
            parser_family=str(parser.get("family")),
            parser_version=str(parser.get("version")),
            engine=parser.get("engine"),
            engine_version=parser.get("engine_version"),
            location=location,
            record_sha256=sha256_of(record),
            document_sha256=item.sha256,  # the stored file is the version's canonical JSON
            fetches=fetches,
        )


def open_corpus(root: Path | str) -> CorpusReader:
    """Open a corpus folder (the one `rulescorpus update` writes) for reading."""
    return CorpusReader(root)
