"""The read side's name for the store's one reader of a corpus folder (`store.reader`):
the command line and the site read through `corpus`, never the store."""

from pipeline.store.reader import StoredCorpus, StoredVersion

__all__ = ["StoredCorpus", "StoredVersion"]
