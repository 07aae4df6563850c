"""The changes between two stored versions: the diff an update stored for the pair, or
one made now for any other pair. Rendering them is the caller's (`report/`)."""

from __future__ import annotations

from pipeline.diff.versions import diff_versions
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document
from pipeline.store.corpus import load_document
from pipeline.store.reader import StoredCorpus

__all__ = ["diff_between", "load_document", "pair_diff", "stored_diff"]


def stored_diff(corpus: StoredCorpus, document: str, old: str, new: str) -> DocumentDiff | None:
    """The diff an update stored for this pair of versions, if it made one."""
    stored = corpus.diff_entry(document, old, new)
    if stored is None:
        return None
    return DocumentDiff.model_validate_json(corpus.read(stored["json"]))


def pair_diff(corpus: StoredCorpus, document: str, old: str, new: str) -> DocumentDiff:
    """The diff between two stored versions: the stored one when an update made it, else now."""
    if (stored := stored_diff(corpus, document, old, new)) is not None:
        return stored
    return diff_versions(
        corpus.entry(document).get("family") or "",
        load_document(corpus, document, old),
        load_document(corpus, document, new),
    )


def diff_between(
    corpus: StoredCorpus,
    document: str,
    old: str,
    new: str,
    *,
    min_similarity: float | None = None,
) -> tuple[DocumentDiff, Document, Document]:
    """`diff`'s answer: the changes between two stored versions (any two) with both
    Documents. The stored diff of a pair an update diffed, unless `min_similarity` asks
    for a fresh one."""
    old_doc, new_doc = load_document(corpus, document, old), load_document(corpus, document, new)
    # Both documents are rendered anyway, so a diff made now reuses them.
    result = stored_diff(corpus, document, old, new) if min_similarity is None else None
    if result is None:
        family = corpus.entry(document).get("family") or ""
        result = diff_versions(family, old_doc, new_doc, min_similarity)
    return result, old_doc, new_doc
