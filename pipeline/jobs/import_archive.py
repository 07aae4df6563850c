"""`rulescorpus import ARCHIVE_DIR`: backfill every version an archive manifest lists.

Versions are stored oldest first, each with the diff from the one before, so
the corpus holds real history. The manifest's SHA-256 of each file is checked
before anything is parsed, and its version is used only for documents that do
not state their own (the FaB text export, rulings snapshots): the document's
own statement always wins.
"""

from __future__ import annotations

import contextlib
import os
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pipeline.errors import (
    FetchError,
    HashMismatch,
    ParseError,
    RulesCorpusError,
    VerificationError,
)
from pipeline.fetch.manifest import (
    ManifestEntry,
    manifest_version,
    read_archive_files,
    read_manifest,
    versions_of,
)
from pipeline.jobs.context import Context
from pipeline.jobs.leftovers import check_something_taken, report_leftovers
from pipeline.jobs.outcomes import RunSummary, failed, recovery_outcome
from pipeline.jobs.renditions import (
    Fetched,
    candidate_of,
    check_group,
    parse_fetched,
)
from pipeline.jobs.versions import add_version
from pipeline.models.outcomes import Outcome
from pipeline.models.records import Document, WarningCode
from pipeline.models.sources import Source
from pipeline.registry.loader import documents_of
from pipeline.store.ordering import check_order, version_key
from pipeline.verify.checks import check_pin, pinned_version_of

Group = tuple[str, str]  # (document, version)
Member = tuple[Source, list[ManifestEntry]]  # a rendition: its file, or a site's pages


def plan_import(
    sources: list[Source], entries: list[ManifestEntry]
) -> tuple[list[tuple[Group, list[Member]]], list[ManifestEntry]]:
    """Manifest entries grouped into versions (oldest first), and the entries no source takes."""
    groups: dict[Group, list[Member]] = defaultdict(list)
    taken: set[str] = set()
    for group in documents_of(sources).values():
        for source in group:
            for files in versions_of(source, entries):
                files = [e for e in files if e.path not in taken]
                if not files:
                    continue
                version = manifest_version(source, files[0])
                if any(
                    s.id == source.id and [e.sha256 for e in f] == [e.sha256 for e in files]
                    for s, f in groups.get((source.document, version), [])
                ):
                    taken.update(e.path for e in files)  # the same bytes listed twice: one
                    continue
                taken.update(e.path for e in files)
                groups[(source.document, version)].append((source, files))
    ordered = sorted(
        groups.items(),
        key=lambda item: (
            min(e.date or "" for _, files in item[1] for e in files),
            version_key(item[0][1]),
            item[0][0],
        ),
    )
    for _group, members in ordered:
        members.sort(key=lambda m: (not m[0].primary, m[0].id))
    rest = [e for e in entries if e.path not in taken]
    return ordered, rest


def import_group(
    ctx: Context, root: Path, document: str, label: str, members: list[Member]
) -> Outcome:
    """Store one version. The archive's label stands in for a document that states no
    version; the document's own statement always wins, and a label that says otherwise is
    reported as the archive's, never stored as the version."""
    corpus = ctx.corpus
    items: list[Fetched] = []
    for source, files in members:
        items.append(Fetched(source, read_archive_files(source, files, root, ctx.blobs)))
    lock = corpus.lock()
    pinned = [pinned_version_of(lock, document, i.source.rendition, i.record.sha256) for i in items]
    ids = [i.source.id for i in items]
    if all(v is not None for v in pinned):
        stored = corpus.index().documents[document].entry(pinned[0] or "")
        return Outcome(
            document=document,
            sources=ids,
            version=pinned[0],
            outcome="unchanged",
            records=(stored.records or stored.rulings) if stored else None,
            label=archive_label(label, pinned[0]),
        )
    for item in items:
        ctx.progress(f"parsing {document} {label} {item.source.rendition}")
        item.doc = settle_label(parse_fetched(ctx, item, version=label))
    check_group(document, items)
    assert items[0].doc is not None and items[0].doc.version is not None
    version = items[0].doc.version
    for item in items:
        # New or already pinned both store; other bytes under a pinned version raise.
        check_pin(
            lock, document, item.source.rendition, version, item.record.sha256, item.record.bytes
        )
    candidate = candidate_of(document, items)
    tx = corpus.transaction()
    published = add_version(tx, candidate, ctx.renderers, label=archive_label(label, version))
    tx.commit()
    return Outcome(
        document=document,
        sources=ids,
        version=version,
        records=len(candidate.doc.records) or len(candidate.doc.rulings),
        outcome="imported",
        warnings=len(candidate.doc.warnings),
        previous=published.previous,
        changes=dict(published.diff.summary) if published.diff else {},
        message="; ".join(w.message for w in candidate.doc.warnings[:3]),
        label=archive_label(label, version),
        notes=[note.message for note in candidate.doc.publisher_notes],
    )


def archive_label(label: str, version: str | None) -> str | None:
    """The archive's label when it is not what the document states (`20251114` is the same
    date as `2025-11-14`, so it is no other label)."""
    if version is None or version_key(label) == version_key(version):
        return None
    return label


def settle_label(doc: Document) -> Document:
    """An archive's label that disagrees with the document's statement is the archive's
    business, reported by the import: the document is stored under its statement, and the
    disagreement is no sign that the parser misread."""
    kept = [w for w in doc.warnings if w.code != WarningCode.VERSION_MISMATCH]
    return doc if len(kept) == len(doc.warnings) else doc.model_copy(update={"warnings": kept})


