"""Whole-version questions a static website asks of a corpus, answered in one pass each.

`CorpusReader.follow` answers for one citation and reads each stored diff again per call;
a website asks it for every record of every stored version, so `follow_version` reads each
renumbering map and alias table once and applies the same rules to all of a version's ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pipeline.corpus.reader import CorpusReader, Followed, Renumbered
from pipeline.errors import NotFound


@dataclass(frozen=True)
class Retrieval:
    """Where a version's bytes were fetched from and when, as its provenance file says.

    `url` is the publisher's address; a mirror or archive path the bytes were read from on
    the machine that ran the import is never part of it."""

    url: str | None
    retrieved: str | None


def published_versions(reader: CorpusReader, document: str) -> list[str]:
    """The published versions of a document, oldest first (staged ones left out)."""
    return [v.version for v in reader.versions(document) if v.status == "published"]


def record_ids(reader: CorpusReader, document: str, version: str) -> set[str]:
    """Every numbered record's citation id in a version."""
    return {rule.id for rule in reader.records(document, version)}


def follow_version(reader: CorpusReader, document: str, since: str) -> dict[str, Followed]:
    """Where every numbered record of version `since` lives in the current version.

    The same rules as `CorpusReader.follow(document, id, since=since)`: each stored diff's
    renumbering map first, then the same number in the next version, then that version's
    alias table; a record none of them carries was removed in that version."""
    versions = published_versions(reader, document)
    if since not in versions:
        raise NotFound(f"published version {since} of {document}")
    steps = list(pairwise(versions[versions.index(since) :]))
    maps: list[tuple[str, dict[str, Renumbered], set[str], dict[str, str]]] = []
    for old, new in steps:
        try:
            moved = {r.old_id: r for r in reader.renumbering(document, old, new)}
        except NotFound:
            moved = {}
        maps.append((new, moved, record_ids(reader, document, new), reader.aliases(document, new)))
    target = versions[-1]
    out: dict[str, Followed] = {}
    for rule in reader.records(document, since):
        current: str = rule.id
        crossed: list[Renumbered] = []
        removed: str | None = None
        for new, moved, present, aliases in maps:
            step = moved.get(current)
            if step is not None:
                crossed.append(step)
                current = step.new_id
            elif current not in present:
                alias = aliases.get(current)
                if alias is None:
                    removed = new
                    break
                current = alias
        out[rule.id] = Followed(
            rule.id,
            document,
            since,
            target,
            None if removed else current,
            tuple(crossed),
            removed_in=removed,
        )
    return out


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
