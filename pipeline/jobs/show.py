"""Read side of the corpus: `show` a citation with its provenance, and its `history`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pipeline.diff.models import DocumentDiff, RenumberingMap
from pipeline.diff.renumbering import lookup, map_of_diff
from pipeline.errors import NotFound, StoreError, UsageError
from pipeline.models.changes import Change
from pipeline.models.records import Document, GlossaryTerm, Rule, Ruling
from pipeline.store.corpus import Corpus, DocumentEntry, VersionEntry
from pipeline.store.ids import fits, read_span, records_by_id

Record = Rule | GlossaryTerm | Ruling


def find_record(doc: Document, citation: str) -> Record | None:
    for collection in (doc.records, doc.glossary, doc.rulings):
        for record in collection:
            if record.id == citation:
                return record
    return None


def children_of(doc: Document, citation: str) -> list[Rule]:
    return [r for r in doc.records if r.parent == citation]


@dataclass
class Shown:
    document: str
    version: str
    doc: Document
    record: Record
    children: list[Rule]
    asked: str
    renumbered_from: str | None = None
    fetches: list[dict[str, object]] = field(default_factory=list)
    title: str | None = None
    now: dict[str, object] | None = None  # an old version's record: where it lives now

    def provenance(self) -> dict[str, object]:
        src = self.doc.source
        return {
            "document": self.document,
            "title": self.title or self.doc.title,
            "version": self.version,
            "published": self.doc.published,
            "effective": self.doc.effective,
            "citation": self.record.id,
            "url": src.url if src else None,
            "sha256": src.sha256 if src else None,
            "bytes": src.bytes if src else None,
            "rendition": src.rendition if src else None,
            "renditions": [r.model_dump(mode="json") for r in self.doc.renditions],
            "parser": self.doc.parser.model_dump(mode="json"),
            "fetches": self.fetches,
        }

    def as_json(self) -> dict[str, object]:
        return {
            "asked": self.asked,
            "renumbered_from": self.renumbered_from,
            "record": self.record.model_dump(mode="json", by_alias=True),
            "children": [c.model_dump(mode="json") for c in self.children],
            "provenance": self.provenance(),
            "now": self.now,
        }


def _documents_with(corpus: Corpus, citation: str) -> list[str]:
    found = []
    for name in sorted(corpus.index().documents):
        try:
            doc = corpus.load_document(name)
        except NotFound:
            continue
        if find_record(doc, citation) is not None:
            found.append(name)
    return found


def show(
    corpus: Corpus, citation: str, document: str | None = None, version: str | None = None
) -> Shown:
    if document is None:
        candidates = _documents_with(corpus, citation)
        if not candidates:
            raise NotFound(f"{citation}", "no stored document has it; pass --doc to be specific")
        if len(candidates) > 1:
            raise UsageError(f"{citation} exists in {', '.join(candidates)}; pass --doc to choose")
        document = candidates[0]
    doc = corpus.load_document(document, version)
    assert doc.version is not None
    record = find_record(doc, citation)
    renumbered_from = None
    if record is None:
        target = corpus.load_aliases(document, doc.version).get(citation)
        if target is not None:
            record = find_record(doc, target)
            renumbered_from = citation
    if record is None:
        raise NotFound(
            f"{citation} in {document} {doc.version}",
            "check the number, or try `rulescorpus history` for older versions",
        )
    provenance = corpus.load_provenance(document, doc.version) or {}
    fetches: list[dict[str, object]] = list(provenance.get("fetches", []))
    return Shown(
        document,
        doc.version,
        doc,
        record,
        children_of(doc, record.id),
        citation,
        renumbered_from,
        fetches,
        corpus.document_entry(document).title,
        lives_now(corpus, document, doc.version, record.id),
    )


def lives_now(
    corpus: Corpus, document: str, version: str, citation: str
) -> dict[str, object] | None:
    """For a record of an older version: where the renumbering map says it is in the current
    version (status, id, and how it changed); None for the current version itself."""
    from pipeline.jobs.renumbering import where_now

    found = where_now(corpus, document, version, citation)
    if found is None:
        return None
    entry = found.entry
    return {
        "version": corpus.document_entry(document).current,
        "status": found.status,
        "id": found.new_id,
        "ids": list(entry.new_ids) if entry is not None and entry.new_ids else None,
        "class": entry.cls if entry is not None else "unchanged",
        "text_change": entry.text_change if entry is not None else None,
        "weak": entry.weak if entry is not None else False,
    }


def record_provenance(corpus: Corpus, shown: Shown) -> dict[str, object]:
    """`show --provenance`: the record's bytes down to its lines (URL, SHA-256, size,
    retrieval, rendition, parser, extraction engine and version, line and page span and
    character offsets) and the SHA-256 of the record's and of the document's canonical JSON."""
    from pipeline.corpus.reader import CorpusReader

    reader = CorpusReader(corpus.root)
    return reader.provenance(shown.document, shown.record.id, shown.version).as_dict()


# --------------------------------------------------------------------------- history


@dataclass
class HistoryStep:
    version: str
    citation: str | None
    text: str | None
    change: str = ""


def stored_diff(corpus: Corpus, entry: DocumentEntry, old: str, new: str) -> DocumentDiff | None:
    """The diff an update stored for this pair of versions, if it made one."""
    stored = next((d for d in entry.diffs if (d.old, d.new) == (old, new)), None)
    if stored is None:
        return None
    return DocumentDiff.model_validate_json(corpus.read_file(stored.json_file))


def pair_diff(
    corpus: Corpus, entry: DocumentEntry, document: str, old: str, new: str
) -> DocumentDiff:
    """The diff between two stored versions: the stored one when an update made it, else now."""
    if (stored := stored_diff(corpus, entry, old, new)) is not None:
        return stored
    from pipeline.jobs.versions import diff_versions  # the diff engine, only when needed

    return diff_versions(
        entry.family, corpus.load_document(document, old), corpus.load_document(document, new)
    )


def _text_of(record: Record | None) -> str | None:
    if record is None:
        return None
    if isinstance(record, GlossaryTerm):
        return record.definition
    if isinstance(record, Ruling):
        return record.answer or record.text
    return record.text if record.text or record.title is None else record.title


def _change_for(diff: DocumentDiff, old_id: str | None, new_id: str | None) -> Change | None:
    for change in diff.changes:
        if (new_id and (change.new_id == new_id or new_id in change.new_ids)) or (
            old_id and (change.old_id == old_id or old_id in change.old_ids)
        ):
            return change
    return None


def _came_from(rmap: RenumberingMap, new_id: str) -> str | None:
    """The old id the map sends to `new_id`: its pairing, else the same number unless that
    number's old rule went elsewhere (or the new one was added): then nothing."""
    for e in rmap.entries:
        if e.new_id == new_id or new_id in e.new_ids:
            return e.old_id
    moved_away = {e.old_id for e in rmap.entries if e.new_id != e.old_id}
    return None if new_id in moved_away or new_id in rmap.added else new_id


