"""The renumbering map between stored versions, read off the lineage: the map stored with
each diff, or, from any version to a later one (the current by default), every record of
the older version followed along the lineage's steps (`lookup.lineage.entry_along`).
The `renumbering` command, `CorpusReader.renumbering`, cite-check and show's "now" all
answer with it. Rendering it is `report.renumbering`'s.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pipeline.corpus.diffs import pair_diff
from pipeline.diff.renumbering import id_key, map_of_diff, status_of
from pipeline.errors import NotFound
from pipeline.lookup.lineage import Lineages, added_along, entry_along
from pipeline.models.diffs import MapEntry, RenumberingMap
from pipeline.store.reader import StoredCorpus


def pair_map_json(corpus: StoredCorpus, document: str, old: str, new: str) -> dict[str, Any]:
    """The map of two consecutive versions as its JSON: the one stored beside their diff,
    else read off the diff."""
    stored = corpus.stored_map(document, old, new)
    if stored is not None:
        return stored
    return map_of_diff(pair_diff(corpus, document, old, new)).model_dump(mode="json", by_alias=True)


def lineages_of(corpus: StoredCorpus) -> Lineages:
    """The corpus's lineage, a map that was never stored read off its diff."""
    return Lineages(corpus, partial(pair_map_json, corpus))


def renumbering(
    corpus: StoredCorpus,
    document: str,
    old: str,
    new: str | None = None,
    lineages: Lineages | None = None,
) -> RenumberingMap:
    """Where every record of `old` lives in `new` (default: the current version): the map
    of a consecutive pair as stored, else each record's entry along the lineage."""
    versions = corpus.published(document)
    new = new or corpus.current(document) or (versions[-1] if versions else None)
    if new is None:
        raise NotFound(f"a published version of {document}")
    lineages = lineages or lineages_of(corpus)
    steps = list(lineages.steps(document, old, new))
    if len(steps) == 1:
        return RenumberingMap.model_validate(pair_map_json(corpus, document, old, new))
    ids = sorted(set(corpus.version(document, old).ids()), key=id_key)
    entries = [entry_along(steps, i) for i in ids]
    return RenumberingMap(
        document=document,
        old_version=old,
        new_version=new,
        via=[old, *(s.new for s in steps)],
        entries=[MapEntry.model_validate(e) for e in entries if e is not None],
        added=sorted((a for a in added_along(steps) if a), key=id_key),
    )


def lives_now(
    lineages: Lineages, document: str, version: str, citation: str
) -> dict[str, Any] | None:
    """For a record of an older version: where its lineage says it is in the current
    version (status, ids, and how it changed); None for the current version itself."""
    current = lineages.stored.current(document)
    if current is None or current == version:
        return None
    data = entry_along(lineages.steps(document, version, current), citation)
    found = status_of(citation, MapEntry.model_validate(data) if data else None)
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
