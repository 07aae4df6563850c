"""What the read commands check in their document and version arguments before they ask the
corpus, so a newcomer's typo or a missing corpus gets one line that says what to do: the
corpus folder must exist and hold something, a document id, version or family that is not
known comes with the nearest known ones ("did you mean"), and an omitted version is the
current one. A command opens the corpus once (`require_corpus`): its checks and its answer
read the same `StoredCorpus`, whose index.json is parsed and validated once."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import NotFound, UsageError
from pipeline.jobs.context import Context
from pipeline.runner.family_names import NAMES as FAMILY_NAMES

if TYPE_CHECKING:  # the models load when a command opens the corpus, not at start
    from pipeline.corpus import CorpusReader
    from pipeline.lookup import StoredCorpus

__all__ = [
    "check_document",
    "check_family",
    "check_read_arguments",
    "check_version",
    "current_version",
    "require_corpus",
]

HOW_TO_CHOOSE = (
    "pass --corpus DIR or set RULESCORPUS_CORPUS to the corpus folder, or run `make run` "
    "(or `rulescorpus update`) to build one here"
)


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`did you mean X?` when some known name is close to `word`, else ''."""
    choices = sorted(set(known))
    close = difflib.get_close_matches(word, choices, n=3, cutoff=0.6)
    if not close:
        # A version typed without its separators (20251114 for 2025-11-14) is still close.
        folded = {fold(c): c for c in choices}
        close = [folded[m] for m in difflib.get_close_matches(fold(word), folded, n=3)]
    return f"did you mean {' or '.join(close)}? " if close else ""


def fold(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


def require_corpus(ctx: Context) -> CorpusReader:
    """The corpus folder opened for the command, its index validated; a missing or empty
    folder is a usage error naming it."""
    from pipeline.corpus import open_corpus

    root = ctx.corpus_dir
    where = str(root) if root.is_absolute() else f"{root} (in {Path.cwd()})"
    if not root.is_dir():
        raise UsageError(f"no corpus folder at {where}: {HOW_TO_CHOOSE}")
    try:
        reader = open_corpus(root)
    except NotFound:  # a folder without index.json: nothing stored yet
        reader = None
    if reader is None or not reader.index().documents:
        raise UsageError(f"the corpus at {where} holds no document yet: {HOW_TO_CHOOSE}")
    return reader


def check_read_arguments(ctx: Context, doc: str | None, *versions: str | None) -> CorpusReader:
    """The corpus opened once for the command, and the document and versions when given
    checked in it (or a line saying what to do, with the nearest names)."""
    reader = require_corpus(ctx)
    if doc is not None:
        check_document(reader.stored, doc)
        for version in versions:
            if version is not None:
                check_version(reader.stored, doc, version)
    return reader


def check_document(stored: StoredCorpus, document: str) -> None:
    documents = stored.documents()
    if document not in documents:
        raise NotFound(
            f"document {document}",
            f"{did_you_mean(document, documents)}the corpus at {stored.root} has: "
            + ", ".join(documents),
        )


def check_version(stored: StoredCorpus, document: str, version: str) -> None:
    """A version the document does not store; forms that name the same stored version
    (20251114 for 2025-11-14) are left for the corpus to read."""
    versions = [v["version"] for v in stored.entry(document).get("versions") or []]
    if version in versions or fold(version) in {fold(v) for v in versions}:
        return
    raise NotFound(
        f"version {version} of {document}",
        f"{did_you_mean(version, versions)}stored versions: {', '.join(versions)}",
    )


def current_version(stored: StoredCorpus, document: str) -> str:
    current = stored.current(document)
    if current is None:
        raise NotFound(f"a current version of {document}", "import or update it first")
    return current


def check_family(family: str) -> None:
    if family not in FAMILY_NAMES:
        raise UsageError(
            f"unknown family {family!r}; {did_you_mean(family, FAMILY_NAMES)}"
            f"known: {', '.join(sorted(FAMILY_NAMES))}"
        )
