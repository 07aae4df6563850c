"""The corpus for downstream code: open a corpus folder and read it, typed and read-only.

from pipeline.corpus import open_corpus

corpus = open_corpus("corpus")
rule = corpus.record("mtg/cr", "cr:702.19c")

The one read side: show, history, follow, renumbering, lineages, provenance and search
all answer from here. The names load on first use, so the quick `show` path
(`corpus.lookup`, json only) never pays for pydantic and the models.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.corpus.answers import (
        DocumentInfo,
        Followed,
        Record,
        RecordProvenance,
        Renumbered,
        VersionInfo,
        sha256_of,
    )
    from pipeline.corpus.lineage import HistoryStep, Step
    from pipeline.corpus.reader import CorpusReader, open_corpus
    from pipeline.corpus.search import Hit
    from pipeline.corpus.shown import Shown

_HOMES = {
    "DocumentInfo": "answers",
    "Followed": "answers",
    "Record": "answers",
    "RecordProvenance": "answers",
    "Renumbered": "answers",
    "VersionInfo": "answers",
    "sha256_of": "answers",
    "HistoryStep": "lineage",
    "Step": "lineage",
    "CorpusReader": "reader",
    "open_corpus": "reader",
    "Hit": "search",
    "Shown": "shown",
}

__all__ = [
    "CorpusReader",
    "DocumentInfo",
    "Followed",
    "HistoryStep",
    "Hit",
    "Record",
    "RecordProvenance",
    "Renumbered",
    "Shown",
    "Step",
    "VersionInfo",
    "open_corpus",
    "sha256_of",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(f"pipeline.corpus.{_HOMES[name]}"), name)
    raise AttributeError(name)
