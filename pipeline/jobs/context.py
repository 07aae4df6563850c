"""Where a command's files live and how it reports progress: built by the CLI, passed down."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pipeline.errors import RegistryError, UnreadableInput
from pipeline.fetch.policy import FetchPolicy
from pipeline.models.sources import Source
from pipeline.registry.loader import load_registry, parse_registry
from pipeline.runner.family_names import NAMES
from pipeline.runner.limits import ParseLimits
from pipeline.store.files import REGISTRY_BYTES, read_input

if TYPE_CHECKING:  # the cache imports the parse sandbox, which the read commands never use
    from pipeline.models.diffs import DocumentDiff
    from pipeline.models.records import Document
    from pipeline.runner.cache import ParseCache
    from pipeline.store.blobs import BlobStore
    from pipeline.store.corpus import Corpus


def load_sources(path: Path | None, families: Collection[str] | None = None) -> list[Source]:
    """The registry at `path` (`--sources FILE`), or the packaged one; every problem names
    the file and the entry. The file is read by the one reader of input files: a FIFO or
    a device given as the registry is refused, never waited on."""
    if path is None:
        return load_registry(families)
    try:
        data = read_input(path, REGISTRY_BYTES, what="registry")
    except UnreadableInput as exc:
        raise RegistryError(exc.path, exc.problem) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RegistryError(
            str(path), f"not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from exc
    return parse_registry(text, str(path), families, probe=True)


class Progress(Protocol):
    """How a job reports what it is doing; the CLI draws it, library code never does.
    `done` and `total` are given for work with a known length (a bar)."""

    def __call__(self, message: str, done: int | None = None, total: int | None = None) -> None: ...


def no_progress(message: str, done: int | None = None, total: int | None = None) -> None:
    """The default: a library caller that passes nothing sees nothing."""


class RenderDiff(Protocol):
    """One rendering of a diff (Markdown or HTML) as the corpus stores it beside its JSON."""

    def __call__(self, diff: DocumentDiff, old: Document, new: Document) -> str: ...


@dataclass(frozen=True)
class DiffRenderers:
    """How a stored diff's Markdown and HTML are rendered: the caller's (the command line
    passes report/'s), since the write pipeline renders nothing itself."""

    markdown: RenderDiff
    html: RenderDiff


@dataclass
class Context:
    """Everything a command needs to know about where things live."""

    corpus_dir: Path
    cache_dir: Path
    sources_file: Path | None = None
    policy: FetchPolicy = field(default_factory=FetchPolicy)
    progress: Progress = field(default=no_progress)
    limits: ParseLimits = field(default_factory=ParseLimits.from_env)
    # Parsed Documents by blob and code (see parse_cache); default <cache>/parsed.
    parse_cache_dir: Path | None = None
    use_parse_cache: bool = True
    # Needed by the jobs that publish a version after another (update, import, accept).
    renderers: DiffRenderers | None = None

    # The stores (and filelock under them) are imported when asked for: `parse` uses
    # neither.
    @property
    def corpus(self) -> Corpus:
        from pipeline.store.corpus import Corpus

        return Corpus(self.corpus_dir)

    @property
    def blobs(self) -> BlobStore:
        from pipeline.store.blobs import BlobStore

        return BlobStore(self.cache_dir)

    @property
    def parses(self) -> ParseCache:
        from pipeline.runner.cache import ParseCache

        if not self.use_parse_cache:
            return ParseCache(None)
        return ParseCache(self.parse_cache_dir or self.cache_dir / "parsed")

    def registry(self) -> list[Source]:
        return load_sources(self.sources_file, NAMES)

    @contextmanager
    def run_lock(self) -> Iterator[str]:
        """The corpus and the cache for this run alone (exit 75 if another run has either).
        Whatever a killed run left is cleaned up first; yields what was found, or ''."""
        with self.corpus.locked() as recovery, self.blobs.locked() as partial:
            notes = [recovery.message] if recovery.message else []
            if partial:
                notes.append(
                    f"removed {partial} half-written files of a killed run from the cache "
                    f"{self.blobs.root} (downloads, parsed documents)"
                )
            yield "; ".join(notes)