def order_by_statement(
    ctx: Context, root: Path, groups: list[tuple[Group, list[Member]]]
) -> tuple[list[tuple[Group, list[Member]]], list[Outcome]]:
    """The versions oldest first by what each document states (its primary rendition's
    parse, which the parse cache keeps for the import), not by the archive's labels or
    dates; a label whose document states nothing keeps its place by the label. Two files
    of one document that state the same version with different bytes are refused together
    (exit 20): which one is that version is not the archive's to decide."""
    stated: dict[Group, str] = {}
    lock = ctx.corpus.lock()
    refused: dict[Group, Outcome] = {
        group: outcome
        for group, members in groups
        if (outcome := refuse_twins(ctx, root, group, members)) is not None
    }
    groups = [(g, m) for g, m in groups if g not in refused]
    for (document, label), members in groups:
        source, files = members[0]
        pinned = {pinned_version_of(lock, document, source.rendition, f.sha256) for f in files}
        if len(pinned) == 1 and None not in pinned and not source.options.get("site"):
            stated[(document, label)] = str(pinned.pop())  # stored before: its version
            continue
        with contextlib.suppress(RulesCorpusError):
            item = Fetched(source, read_archive_files(source, files, root, ctx.blobs))
            stated[(document, label)] = parse_fetched(ctx, item, version=label).version or label
    seen: dict[tuple[str, str], list[Group]] = defaultdict(list)
    for group, _ in groups:
        if group in stated:
            seen[(group[0], stated[group])].append(group)
    for (document, version), same in seen.items():
        digests = {
            tuple(sorted(e.sha256 for _, files in dict(groups)[g] for e in files)) for g in same
        }
        if len(digests) > 1:
            labels = ", ".join(label for _, label in same)
            error = VerificationError(
                f"{document} {version}",
                [
                    f"the archive's files labelled {labels} all state version {version} "
                    "with different bytes; none of them is stored"
                ],
            )
            refused |= {g: failed(document, error, version=version) for g in same}
    kept = [(g, m) for g, m in groups if g not in refused]
    kept.sort(key=lambda item: (item[0][0], version_key(stated.get(item[0], item[0][1]))))
    return kept, list(refused.values())


def refuse_twins(ctx: Context, root: Path, group: Group, members: list[Member]) -> Outcome | None:
    """Two files of one source under one label with different bytes: which of them is that
    version is not the archive's to decide, whatever the manifest's order, so both are
    refused (exit 20), saying what each states. None when the group has no such twins."""
    document, label = group
    by_source: dict[str, list[Member]] = defaultdict(list)
    for member in members:
        by_source[member[0].id].append(member)
    twins = next((same for same in by_source.values() if len(same) > 1), None)
    if twins is None:
        return None
    stated: dict[str, str] = {}
    for source, files in twins:
        version = None
        with contextlib.suppress(RulesCorpusError):
            item = Fetched(source, read_archive_files(source, files, root, ctx.blobs))
            version = parse_fetched(ctx, item, version=label).version
        stated[", ".join(e.path for e in files)] = f"version {version}" if version else "no version"
    if len(set(stated.values())) == 1:
        said = f"{' and '.join(stated)} all state {next(iter(stated.values()))}"
    else:
        said = "; ".join(f"{paths} states {version}" for paths, version in stated.items())
    error = VerificationError(
        f"{document} {label}",
        [
            f"the archive lists {len(twins)} files of {twins[0][0].id} labelled {label} with "
            f"different bytes ({said}); none of them is stored. Give each file the version "
            "it states in manifest.json, or remove the one that is wrong"
        ],
    )
    return failed(document, error, version=label)


def warm_parses(ctx: Context, root: Path, groups: list[tuple[Group, list[Member]]]) -> None:
    """Parse every file of the archive on all cores first, into the parse cache. The import
    itself then runs oldest first, as before, and finds each parse there: the same bytes
    in the same order give the same corpus as a serial run. Failures are left for the
    import to meet and report in their place."""
    if not ctx.use_parse_cache:
        return
    jobs = [
        (document, version, source, files)
        for (document, version), members in groups
        for source, files in members
    ]
    pinned = ctx.corpus.lock()

    def parse(job: tuple[str, str, Source, list[ManifestEntry]]) -> None:
        document, version, source, files = job
        if all(
            pinned_version_of(pinned, document, source.rendition, f.sha256) for f in files
        ) and not source.options.get("site"):
            return
        with contextlib.suppress(RulesCorpusError):
            item = Fetched(source, read_archive_files(source, files, root, ctx.blobs))
            parse_fetched(ctx, item, version=version)

    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        for done, _ in enumerate(pool.map(parse, jobs)):
            ctx.progress("parsing the archive", done + 1, len(jobs))


def import_archive(ctx: Context, root: Path) -> RunSummary:
    entries = read_manifest(root)
    groups, rest = plan_import(ctx.registry(), entries)
    check_something_taken(ctx.registry(), entries, bool(groups), f"archive {root}")
    summary = RunSummary("import")
    with ctx.run_lock() as recovered:
        if recovered:
            summary.outcomes.append(recovery_outcome(recovered))
        check_order(ctx.corpus.reader())
        warm_parses(ctx, root, groups)
        ordered, refused = order_by_statement(ctx, root, groups)
        summary.outcomes.extend(refused)
        for done, ((document, label), members) in enumerate(ordered):
            ctx.progress(f"importing {document} {label}", done, len(ordered))
            try:
                summary.outcomes.append(import_group(ctx, root, document, label, members))
            except (HashMismatch, VerificationError, ParseError, FetchError) as exc:
                summary.outcomes.append(failed(document, exc, version=label))
        ctx.progress("imported", len(ordered), len(ordered))
    summary.outcomes.extend(report_leftovers(ctx.registry(), rest, groups, root))
    return summary
