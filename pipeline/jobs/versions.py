"""Adding one version to the corpus: store it, diff it against the version before it, render
the reports, store those and the alias table. The one sequence `update`, `import` and
`accept` share, so every way in produces the same artefacts."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.diff.documents import diff_documents
from pipeline.diff.keyed import compare_with_alignment
from pipeline.diff.models import DocumentDiff, KeyDisagreement
from pipeline.diff.reconcile import reconcile
from pipeline.diff.renumbering import map_of_diff
from pipeline.diff.rulings import diff_rulings
from pipeline.errors import UsageError
from pipeline.jobs.publish import Candidate, Status, store_aliases, store_diff, store_version
from pipeline.jobs.show import stored_diff
from pipeline.models.records import Document
from pipeline.report.html import render_html
from pipeline.report.markdown import render_markdown
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus, Transaction, version_key

DIFF_FORMATS = ("md", "html", "json")  # the diff command's --format choices


@dataclass
class Published:
    document: str
    version: str
    status: str
    diff: DocumentDiff | None = None
    previous: str | None = None
    older_than: str | None = None  # the current version, when this one is older than it


def diff_versions(
    family: str, old: Document, new: Document, min_similarity: float | None = None
) -> DocumentDiff:
    """The diff between two stored versions, reconciled with the publisher's change list
    (`min_similarity`: see `diff_documents`; None keeps the defaults)."""
    if family == "nrdb-rulings":
        return diff_rulings(old, new)
    result = diff_documents(old, new, min_similarity=min_similarity)
    if any(r.key for r in old.records) and any(r.key for r in new.records):
        # Paired by key (exact by construction); say where content alone would not have.
        content = diff_documents(old, new, min_similarity=min_similarity, by_key=False)
        checked = compare_with_alignment(old, new, content)
        result = result.model_copy(
            update={
                "key_disagreements": [
                    KeyDisagreement.model_validate(d, from_attributes=True)
                    for d in checked.disagreements
                ]
            }
        )
    if new.publisher_changes:
        result = result.model_copy(
            update={"reconciliation": reconcile(new.publisher_changes, result)}
        )
    return result


def render_diff(
    corpus: Corpus,
    document: str,
    old: str,
    new: str,
    *,
    format: str = "md",
    min_similarity: float | None = None,
    hide_renumbering: bool = False,
    hide_reference_only: bool = False,
) -> bytes:
    """`diff`'s output: the changes between two stored versions (any two) as Markdown, HTML
    or canonical JSON (DIFF_FORMATS). The stored diff of a pair an update diffed, unless
    `min_similarity` asks for a fresh one."""
    if format not in DIFF_FORMATS:
        raise UsageError(f"unknown diff format {format!r}; known: {', '.join(DIFF_FORMATS)}")
    entry = corpus.document_entry(document)
    old_doc, new_doc = corpus.load_document(document, old), corpus.load_document(document, new)
    # Both documents are rendered anyway, so a diff made now reuses them.
    result = stored_diff(corpus, entry, old, new) if min_similarity is None else None
    if result is None:
        result = diff_versions(entry.family, old_doc, new_doc, min_similarity)
    if format == "json":
        return canonical_json(result)
    render = render_html if format == "html" else render_markdown
    shown = render(
        result,
        old_doc,
        new_doc,
        hide_renumbering=hide_renumbering,
        hide_reference_only=hide_reference_only,
    )
    return shown.encode("utf-8")


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


def previous_version(tx: Transaction, document: str, version: str) -> str | None:
    """The newest published version before `version`, when `version` is the newest one
    (a backfilled older version is stored without a diff: history is built oldest first)."""
    entry = tx.index.documents.get(document)
    if entry is None:
        return None
    if entry.current is not None and version_key(version) < version_key(entry.current):
        return None
    older = [
        v.version
        for v in entry.versions
        if v.status == "published" and version_key(v.version) < version_key(version)
    ]
    return max(older, key=version_key) if older else None


def add_version(
    tx: Transaction, candidate: Candidate, status: Status = "published", label: str | None = None
) -> Published:
    """Store the candidate and, when published, its diff from the version before it. A
    version older than the current one is stored beside it and never becomes current."""
    previous = previous_version(tx, candidate.document, candidate.doc.version or "")
    current = tx.index.documents.get(candidate.document)
    before = current.current if current is not None else None
    item = store_version(tx, candidate, status, label)
    result = Published(candidate.document, item.version, status)
    older = before is not None and version_key(item.version) < version_key(before)
    if status == "published" and older:
        result.older_than = before
    if status != "published" or previous is None:
        return result
    old = tx.load_document(candidate.document, previous)
    new = candidate.doc
    result.diff = diff_versions(candidate.family, old, new)
    result.previous = previous
    store_diff(
        tx,
        candidate.document,
        result.diff,
        render_markdown(result.diff, old, new),
        render_html(result.diff, old, new),
        map_of_diff(result.diff),
    )
    aliases = compose_aliases(
        tx.load_aliases(candidate.document, previous), result.diff, record_ids(new)
    )
    store_aliases(tx, candidate.document, item.version, aliases)
    return result
