"""`verify --published`: hashes published by others than the corpus, fetched now.

The publisher's own checksum files (`published_sha256_url`), a wiki revision's
SHA-1 kept in its stored bundle, and third-party pages that publish a SHA-256
for a source's URL (`attestation_pages`, pipeline/verify/attestations.py).
"""

from __future__ import annotations

from pipeline.errors import EXIT_OK, EXIT_VERIFY, RulesCorpusError
from pipeline.jobs.context import Context
from pipeline.jobs.outcomes import failed
from pipeline.models.index import VersionEntry
from pipeline.models.outcomes import Outcome


def check_published_hashes(ctx: Context, document: str, item: VersionEntry) -> list[str]:
    """Hashes the source itself publishes: a wiki revision's SHA-1 (kept in the stored
    bundle), and checksum files at the URL the registry names for a publisher."""
    problems = _check_wiki_sha1(ctx, document, item)
    sources = [s for s in ctx.registry() if s.document == document and s.published_sha256_url]
    if not sources:
        return problems
    from pipeline.jobs.update import open_fetcher
    from pipeline.verify.checks import check_published, parse_published_checksums

    with open_fetcher(ctx) as fetcher:
        for source in sources:
            sha = item.sources.get(source.rendition)
            if sha is None or source.published_sha256_url is None:
                continue
            try:
                record = fetcher.fetch(
                    f"{source.id}-sha256",
                    source.published_sha256_url,
                    allowed_hosts=source.allowed_hosts,
                    expect="txt",
                )
                listed = parse_published_checksums(ctx.blobs.read(record.sha256).decode())
                name = (source.url or "").rsplit("/", 1)[-1]
                check_published(f"{document} {item.version} {source.rendition}", sha, listed, name)
            except RulesCorpusError as exc:
                problems.append(str(exc))
    return problems


def check_attestations(ctx: Context, document: str) -> list[Outcome]:
    """Web pages the registry names (`attestation_pages`) that publish a SHA-256 for a
    source's URL: one outcome per source, page and URL. A URL that a newer version reuses
    (a "latest" link) is checked with that version's bytes only: it no longer serves the
    older ones."""
    sources = [s for s in ctx.registry() if s.document == document and s.attestation_pages]
    if not sources:
        return []
    from pipeline.extract.web_page import read_web_page
    from pipeline.jobs.update import open_fetcher
    from pipeline.store.ordering import version_key
    from pipeline.verify.attestations import Verdict, check_attestation

    pins = sorted(
        (p for p in ctx.corpus.lock().pins if p.document == document and p.url),
        key=lambda p: version_key(p.version),
    )
    verdicts = {
        Verdict.MATCH: ("verified", EXIT_OK),
        Verdict.MISMATCH: ("verify-failed", EXIT_VERIFY),
        Verdict.NONE: ("skipped", EXIT_OK),
    }
    outcomes: list[Outcome] = []
    with open_fetcher(ctx) as fetcher:
        for source in sources:
            newest = {p.url: p for p in pins if p.rendition == source.rendition}
            for number, page_url in enumerate(source.attestation_pages, 1):
                try:
                    record = fetcher.fetch(
                        f"{source.id}-attestation-{number}", page_url, expect="html"
                    )
                    page = read_web_page(
                        ctx.blobs.read(record.sha256), record.content_type, what=page_url
                    )
                except RulesCorpusError as exc:
                    outcomes.append(failed(document, exc, [source.id]))
                    continue
                for url, pin in sorted(newest.items()):
                    assert url is not None
                    check = check_attestation(
                        page,
                        record.final_url,
                        url,
                        pin.sha256,
                        rendition=source.rendition,
                    )
                    outcome, code = verdicts[check.verdict]
                    outcomes.append(
                        Outcome(
                            document=document,
                            sources=[source.id],
                            version=pin.version,
                            outcome=outcome,
                            exit_code=code,
                            message=check.message,
                        )
                    )
    return outcomes


def _check_wiki_sha1(ctx: Context, document: str, item: VersionEntry) -> list[str]:
    sha = item.sources.get("wiki")
    if sha is None or not ctx.blobs.has(sha):
        return []
    from pipeline.fetch.mediawiki import read_bundle

    try:
        read_bundle(ctx.blobs.read(sha), what=f"{document} revision {item.version}")
    except RulesCorpusError as exc:
        return [str(exc)]
    return []
