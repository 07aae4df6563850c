"""The only module that sequences the stages: fetch -> verify -> parse -> store -> diff.

`update` is the scheduled job. Each document is handled on its own and
committed on its own, so one failing source never hides the others' results
and never touches what is already stored.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from pipeline.errors import (
    EXIT_CHANGED,
    EXIT_FETCH,
    EXIT_PARSE,
    FetchError,
    HashMismatch,
    ParseError,
    RulesCorpusError,
    StoreError,
    VerificationError,
)
from pipeline.extract.fab_html import list_site_pages
from pipeline.extract.html import list_links
from pipeline.fetch.backends import Backend, MirrorDirBackend, MirrorUrlBackend, open_backend
from pipeline.fetch.discover import PageReaders
from pipeline.fetch.http import Fetcher
from pipeline.fetch.manifest import versions_of
from pipeline.jobs.context import Context
from pipeline.jobs.leftovers import check_something_taken
from pipeline.jobs.outcomes import RunSummary, failed, recovery_outcome
from pipeline.jobs.renditions import (
    Fetched,
    candidate_of,
    check_group,
    parse_all,
)
from pipeline.jobs.versions import Published, add_version
from pipeline.models.outcomes import Outcome
from pipeline.models.sources import Source
from pipeline.registry.loader import documents_of, select_sources
from pipeline.runner.limits import RUN_DEADLINE
from pipeline.store.corpus import Corpus
from pipeline.store.layout import document_dir
from pipeline.store.ordering import check_order
from pipeline.verify.checks import (
    PinStatus,
    check_pin,
    pinned_version_of,
)

# --------------------------------------------------------------------------- update


def _fetch_all(
    ctx: Context, backend: Backend, corpus: Corpus, sources: list[Source]
) -> tuple[list[Fetched], list[str], list[str]]:
    fetched: list[Fetched] = []
    failures: list[str] = []
    skipped: list[str] = []
    for source in sources:
        ctx.progress(f"fetching {source.id}")
        try:
            record = backend.get(source, corpus.fetch_record(source.id))
        except FetchError as exc:
            failures.append(str(exc))
            continue
        if record is None:
            skipped.append(source.id)
        else:
            fetched.append(Fetched(source, record))
    return fetched, failures, skipped


def update_document(
    ctx: Context, backend: Backend, document: str, sources: list[Source], accept: bool
) -> list[Outcome]:
    corpus = ctx.corpus
    ids = [s.id for s in sources]
    try:
        fetched, failures, skipped = _fetch_all(ctx, backend, corpus, sources)
    except HashMismatch as exc:
        return [failed(document, exc, ids)]
    fetch_failed = Outcome(
        document=document,
        sources=ids,
        outcome="fetch-failed",
        exit_code=EXIT_FETCH,
        message="\n".join(failures),
    )
    if not fetched:
        if failures:
            return [fetch_failed]
        return [
            Outcome(
                document=document,
                sources=ids,
                outcome="skipped",
                message="not available from this mirror: " + ", ".join(skipped),
            )
        ]
    lock = corpus.lock()
    known = {
        f.source.id: pinned_version_of(lock, document, f.source.rendition, f.record.sha256)
        for f in fetched
    }
    outcomes = [fetch_failed] if failures else []
    if all(v is not None for v in known.values()):
        version = known[fetched[0].source.id]
        try:
            records = _stored_records(corpus, document, version)
        except StoreError as exc:
            return [failed(document, exc, ids, version)]
        _remember_validators(corpus, fetched)
        return [
            Outcome(
                document=document,
                sources=ids,
                version=version,
                outcome="unchanged",
                records=records,
            ),
            *outcomes,
        ]
    try:
        parse_all(ctx, fetched)
        outcomes[:0] = _store_groups(ctx, document, fetched, accept)
    except (VerificationError, HashMismatch, ParseError) as exc:
        outcomes.insert(0, failed(document, exc, ids))
    return outcomes


def _store_groups(
    ctx: Context, document: str, fetched: list[Fetched], accept: bool
) -> list[Outcome]:
    corpus = ctx.corpus
    groups: dict[str, list[Fetched]] = {}
    for item in fetched:
        assert item.doc is not None
        if item.doc.version is None:
            raise ParseError(
                f"{item.source.id} ({item.record.url})",
                "the document states no version and no other rendition of this run gave one; "
                "inspect it with `rulescorpus parse FILE --family "
                f"{item.source.family} --version V` and store it with `rulescorpus import`",
            )
        groups.setdefault(item.doc.version, []).append(item)
    lock = corpus.lock()
    statuses = {
        version: [
            check_pin(lock, document, i.source.rendition, version, i.record.sha256, i.record.bytes)
            for i in items
        ]
        for version, items in groups.items()
    }
    check_one_new_version(document, groups, statuses)
    tx = corpus.transaction()
    outcomes: list[Outcome] = []
    for version, items in groups.items():
        check_group(document, items)
        ids = [i.source.id for i in items]
        if all(s is PinStatus.UNCHANGED for s in statuses[version]):
            outcomes.append(
                Outcome(document=document, sources=ids, version=version, outcome="unchanged")
            )
            continue
        candidate = candidate_of(document, items)
        warnings = len(candidate.doc.warnings)
        staged = warnings > 0 and not accept
        published = add_version(
            tx, candidate, ctx.renderers, status="staged" if staged else "published"
        )
        outcomes.append(
            Outcome(
                document=document,
                sources=ids,
                version=version,
                records=len(candidate.doc.records) or len(candidate.doc.rulings),
                outcome="staged" if staged else "new",
                exit_code=EXIT_PARSE if staged else EXIT_CHANGED,
                warnings=warnings,
                notes=[note.message for note in candidate.doc.publisher_notes],
                previous=published.previous,
                changes=dict(published.diff.summary) if published.diff else {},
                message=(
                    f"{warnings} parse warnings; review staged/{document_dir(document)}/"
                    f"{version}.json and run `rulescorpus accept {document} {version}`"
                )
                if staged
                else older_message(published),
            )
        )
    tx.commit()
    return outcomes


def older_message(published: Published) -> str:
    """A publisher serving an old file again: stored, reported, never made current."""
    if published.older_than is None:
        return ""
    return f"stored, but older than the current version {published.older_than}, which stays current"


def check_one_new_version(
    document: str, groups: dict[str, list[Fetched]], statuses: dict[str, list[PinStatus]]
) -> None:
    """New bytes in more than one version at once means the publisher's renditions are out
    of step (the text export at one version, the PDF at another): neither can be checked
    against the other, so nothing of the document is stored (exit 20). A rendition still
    serving bytes already stored for an older version is not new and does not count."""
    new = [v for v, found in statuses.items() if any(s is not PinStatus.UNCHANGED for s in found)]
    if len(new) < 2:
        return
    raise VerificationError(
        f"{document}: this run's renditions state different versions",
        [
            f"{i.source.id} ({i.source.rendition}, {i.record.url}) states version {version}"
            for version in new
            for i in groups[version]
        ]
        + [
            "nothing of this document was stored; run update again once the publisher "
            "serves every rendition at one version, or update one rendition alone with "
            "`rulescorpus update SOURCE_ID`"
        ],
    )


def _remember_validators(corpus: Corpus, fetched: list[Fetched]) -> None:
    """Nothing changed: write nothing, unless the server's validators moved (so the next
    conditional request can still get a 304)."""
    tx = corpus.transaction()
    for item in fetched:
        old = corpus.fetch_record(item.source.id)
        if item.record.from_cache or old is None:
            continue
        if (old.etag, old.last_modified, old.url) != (
            item.record.etag,
            item.record.last_modified,
            item.record.url,
        ):
            tx.put_fetch_record(item.record)
    if tx.files:
        tx.commit()


def _stored_records(corpus: Corpus, document: str, version: str | None) -> int | None:
    """The stored version's record count, after proving its file is what the index says
    (size and SHA-256): "unchanged" must never vouch for a corrupted corpus (exit 20)."""
    entry = corpus.index().documents.get(document)
    item = entry.entry(version) if entry and version else None
    if item is None:
        return None
    data = corpus.read_file(item.file, item.sha256)
    if item.bytes is not None and len(data) != item.bytes:
        raise StoreError(
            f"{corpus.root / item.file} has {len(data)} bytes, index.json says {item.bytes}"
        )
    return item.records or item.rulings


@contextmanager
def open_fetcher(ctx: Context, run_deadline_at: float | None = None) -> Iterator[Fetcher]:
    fetcher = Fetcher(ctx.blobs, ctx.policy, run_deadline_at)
    try:
        yield fetcher
    finally:
        fetcher.close()


def html_readers() -> PageReaders:
    """extract/'s HTML readers, for what the live backend reads off landing pages and site
    indexes: fetch/ never imports extract/ (DESIGN), jobs joins the two."""
    return PageReaders(list_links=list_links, list_site_pages=list_site_pages)


def update(
    ctx: Context,
    wanted: list[str],
    *,
    mirror: str | None = None,
    accept: bool = False,
    deadline: float = RUN_DEADLINE,
) -> RunSummary:
    """The scheduled job: fetch, verify, parse, store and diff every selected document,
    within `deadline` seconds; documents not reached by then are reported as not fetched."""
    summary = RunSummary("update")
    sources = [s for s in select_sources(ctx.registry(), wanted)]
    deadline_at = time.monotonic() + deadline
    ctx = replace(ctx, limits=ctx.limits.until(deadline_at))
    with ctx.run_lock() as recovered, open_fetcher(ctx, deadline_at) as fetcher:
        if recovered:
            summary.outcomes.append(recovery_outcome(recovered))
        check_order(ctx.corpus.reader())
        try:
            backend = open_backend(mirror, fetcher, ctx.blobs, html_readers())
        except FetchError as exc:
            summary.outcomes.append(failed("*", exc))
            return summary
        if isinstance(backend, MirrorDirBackend | MirrorUrlBackend) and not wanted:
            taken = any(versions_of(s, backend.entries) for s in sources)
            check_something_taken(sources, backend.entries, taken, f"mirror {mirror}")
        for document, group in documents_of(sources).items():
            if time.monotonic() >= deadline_at:
                summary.outcomes.append(not_reached(document, group, deadline))
                continue
            try:
                summary.outcomes.extend(update_document(ctx, backend, document, group, accept))
            except RulesCorpusError as exc:
                summary.outcomes.append(failed(document, exc))
        if isinstance(backend, MirrorDirBackend) and not wanted:
            summary.outcomes.extend(mirror_leftovers(ctx.registry(), backend))
    return summary


def mirror_leftovers(sources: list[Source], backend: MirrorDirBackend) -> list[Outcome]:
    """What the mirror folder holds that no source takes, explained as `import` does."""
    from pipeline.jobs.import_archive import plan_import
    from pipeline.jobs.leftovers import report_leftovers

    groups, rest = plan_import(sources, backend.entries)
    return report_leftovers(sources, rest, groups, backend.root)


def not_reached(document: str, sources: list[Source], deadline: float) -> Outcome:
    return Outcome(
        document=document,
        sources=[s.id for s in sources],
        outcome="fetch-failed",
        exit_code=EXIT_FETCH,
        message=f"not fetched: the run's {deadline:g} s deadline passed before this document "
        "was reached (raise `update --deadline`)",
    )


def fetch(ctx: Context, wanted: list[str], *, mirror: str | None = None) -> RunSummary:
    """Download into the blob store only (conditional GET); the corpus is not touched."""
    summary = RunSummary("fetch")
    corpus = ctx.corpus
    with open_fetcher(ctx) as fetcher:
        backend = open_backend(mirror, fetcher, ctx.blobs, html_readers())
        for source in select_sources(ctx.registry(), wanted):
            try:
                record = backend.get(source, corpus.fetch_record(source.id))
            except RulesCorpusError as exc:
                summary.outcomes.append(failed(source.document, exc, [source.id]))
                continue
            if record is None:
                summary.outcomes.append(
                    Outcome(document=source.document, sources=[source.id], outcome="skipped")
                )
                continue
            state = "not modified" if record.from_cache else f"HTTP {record.status}"
            summary.outcomes.append(
                Outcome(
                    document=source.document,
                    sources=[source.id],
                    outcome="fetched",
                    message=f"{state}, {record.bytes} bytes, sha256 {record.sha256}",
                )
            )
    return summary
