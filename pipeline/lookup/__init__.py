"""A stored corpus read with the json module alone: a citation as people write it found and
shown (`lookup.show`), a record followed through the versions (`lookup.lineage`, the one
lineage) and search (`lookup.search`).

No pydantic and no models, so `show`, `history` and `search` answer in the time Python
takes to start (`cli/quick.py`); `corpus` makes the same answers models. The one reader
of a corpus folder is the store's (`store.reader`): the command line, cite-check and the
export name it here, never in the store.
"""

from pipeline.store.reader import StoredCorpus, StoredVersion

__all__ = ["StoredCorpus", "StoredVersion"]
