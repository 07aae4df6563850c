"""The corpus for downstream code: open a corpus folder and read it, typed and read-only.

from pipeline.corpus import open_corpus

corpus = open_corpus("corpus")
rule = corpus.record("mtg/cr", "cr:702.19c")

The one read side: show, history, follow, renumbering, lineages, provenance and search
all answer from here, as models. The quick `show` path reads the same answers with the
json module alone through `lookup`, outside this package, so it never loads pydantic.
"""

from pipeline.corpus.answers import (
    DocumentInfo,
    Followed,
    Record,
    RecordProvenance,
    Renumbered,
    VersionInfo,
    sha256_of,
)
from pipeline.corpus.reader import CorpusReader, open_corpus
from pipeline.corpus.shown import Shown
from pipeline.lookup.lineage import HistoryStep, Step
from pipeline.lookup.search import Hit

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
