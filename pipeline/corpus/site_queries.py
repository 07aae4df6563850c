"""Whole-version questions a static website asks of a corpus, answered in one pass each.

`CorpusReader.follow` answers for one citation and reads each stored diff again per call;
a website asks it for every record of every stored version, so `follow_version` reads each
stored diff and alias table once and follows all of a version's ids at the same time.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pipeline.corpus.reader import CorpusReader, Followed
from pipeline.diff.models import DocumentDiff
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


def stored_diff(reader: CorpusReader, document: str, old: str, new: str) -> DocumentDiff:
    """The stored diff of two adjacent versions, as its model."""
    return DocumentDiff.model_validate(reader.diff_data(document, old, new))


def record_ids(reader: CorpusReader, document: str, version: str) -> set[str]:
    """Every numbered record's citation id in a version."""
    return {rule.id for rule in reader.records(document, version)}


def step_map(reader: CorpusReader, document: str, old: str, new: str) -> dict[str, str | None]:
    """Where each record of `old` went in `new`, as the stored diff between them says:
    renumbered, moved, split (to its first piece), merged (into the merged record) or
    removed (None). A record the diff does not name kept its number. Without a stored diff
    nothing is known to have moved: {}."""
    try:
        data = reader.diff_data(document, old, new)
    except NotFound:
        return {}
    went: dict[str, str | None] = {}
    for change in data.get("changes", []):
        olds = change.get("old_ids") or ([change["old_id"]] if change.get("old_id") else [])
        news = change.get("new_ids") or ([change["new_id"]] if change.get("new_id") else [])
        for cid in olds:
            went.setdefault(
                cid, None if change.get("class") == "removed" else news[0] if news else None
            )
    for row in data.get("renumbering", []):
        if row.get("old_id") and row.get("new_id"):
            went.setdefault(str(row["old_id"]), str(row["new_id"]))
    return went


def follow_version(reader: CorpusReader, document: str, since: str) -> dict[str, Followed]:
    """Where every numbered record of version `since` lives in the current version.

    Like `CorpusReader.follow(document, id, since=since)`, but each step reads the whole
    stored diff (`step_map`), so a record merged into another follows it there instead of
    staying at a number that now names a different rule; a record the diff does not name
    keeps its number if the next version has it, or takes that version's alias."""
    versions = published_versions(reader, document)
    if since not in versions:
        raise NotFound(f"published version {since} of {document}")
    maps: list[tuple[str, dict[str, str | None], set[str], dict[str, str]]] = []
    for old, new in pairwise(versions[versions.index(since) :]):
        maps.append(
            (
                new,
                step_map(reader, document, old, new),
                record_ids(reader, document, new),
                reader.aliases(document, new),
            )
        )
    target = versions[-1]
    out: dict[str, Followed] = {}
    for rule in reader.records(document, since):
        current: str | None = rule.id
        removed: str | None = None
        for new, went, present, aliases in maps:
            assert current is not None
            if current in went:
                current = went[current]
            elif current not in present:
                current = aliases.get(current)
            if current is None:
                removed = new
                break
        out[rule.id] = Followed(rule.id, document, since, target, current, removed_in=removed)
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
