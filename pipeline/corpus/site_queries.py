"""Whole-version questions a static website asks of a corpus: where every record of an
older version lives now (the read side's `follow`, whose lineage steps are read once per
stored diff) and a version's retrieval.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.corpus.reader import CorpusReader, Followed
from pipeline.errors import NotFound


@dataclass(frozen=True)
class Retrieval:
    """Where a version's bytes were fetched from and when, as its provenance file says.

    `url` is the publisher's address; a mirror or archive path the bytes were read from on
    the machine that ran the import is never part of it."""

    url: str | None
    retrieved: str | None


def follow_version(reader: CorpusReader, document: str, since: str) -> dict[str, Followed]:
    """Where every numbered record of version `since` lives in the current version: the
    read side's `follow`, record by record (each stored map crossed, splits and merges
    included)."""
    if since not in reader.stored.published(document):
        raise NotFound(f"published version {since} of {document}")
    return {
        rule.id: reader.follow(document, rule.id, since=since)
        for rule in reader.records(document, since)
    }


def version_retrieval(reader: CorpusReader, document: str, version: str) -> Retrieval:
    """The publisher's URL and the retrieval time of the bytes a version was parsed from."""
    doc = reader.document(document, version)
    fetches: list[dict[str, Any]] = reader.version_provenance(document, version).get("fetches", [])
    sha = doc.source.sha256 if doc.source else None
    primary = next((f for f in fetches if f.get("sha256") == sha), None)
    url = _public(doc.source.url) if doc.source else None
    if url is None and primary is not None:
        url = _public(primary.get("url"))
    return Retrieval(url=url, retrieved=primary.get("retrieved") if primary else None)


def _public(url: object) -> str | None:
    """A URL a reader elsewhere can open: http(s) only, never a local file path."""
    if isinstance(url, str) and url.startswith(("http://", "https://")):
        return url
    return None
