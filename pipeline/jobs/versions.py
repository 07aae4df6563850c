"""Adding one version to the corpus: store it, diff it against the version before it, render
the reports, store those and the alias table. The one sequence `update`, `import` and
`accept` share, so every way in produces the same artefacts."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.diff.renumbering import map_of_diff
from pipeline.diff.versions import diff_versions, record_ids
from pipeline.errors import UsageError
from pipeline.jobs.context import DiffRenderers
from pipeline.jobs.publish import Candidate, Status, store_aliases, store_diff, store_version
from pipeline.lookup.lineage import Step, step_of_map
from pipeline.models.diffs import DocumentDiff
from pipeline.store.corpus import Transaction, load_document
from pipeline.store.ordering import version_key
from pipeline.store.reader import StoredCorpus

__all__ = ["Published", "add_version", "compose_aliases", "diff_versions", "previous_version"]


@dataclass
class Published:
    document: str
    version: str
    status: str
    diff: DocumentDiff | None = None
    previous: str | None = None
    older_than: str | None = None  # the current version, when this one is older than it


def compose_aliases(previous: dict[str, str], step: Step, new_ids: set[str]) -> dict[str, str]:
    """Old citation ids (of any earlier version) -> the id that carries them in the new version,
    each carried across the new diff's lineage step (a split's first part carries it)."""
    aliases: dict[str, str] = {}
    for old, via in previous.items():
        target = next(iter(step.ahead(via)), None)
        if target in new_ids and old not in new_ids:
            aliases[old] = target
    for old in step.forward:
        target = next(iter(step.ahead(old)), None)
        if old not in new_ids and target in new_ids:
            aliases[old] = target
    return dict(sorted(aliases.items()))


def previous_version(reader: StoredCorpus, document: str, version: str) -> str | None:
    """The newest published version before `version`, when `version` is the newest one
    (a backfilled older version is stored without a diff: history is built oldest first)."""
    if document not in reader.documents():
        return None
    current = reader.current(document)
    if current is not None and version_key(version) < version_key(current):
        return None
    older = [v for v in reader.published(document) if version_key(v) < version_key(version)]
    return max(older, key=version_key) if older else None


def add_version(
    tx: Transaction,
    candidate: Candidate,
    renderers: DiffRenderers | None,
    status: Status = "published",
    label: str | None = None,
) -> Published:
    """Store the candidate and, when published, its diff from the version before it, with
    the diff's Markdown and HTML by `renderers`. A version older than the current one is
    stored beside it and never becomes current."""
    reader, document = tx.reader(), candidate.document
    previous = previous_version(reader, document, candidate.doc.version or "")
    before = reader.current(document) if document in reader.documents() else None
    item = store_version(tx, candidate, status, label)
    result = Published(candidate.document, item.version, status)
    older = before is not None and version_key(item.version) < version_key(before)
    if status == "published" and older:
        result.older_than = before
    if status != "published" or previous is None:
        return result
    if renderers is None:
        raise UsageError(
            f"storing the diff of {candidate.document} {previous}..{item.version} needs its "
            "renderers: pass Context(renderers=...)"
        )
    reader = tx.reader()  # with the version just stored
    old = load_document(reader, document, previous)
    new = candidate.doc
    result.diff = diff_versions(candidate.family, old, new)
    result.previous = previous
    rmap = map_of_diff(result.diff)
    store_diff(
        tx,
        candidate.document,
        result.diff,
        renderers.markdown(result.diff, old, new),
        renderers.html(result.diff, old, new),
        rmap,
    )
    step = step_of_map(rmap.model_dump(mode="json", by_alias=True))
    aliases = compose_aliases(reader.aliases(document, previous), step, set(record_ids(new)))
    store_aliases(tx, candidate.document, item.version, aliases)
    return result
