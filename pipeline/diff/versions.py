"""The diff between two versions of a document, a pure function of the two Documents: the
write path stores it with each new version, the read side makes one for any other pair."""

from __future__ import annotations

from pipeline.diff.documents import diff_documents
from pipeline.diff.keyed import compare_with_alignment
from pipeline.diff.reconcile import reconcile
from pipeline.diff.rulings import diff_rulings
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document


def record_ids(doc: Document) -> list[str]:
    """Every citable id of a version, in file order: rules, glossary terms, rulings."""
    return [
        *(r.id for r in doc.records),
        *(g.id for g in doc.glossary),
        *(r.id for r in doc.rulings),
    ]


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
        result = result.model_copy(update={"key_disagreements": checked.disagreements})
    if new.publisher_changes:
        result = result.model_copy(
            update={"reconciliation": reconcile(new.publisher_changes, result)}
        )
    return result
