"""The renumbering map between stored versions: the one stored with each diff, or composed
along the chain of stored versions from any version to a later one (the current by default).
The `renumbering` command, `CorpusReader.renumbering`, cite-check and show's "now" all
answer with this one map.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from pipeline.corpus.diffs import pair_diff
from pipeline.diff.renumbering import compose_maps, lookup, map_of_diff
from pipeline.errors import NotFound, UsageError
from pipeline.models.diffs import RenumberingMap
from pipeline.models.index import DocumentEntry
from pipeline.models.records import Document
from pipeline.report.renumbering import render_map_csv, render_map_markdown
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus

MAP_FORMATS = ("md", "csv", "json")  # the renumbering command's --format choices


def published_versions(entry: DocumentEntry) -> list[str]:
    """The document's published versions, oldest first (the store keeps them in order)."""
    return [v.version for v in entry.versions if v.status == "published"]


def record_ids(doc: Document) -> list[str]:
    """Every citable id of a version: rules, glossary terms, rulings."""
    return [
        *(r.id for r in doc.records),
        *(g.id for g in doc.glossary),
        *(r.id for r in doc.rulings),
    ]


def pair_map(
    corpus: Corpus, entry: DocumentEntry, document: str, old: str, new: str
) -> RenumberingMap:
    """The map of two versions: the one stored beside their diff, else read off the diff."""
    stored = next((d for d in entry.diffs if (d.old, d.new) == (old, new)), None)
    if stored is not None and stored.renumbering:
        return RenumberingMap.model_validate_json(corpus.read_file(stored.renumbering))
    return map_of_diff(pair_diff(corpus, entry, document, old, new))


def pair_map_json(root: Path, document: str, old: str, new: str) -> dict[str, Any]:
    """`pair_map` as its JSON: what the lineage steps read when no map was stored."""
    corpus = Corpus(root)
    rmap = pair_map(corpus, corpus.document_entry(document), document, old, new)
    return rmap.model_dump(mode="json", by_alias=True)


def _check_version(document: str, version: str, versions: list[str]) -> None:
    if version not in versions:
        known = ", ".join(versions) or "none"
        raise NotFound(f"version {version} of {document}", f"published versions: {known}")


def renumbering(corpus: Corpus, document: str, old: str, new: str | None = None) -> RenumberingMap:
    """Where every record of `old` lives in `new` (default: the current version): the stored
    map of a consecutive pair, or the maps of every consecutive pair between composed."""
    entry = corpus.document_entry(document)
    versions = published_versions(entry)
    new = new or entry.current or (versions[-1] if versions else None)
    if new is None:
        raise NotFound(f"a published version of {document}")
    _check_version(document, old, versions)
    _check_version(document, new, versions)
    if versions.index(old) > versions.index(new):
        raise UsageError(
            f"{document}: {old} is newer than {new}; the map goes from an older version to a "
            "newer one (swap them)"
        )
    if old == new:
        return RenumberingMap(document=document, old_version=old, new_version=new, via=[old])
    chain = versions[versions.index(old) : versions.index(new) + 1]
    maps = [pair_map(corpus, entry, document, a, b) for a, b in itertools.pairwise(chain)]
    if len(maps) == 1:
        return maps[0]
    return compose_maps(maps, record_ids(corpus.load_document(document, old)))


def lives_now(root: Path, document: str, version: str, citation: str) -> dict[str, Any] | None:
    """For a record of an older version: where the renumbering map says it is in the current
    version (status, ids, and how it changed); None for the current version itself."""
    corpus = Corpus(root)
    current = corpus.document_entry(document).current
    if current is None or current == version:
        return None
    found = lookup(renumbering(corpus, document, version, current), citation)
    entry = found.entry
    return {
        "version": current,
        "status": found.status,
        "id": found.new_id,
        "ids": list(entry.new_ids) if entry is not None and entry.new_ids else None,
        "class": entry.cls if entry is not None else "unchanged",
        "text_change": entry.text_change if entry is not None else None,
        "weak": entry.weak if entry is not None else False,
    }


def render_renumbering(
    corpus: Corpus, document: str, old: str, new: str | None = None, *, format: str = "md"
) -> bytes:
    """`renumbering`'s output: the map as Markdown, CSV or canonical JSON (MAP_FORMATS)."""
    if format not in MAP_FORMATS:
        raise UsageError(f"unknown map format {format!r}; known: {', '.join(MAP_FORMATS)}")
    rmap = renumbering(corpus, document, old, new)
    if format == "json":
        return canonical_json(rmap)
    if format == "csv":
        return render_map_csv(rmap).encode("utf-8")
    return render_map_markdown(rmap).encode("utf-8")
