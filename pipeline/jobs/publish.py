"""Store one verified version into a transaction: the JSON, its pins, its diff, its aliases.

Shared by `update`, `import` and `accept`, so every way into the corpus stores
the same things the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pipeline.diff.documents import diff_documents
from pipeline.diff.reconcile import reconcile
from pipeline.diff.rulings import diff_rulings
from pipeline.errors import UsageError
from pipeline.models import Document, DocumentDiff, FetchResult, Pin
from pipeline.report.render import render_html, render_markdown
from pipeline.store.corpus import (
    DiffEntry,
    DocumentEntry,
    Transaction,
    VersionEntry,
    canonical_json,
    document_dir,
    version_key,
)
from pipeline.verify.checks import add_pin


@dataclass
class Candidate:
    """A parsed, verified version ready to be stored."""

    document: str
    family: str
    title: str | None
    doc: Document
    pins: list[Pin]
    fetches: list[FetchResult] = field(default_factory=list)


@dataclass
class Published:
    document: str
    version: str
    status: str
    diff: DocumentDiff | None = None
    previous: str | None = None


def diff_versions(family: str, old: Document, new: Document) -> DocumentDiff:
    """The diff between two stored versions, reconciled with the publisher's change list."""
    if family == "nrdb-rulings":
        return diff_rulings(old, new)
    result = diff_documents(old, new)
    if new.publisher_changes:
        result = result.model_copy(
            update={"reconciliation": reconcile(new.publisher_changes, result)}
        )
    return result


def compose_aliases(
    previous: dict[str, str], result: DocumentDiff, new_ids: set[str]
) -> dict[str, str]:
    """Old citation ids (of any earlier version) -> the id that carries them in the new version."""
    step = {entry.old_id: entry.new_id for entry in result.renumbering}
    aliases: dict[str, str] = {}
    for old, via in previous.items():
        target = step.get(via, via)
        if target in new_ids and old not in new_ids:
            aliases[old] = target
    for old, new in step.items():
        if old not in new_ids and new in new_ids:
            aliases[old] = new
    return dict(sorted(aliases.items()))


def record_ids(doc: Document) -> set[str]:
    return {r.id for r in doc.records} | {g.id for g in doc.glossary} | {r.id for r in doc.rulings}


def publish_version(
    tx: Transaction,
    candidate: Candidate,
    *,
    status: Literal["published", "staged"] = "published",
) -> Published:
    """Add the candidate to the transaction; the caller commits."""
    doc = candidate.doc
    if doc.version is None:
        raise UsageError(
            f"{candidate.document}: a version without a version number cannot be stored"
        )
    version = doc.version
    base = document_dir(candidate.document)
    folder = base if status == "published" else f"staged/{base}"
    file = f"{folder}/{version}.json"
    digest = tx.put(file, canonical_json(doc))
    entry = tx.index.documents.get(candidate.document) or DocumentEntry(
        title=candidate.title, family=candidate.family
    )
    entry.title = entry.title or candidate.title
    item = VersionEntry(
        version=version,
        file=file,
        sha256=digest,
        status=status,
        published=doc.published,
        effective=doc.effective,
        records=len(doc.records),
        glossary=len(doc.glossary),
        rulings=len(doc.rulings),
        warnings=len(doc.warnings),
        sources={ref.rendition: ref.sha256 for ref in doc.renditions}
        or ({doc.source.rendition: doc.source.sha256} if doc.source else {}),
    )
    result = Published(candidate.document, version, status)
    if status == "published":
        for pin in candidate.pins:
            tx.lock = add_pin(tx.lock, pin)
        for record in candidate.fetches:
            tx.put_fetch_record(record)
        current = entry.current
        if (
            current is not None
            and current != version
            and version_key(version) > version_key(current)
        ):
            old = tx.corpus.load_document(candidate.document, current)
            result.diff = diff_versions(candidate.family, old, doc)
            result.previous = current
            entry.diffs = [d for d in entry.diffs if (d.old, d.new) != (current, version)]
            entry.diffs.append(_store_diff(tx, base, old, doc, result.diff))
            aliases = compose_aliases(
                tx.corpus.load_aliases(candidate.document, current), result.diff, record_ids(doc)
            )
            if aliases:
                item.aliases = f"{base}/aliases/{version}.json"
                tx.put(item.aliases, canonical_json(aliases))
        if current is None or version_key(version) >= version_key(current):
            entry.current = version
    entry.versions = sorted(
        [v for v in entry.versions if v.version != version] + [item],
        key=lambda v: version_key(v.version),
    )
    tx.index.documents[candidate.document] = entry
    return result


def _store_diff(
    tx: Transaction, base: str, old: Document, new: Document, result: DocumentDiff
) -> DiffEntry:
    stem = f"{base}/diffs/{old.version}..{new.version}"
    tx.put(f"{stem}.json", canonical_json(result))
    tx.put(f"{stem}.md", render_markdown(result, old, new).encode("utf-8"))
    tx.put(f"{stem}.html", render_html(result, old, new).encode("utf-8"))
    return DiffEntry.model_validate(
        {
            "old": result.old_version,
            "new": result.new_version,
            "json": f"{stem}.json",
            "markdown": f"{stem}.md",
            "html": f"{stem}.html",
            "summary": dict(result.summary),
        }
    )
