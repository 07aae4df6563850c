"""The changes between two stored versions: the diff an update stored for the pair, or
one made now for any other pair, and `diff`'s rendering of it."""

from __future__ import annotations

from pipeline.diff.documents import diff_documents
from pipeline.diff.keyed import compare_with_alignment
from pipeline.diff.reconcile import reconcile
from pipeline.diff.rulings import diff_rulings
from pipeline.errors import UsageError
from pipeline.models.diffs import DocumentDiff, KeyDisagreement
from pipeline.models.index import DocumentEntry
from pipeline.models.records import Document
from pipeline.report.html import render_html
from pipeline.report.markdown import render_markdown
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus

DIFF_FORMATS = ("md", "html", "json")  # the diff command's --format choices


def diff_versions(
    family: str, old: Document, new: Document, min_similarity: float | None = None
) -> DocumentDiff:
    """The diff between two versions, reconciled with the publisher's change list
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
    return diff_versions(
        entry.family, corpus.load_document(document, old), corpus.load_document(document, new)
    )


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
