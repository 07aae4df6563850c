"""The only module that sequences the stages: fetch -> verify -> parse -> store -> diff.

`update` is the scheduled job. Each document is handled on its own and
committed on its own, so one failing source never hides the others' results
and never touches what is already stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.backends import Backend, open_backend
from pipeline.blobs import BlobStore
from pipeline.errors import (
    EXIT_CHANGED,
    EXIT_FETCH,
    EXIT_PARSE,
    EXIT_VERIFY,
    FetchError,
    HashMismatch,
    ParseError,
    RulesCorpusError,
    VerificationError,
)
from pipeline.families import ParseRequest, parse_bytes
from pipeline.fetch import Fetcher, FetchPolicy
from pipeline.models import Document, FetchResult, Pin, Source, SourceRef
from pipeline.outcomes import Outcome, RunSummary
from pipeline.publish import Candidate, publish_version
from pipeline.registry import documents_of, load_registry, select_sources
from pipeline.store import Corpus, Transaction, canonical_json, document_dir
from pipeline.verify import (
    PinStatus,
    check_pin,
    compare_renditions,
    pinned_version_of,
)

Progress = Callable[[str], None]


@dataclass
class Context:
    """Everything a command needs to know about where things live."""

    corpus_dir: Path
    cache_dir: Path
    sources_file: Path | None = None
    policy: FetchPolicy = field(default_factory=FetchPolicy)
    progress: Progress = field(default=lambda message: None)

    @property
    def corpus(self) -> Corpus:
        return Corpus(self.corpus_dir)

    @property
    def blobs(self) -> BlobStore:
        return BlobStore(self.cache_dir)

    def registry(self) -> list[Source]:
        return load_registry(self.sources_file)


@dataclass
class Fetched:
    source: Source
    record: FetchResult
    doc: Document | None = None


# --------------------------------------------------------------------------- parsing


def source_ref(source: Source, record: FetchResult) -> SourceRef:
    return SourceRef(
        url=record.url, sha256=record.sha256, bytes=record.bytes, rendition=source.rendition
    )


def parse_fetched(ctx: Context, item: Fetched, version: str | None = None) -> Document:
    """Parse one rendition's stored bytes; the document records which bytes it came from."""
    data = ctx.blobs.read(item.record.sha256)
    check_pinned_ref(item, data)
    request = ParseRequest(
        family=item.source.family,
        document=item.source.document,
        rendition=item.source.rendition,
        what=f"{item.source.id} ({item.record.url})",
        version=version or pinned_version(item),
        options=dict(item.source.options),
    )
    doc = parse_bytes(data, request)
    return doc.model_copy(update={"source": source_ref(item.source, item.record)})


def from_registry_url(item: Fetched) -> bool:
    """The bytes came from the URL the registry names (not from a mirror or an archive)."""
    return item.record.url == item.source.url


def pinned_version(item: Fetched) -> str | None:
    """A pinned source whose bytes state no version carries the maintainer's word for it."""
    return item.source.options.get("asserted_version") if from_registry_url(item) else None


def check_pinned_ref(item: Fetched, data: bytes) -> None:
    """A git archive names the commit it was made from; it must be the ref the registry pins."""
    ref = item.source.options.get("ref")
    if not ref or item.source.rendition != "tar.gz" or not from_registry_url(item):
        return
    from pipeline.extract.tarball import read_archive_commit

    commit = read_archive_commit(data)
    if commit is None or not commit.startswith(ref):
        raise VerificationError(
            f"{item.source.id} ({item.record.url})",
            [f"the registry pins commit {ref}; the archive says it was made from {commit}"],
        )


def adopt_versions(ctx: Context, items: list[Fetched]) -> None:
    """A rendition that states no version takes the one another rendition of the same run
    states, but only when the two agree record for record (the FaB text export)."""
    stated = [i for i in items if i.doc is not None and i.doc.version is not None]
    for item in items:
        if item.doc is None or item.doc.version is not None:
            continue
        for other in stated:
            assert other.doc is not None
            if not compare_renditions(
                other.doc, item.doc, other.source.rendition, item.source.rendition
            ):
                item.doc = parse_fetched(ctx, item, version=other.doc.version)
                break


def check_group(document: str, items: list[Fetched]) -> None:
    """Every rendition of one version must agree with the primary one (exit 20 otherwise)."""
    first = items[0]
    assert first.doc is not None
    for other in items[1:]:
        assert other.doc is not None
        problems = compare_renditions(
            first.doc, other.doc, first.source.rendition, other.source.rendition
        )
        if problems:
            raise VerificationError(
                f"{document} {first.doc.version}: the {first.source.rendition} and "
                f"{other.source.rendition} renditions disagree",
                problems,
            )


def candidate_of(document: str, items: list[Fetched]) -> Candidate:
    primary = items[0]
    assert primary.doc is not None and primary.doc.version is not None
    version = primary.doc.version
    refs = sorted((source_ref(i.source, i.record) for i in items), key=lambda r: r.rendition)
    doc = primary.doc.model_copy(update={"renditions": refs})
    pins = [
        Pin(
            document=document,
            rendition=i.source.rendition,
            version=version,
            sha256=i.record.sha256,
            bytes=i.record.bytes,
            url=i.record.url,
        )
        for i in items
    ]
    return Candidate(
        document=document,
        family=primary.source.family,
        title=primary.source.title,
        doc=doc,
        pins=pins,
        fetches=[i.record for i in items],
    )


