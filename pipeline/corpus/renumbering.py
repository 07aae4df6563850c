"""The renumbering map between stored versions: the one stored with each diff, or composed
along the chain of stored versions from any version to a later one (the current by default).
The `renumbering` command, `CorpusReader.renumbering`, cite-check and show's "now" all
answer with this one map. Rendering it is `report.renumbering`'s.
"""

from __future__ import annotations

import itertools
from typing import Any

from pipeline.corpus.diffs import load_document, pair_diff
from pipeline.corpus.stored import StoredCorpus
from pipeline.diff.renumbering import compose_maps, lookup, map_of_diff
from pipeline.diff.versions import record_ids
from pipeline.errors import NotFound, UsageError
from pipeline.models.diffs import RenumberingMap


def pair_map(corpus: StoredCorpus, document: str, old: str, new: str) -> RenumberingMap:
    """The map of two versions: the one stored beside their diff, else read off the diff."""
    stored = corpus.stored_map(document, old, new)
    if stored is not None:
        return RenumberingMap.model_validate(stored)
    return map_of_diff(pair_diff(corpus, document, old, new))


def pair_map_json(corpus: StoredCorpus, document: str, old: str, new: str) -> dict[str, Any]:
    """`pair_map` as its JSON: what the lineage steps read when no map was stored."""
    return pair_map(corpus, document, old, new).model_dump(mode="json", by_alias=True)


def _check_version(document: str, version: str, versions: list[str]) -> None:
    if version not in versions:
        known = ", ".join(versions) or "none"
        raise NotFound(f"version {version} of {document}", f"published versions: {known}")


def renumbering(
    corpus: StoredCorpus, document: str, old: str, new: str | None = None
) -> RenumberingMap:
    """Where every record of `old` lives in `new` (default: the current version): the stored
    map of a consecutive pair, or the maps of every consecutive pair between composed."""
    versions = corpus.published(document)
    new = new or corpus.current(document) or (versions[-1] if versions else None)
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
    maps = [pair_map(corpus, document, a, b) for a, b in itertools.pairwise(chain)]
    if len(maps) == 1:
        return maps[0]
    return compose_maps(maps, record_ids(load_document(corpus, document, old)))


def lives_now(
    corpus: StoredCorpus, document: str, version: str, citation: str
) -> dict[str, Any] | None:
    """For a record of an older version: where the renumbering map says it is in the current
    version (status, ids, and how it changed); None for the current version itself."""
    current = corpus.current(document)
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
