"""From fetched bytes to a verified candidate version: parse each rendition, take a version
only from what a document states (or a maintainer asserts), check that renditions agree,
and bundle pins and provenance for the store."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import VerificationError
from pipeline.jobs.context import Context
from pipeline.jobs.publish import Candidate
from pipeline.models.records import Document, SourceRef
from pipeline.models.sources import FetchResult, Pin, Source
from pipeline.runner.request import request_for
from pipeline.verify.checks import compare_renditions


@dataclass
class Fetched:
    source: Source
    record: FetchResult
    doc: Document | None = None


# --------------------------------------------------------------------------- parsing


def source_ref(source: Source, record: FetchResult) -> SourceRef:
    """The publisher's URL and the bytes. A local file (an archive entry with no URL) is not a
    publisher's URL, and its path differs per machine, so it stays in the provenance file."""
    url = None if record.url.startswith("file:") else record.url
    return SourceRef(url=url, sha256=record.sha256, bytes=record.bytes, rendition=source.rendition)


def parse_fetched(ctx: Context, item: Fetched, version: str | None = None) -> Document:
    """Parse one rendition's stored bytes; the document records which bytes it came from."""
    data = ctx.blobs.read(item.record.sha256)
    check_pinned_ref(item, data)
    request = request_for(
        item.source,
        what=f"{item.source.id} ({item.record.url})",
        version=version or pinned_version(item),
    )
    doc = ctx.parses.parse(data, item.record.sha256, request, ctx.limits)
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


def parse_all(ctx: Context, items: list[Fetched]) -> None:
    """Parse every rendition once. A rendition that states no version (the FaB text export)
    takes the one a rendition parsed before it states, as a fallback its own statement
    would override; check_group then proves the renditions agree record for record."""
    fallback: str | None = None
    for item in sorted(items, key=lambda i: i.source.rendition == "txt"):
        ctx.progress(f"parsing {item.source.id}")
        item.doc = parse_fetched(ctx, item, version=fallback)
        fallback = fallback or item.doc.version


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