_MODELS: dict[str, type[Record]] = {"records": Rule, "glossary": GlossaryTerm, "rulings": Ruling}


class RecordIndex:
    """A stored version's records by id: a record is read (through the version's id index,
    only its own bytes) and becomes a model only when asked for; history wants a few
    records of every version, not every record. A version stored before id indexes
    existed is read whole with the json module."""

    def __init__(self, corpus: Corpus, item: VersionEntry) -> None:
        self.corpus, self.item = corpus, item
        self.ids: dict[str, list[Any]] = {}
        self.raw: dict[str, tuple[str, dict[str, Any]]] = {}
        if item.ids is not None:
            index = json.loads(corpus.read_file(item.ids))
            if fits(index, item.file, item.sha256):
                self.ids = index["ids"]
                return
        self.raw = records_by_id(json.loads(corpus.read_file(item.file, item.sha256)))

    def get(self, citation: str | None) -> Record | None:
        if not citation:
            return None
        if entry := self.ids.get(citation):
            with (self.corpus.root / self.item.file).open("rb") as handle:
                record = read_span(handle, citation, entry)
            if record is None:
                raise StoreError(
                    f"{self.item.file} does not hold the bytes its id index names for "
                    f"{citation}; run `rulescorpus verify`"
                )
            return _MODELS[entry[0]].model_validate(record)
        found = self.raw.get(citation)
        return _MODELS[found[0]].model_validate(found[1]) if found else None


def record_index(corpus: Corpus, document: str, version: str) -> RecordIndex:
    return RecordIndex(corpus, corpus.version_entry(document, version))


def history(corpus: Corpus, citation: str, document: str) -> list[HistoryStep]:
    """The record in every stored version, following renumbering both ways from the newest
    version that has the citation (or an alias of it)."""
    entry = corpus.document_entry(document)
    versions = [v.version for v in entry.versions if v.status == "published"]
    docs = {v: record_index(corpus, document, v) for v in versions}
    anchor = next(
        (i for i in range(len(versions) - 1, -1, -1) if docs[versions[i]].get(citation)),
        None,
    )
    if anchor is None:
        for i in range(len(versions) - 1, -1, -1):
            alias = corpus.load_aliases(document, versions[i]).get(citation)
            if alias:
                anchor, citation = i, alias
                break
    if anchor is None:
        raise NotFound(f"{citation} in any stored version of {document}")
    ids: dict[str, str | None] = {versions[anchor]: citation}
    changes: dict[str, str] = {}
    for i in range(anchor, 0, -1):  # backwards: new id -> old id
        new_v, old_v = versions[i], versions[i - 1]
        diff = pair_diff(corpus, entry, document, old_v, new_v)
        current = ids[new_v]
        old_id = _came_from(map_of_diff(diff), current) if current else None
        ids[old_v] = old_id if old_id and docs[old_v].get(old_id) else None
        change = _change_for(diff, ids[old_v], current)
        changes[new_v] = change.cls if change else ("unchanged" if ids[old_v] else "added")
    for i in range(anchor, len(versions) - 1):  # forwards: old id -> new id
        old_v, new_v = versions[i], versions[i + 1]
        diff = pair_diff(corpus, entry, document, old_v, new_v)
        current = ids[old_v]
        new_id = lookup(map_of_diff(diff), current).new_id if current else None
        ids[new_v] = new_id if new_id and docs[new_v].get(new_id) else None
        change = _change_for(diff, current, ids[new_v])
        changes[new_v] = change.cls if change else ("unchanged" if ids[new_v] else "removed")
    steps = []
    for v in versions:
        rid = ids.get(v)
        record = docs[v].get(rid)
        steps.append(HistoryStep(v, rid, _text_of(record), changes.get(v, "first stored")))
    return steps