def store_provenance(tx: Transaction, candidate: Candidate, staged: bool) -> None:
    """Retrieval times and final URLs live here, never in the version's own JSON."""
    base = document_dir(candidate.document)
    folder = f"staged/{base}" if staged else base
    version = candidate.doc.version
    tx.put(
        f"{folder}/provenance/{version}.json",
        canonical_json(
            {
                "document": candidate.document,
                "version": version,
                "parser": candidate.doc.parser.model_dump(mode="json"),
                "fetches": [r.model_dump(mode="json") for r in candidate.fetches],
                "pins": [p.model_dump(mode="json") for p in candidate.pins],
            }
        ),
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
        return [
            Outcome(
                document=document,
                sources=ids,
                outcome="verify-failed",
                exit_code=EXIT_VERIFY,
                message=str(exc),
            )
        ]
    failed = Outcome(
        document=document,
        sources=ids,
        outcome="fetch-failed",
        exit_code=EXIT_FETCH,
        message="\n".join(failures),
    )
    if not fetched:
        if failures:
            return [failed]
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
    outcomes = [failed] if failures else []
    if all(v is not None for v in known.values()):
        version = known[fetched[0].source.id]
        _remember_validators(corpus, fetched)
        return [
            Outcome(
                document=document,
                sources=ids,
                version=version,
                outcome="unchanged",
                records=_stored_records(corpus, document, version),
            ),
            *outcomes,
        ]
    try:
        for item in fetched:
            ctx.progress(f"parsing {item.source.id}")
            item.doc = parse_fetched(ctx, item)
        adopt_versions(ctx, fetched)
        outcomes[:0] = _store_groups(ctx, document, fetched, accept)
    except (VerificationError, HashMismatch) as exc:
        outcomes.insert(
            0,
            Outcome(
                document=document,
                sources=ids,
                outcome="verify-failed",
                exit_code=EXIT_VERIFY,
                message=str(exc),
            ),
        )
    except ParseError as exc:
        outcomes.insert(
            0,
            Outcome(
                document=document,
                sources=ids,
                outcome="parse-failed",
                exit_code=EXIT_PARSE,
                message=str(exc),
            ),
        )
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
    tx = corpus.transaction()
    outcomes: list[Outcome] = []
    for version, items in groups.items():
        check_group(document, items)
        statuses = [
            check_pin(lock, document, i.source.rendition, version, i.record.sha256, i.record.bytes)
            for i in items
        ]
        ids = [i.source.id for i in items]
        if all(s is PinStatus.UNCHANGED for s in statuses):
            outcomes.append(
                Outcome(document=document, sources=ids, version=version, outcome="unchanged")
            )
            continue
        candidate = candidate_of(document, items)
        warnings = len(candidate.doc.warnings)
        staged = warnings > 0 and not accept
        published = publish_version(tx, candidate, status="staged" if staged else "published")
        store_provenance(tx, candidate, staged)
        outcomes.append(
            Outcome(
                document=document,
                sources=ids,
                version=version,
                records=len(candidate.doc.records) or len(candidate.doc.rulings),
                outcome="staged" if staged else "new",
                exit_code=EXIT_PARSE if staged else EXIT_CHANGED,
                warnings=warnings,
                previous=published.previous,
                changes=dict(published.diff.summary) if published.diff else {},
                message=(
                    f"{warnings} parse warnings; review staged/{document_dir(document)}/"
                    f"{version}.json and run `rulescorpus accept {document} {version}`"
                )
                if staged
                else "",
            )
        )
    tx.commit()
    return outcomes


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
    entry = corpus.index().documents.get(document)
    item = entry.entry(version) if entry and version else None
    return (item.records or item.rulings) if item else None


@contextmanager
def open_fetcher(ctx: Context) -> Iterator[Fetcher]:
    fetcher = Fetcher(ctx.blobs, ctx.policy)
    try:
        yield fetcher
    finally:
        fetcher.close()


def update(
    ctx: Context, wanted: list[str], *, mirror: str | None = None, accept: bool = False
) -> RunSummary:
    """The scheduled job: fetch, verify, parse, store and diff every selected document."""
    summary = RunSummary("update")
    sources = [s for s in select_sources(ctx.registry(), wanted)]
    corpus = ctx.corpus
    with corpus.locked(), open_fetcher(ctx) as fetcher:
        try:
            backend = open_backend(mirror, fetcher, ctx.blobs)
        except FetchError as exc:
            summary.outcomes.append(
                Outcome(
                    document="*", outcome="fetch-failed", exit_code=EXIT_FETCH, message=str(exc)
                )
            )
            return summary
        for document, group in documents_of(sources).items():
            try:
                summary.outcomes.extend(update_document(ctx, backend, document, group, accept))
            except RulesCorpusError as exc:
                summary.outcomes.append(
                    Outcome(
                        document=document,
                        outcome="failed",
                        exit_code=exc.exit_code,
                        message=str(exc),
                    )
                )
    return summary


def fetch(ctx: Context, wanted: list[str], *, mirror: str | None = None) -> RunSummary:
    """Download into the blob store only (conditional GET); the corpus is not touched."""
    summary = RunSummary("fetch")
    corpus = ctx.corpus
    with open_fetcher(ctx) as fetcher:
        backend = open_backend(mirror, fetcher, ctx.blobs)
        for source in select_sources(ctx.registry(), wanted):
            try:
                record = backend.get(source, corpus.fetch_record(source.id))
            except RulesCorpusError as exc:
                summary.outcomes.append(
                    Outcome(
                        document=source.document,
                        sources=[source.id],
                        outcome="fetch-failed",
                        exit_code=exc.exit_code,
                        message=str(exc),
                    )
                )
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
