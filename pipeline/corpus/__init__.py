"""The corpus for downstream code: open a corpus folder and read it, typed and read-only.

from pipeline.corpus import open_corpus

corpus = open_corpus("corpus")
rule = corpus.record("mtg/cr", "cr:702.19c")
"""

from pipeline.corpus.reader import (
    CorpusReader,
    DocumentInfo,
    Followed,
    Record,
    RecordProvenance,
    Renumbered,
    VersionInfo,
    open_corpus,
    sha256_of,
)

__all__ = [
    "CorpusReader",
    "DocumentInfo",
    "Followed",
    "Record",
    "RecordProvenance",
    "Renumbered",
    "VersionInfo",
    "open_corpus",
    "sha256_of",
]
