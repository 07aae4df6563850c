"""Where a command's files live and how it reports progress: built by the CLI, passed down."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.fetch.policy import FetchPolicy
from pipeline.models import Source
from pipeline.registry.loader import load_registry
from pipeline.store.blobs import BlobStore
from pipeline.store.corpus import Corpus

Progress = Callable[[str], None]


@dataclass
class Context:
    """Everything a command needs to know about where things live."""

    corpus_dir: Path
    cache_dir: Path
    sources_file: Path | None = None
    policy: FetchPolicy = field(default_factory=FetchPolicy)
    progress: Progress = field(default=lambda message: None)

    @property
    def corpus(self) -> Corpus:
        return Corpus(self.corpus_dir)

    @property
    def blobs(self) -> BlobStore:
        return BlobStore(self.cache_dir)

    def registry(self) -> list[Source]:
        return load_registry(self.sources_file)
