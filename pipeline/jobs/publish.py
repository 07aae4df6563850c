"""Store one verified version, and its diff artefacts, into a transaction. Storing only:
deciding what to diff and rendering reports is `jobs.versions`' sequence.

Shared by `update`, `import` and `accept`, so every way into the corpus stores
the same things the same way. Every file goes under a digest-named path from
`store.layout`; the index entry is what makes it part of the corpus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pipeline.errors import UsageError
from pipeline.models.diffs import DocumentDiff, RenumberingMap
from pipeline.models.index import DiffEntry, DocumentEntry, VersionEntry
from pipeline.models.records import Document
from pipeline.models.sources import FetchResult, Pin
from pipeline.store import layout
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Transaction
from pipeline.store.ids import build_id_index
from pipeline.store.ordering import version_key
from pipeline.verify.checks import add_pin

Status = Literal["published", "staged"]


@dataclass
class Candidate:
    """A parsed, verified version ready to be stored."""

    document: str
    family: str
    title: str | None
    doc: Document
    pins: list[Pin]
    fetches: list[FetchResult] = field(default_factory=list)


def provenance_of(candidate: Candidate) -> dict[str, object]:
    """Retrieval times and final URLs live here, never in the version's own JSON."""
    return {
        "document": candidate.document,
        "version": candidate.doc.version,
        "parser": candidate.doc.parser.model_dump(mode="json"),
        "fetches": [r.model_dump(mode="json") for r in candidate.fetches],
        "pins": [p.model_dump(mode="json") for p in candidate.pins],
    }


def store_version(
    tx: Transaction, candidate: Candidate, status: Status, label: str | None = None
) -> VersionEntry:
    """The version's JSON and provenance, its index entry, and (when published) its pins
    and fetch records. A version stored again keeps what only later steps set (aliases)."""
    doc = candidate.doc
    if doc.version is None:
        raise UsageError(
            f"{candidate.document}: a version without a version number cannot be stored"
        )
    version = doc.version
    staged = status == "staged"
    data = canonical_json(doc)
    file, digest = tx.put(
        lambda d: layout.version_file(candidate.document, version, d, staged=staged), data
    )
    provenance, _ = tx.put(
        lambda d: layout.provenance_file(candidate.document, version, d, staged=staged),
        canonical_json(provenance_of(candidate)),
    )
    ids, _ = tx.put(
        lambda d: layout.ids_file(candidate.document, version, d, staged=staged),
        canonical_json(build_id_index(file, data)),
    )
    entry = tx.index.documents.get(candidate.document) or DocumentEntry(
        title=candidate.title, family=candidate.family
    )
    entry.title = entry.title or candidate.title
    before = entry.entry(version)
    item = VersionEntry(
        version=version,
        file=file,
        sha256=digest,
        bytes=len(data),
        status=status,
        published=doc.published,
        effective=doc.effective,
        records=len(doc.records),
        glossary=len(doc.glossary),
        rulings=len(doc.rulings),
        warnings=len(doc.warnings),
        sources={ref.rendition: ref.sha256 for ref in doc.renditions}
        or ({doc.source.rendition: doc.source.sha256} if doc.source else {}),
        aliases=before.aliases if before is not None and not staged else None,
        provenance=provenance,
        ids=ids,
        label=label or (before.label if before is not None else None),
    )
    if not staged:
        for pin in candidate.pins:
            tx.lock = add_pin(tx.lock, pin)
        for record in candidate.fetches:
            tx.put_fetch_record(record)
        if entry.current is None or version_key(version) >= version_key(entry.current):
            entry.current = version
    entry.versions = sorted(
        [v for v in entry.versions if v.version != version] + [item],
        key=lambda v: version_key(v.version),
    )
    tx.index.documents[candidate.document] = entry
    return item


def store_aliases(
    tx: Transaction, document: str, version: str, aliases: dict[str, str]
) -> str | None:
    """The version's alias table (old citation id -> id in this version), or none."""
    item = tx.index.documents[document].entry(version)
    assert item is not None, "store the version before its aliases"
    item.aliases = None
    if aliases:
        item.aliases, _ = tx.put(
            lambda d: layout.aliases_file(document, version, d), canonical_json(aliases)
        )
    return item.aliases


def store_diff(
    tx: Transaction,
    document: str,
    result: DocumentDiff,
    markdown: str,
    html: str,
    renumbering: RenumberingMap | None = None,
) -> DiffEntry:
    """The diff's JSON, its two reports and its renumbering map; replaces an earlier diff of
    the same pair."""
    old, new = result.old_version or "", result.new_version or ""

    def put(suffix: str, data: bytes) -> str:
        relative, _ = tx.put(lambda d: layout.diff_file(document, old, new, suffix, d), data)
        return relative

    map_file = None
    if renumbering is not None:
        map_file, _ = tx.put(
            lambda d: layout.renumbering_file(document, old, new, d), canonical_json(renumbering)
        )
    entry = DiffEntry.model_validate(
        {
            "old": old,
            "new": new,
            "json": put("json", canonical_json(result)),
            "markdown": put("md", markdown.encode("utf-8")),
            "html": put("html", html.encode("utf-8")),
            "summary": dict(result.summary),
            "renumbering": map_file,
        }
    )
    doc_entry = tx.index.documents[document]
    doc_entry.diffs = [d for d in doc_entry.diffs if (d.old, d.new) != (old, new)] + [entry]
    return entry
