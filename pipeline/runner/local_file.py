"""`rulescorpus parse FILE`: one local file through one family parser, no corpus involved.

It imports no parser: the parse runs in the sandbox's child, which imports the family
table (`runner.sandbox`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from pipeline.errors import UnreadableInput, UsageError
from pipeline.models.records import Document, Erratum, ParseWarning, PublisherNote, SourceRef
from pipeline.models.sources import Source
from pipeline.runner.family_names import NAMES
from pipeline.runner.request import ParseRequest, request_for
from pipeline.runner.sandbox import parse_isolated_as
from pipeline.store.canonical import canonical_json
from pipeline.store.files import read_input
from pipeline.verify.checks import sha256_bytes

SUFFIXES = {
    ".txt": "txt",
    ".pdf": "pdf",
    ".md": "md",
    ".markdown": "md",
    ".html": "html",
    ".htm": "html",
    ".json": "json",
    ".gz": "tar.gz",
    ".tgz": "tar.gz",
}


@dataclass(frozen=True)
class ParsedFile:
    """What the parse command prints: the Document's canonical JSON, as the corpus would
    store it, and what it says on stderr."""

    json: bytes
    warnings: list[ParseWarning]
    publisher_errata: list[Erratum]
    publisher_notes: list[PublisherNote]


def as_file(ref: SourceRef, doc: Document) -> ParsedFile:
    """The parse sandbox's child's last step (`parse_isolated_as`): the Document read from
    the file `ref` describes, as `ParsedFile`. Made there, the caller has only bytes to
    print, not a Document to read back, check and write out again."""
    doc = doc.model_copy(update={"source": ref, "renditions": [ref]})
    return ParsedFile(canonical_json(doc), doc.warnings, doc.publisher_errata, doc.publisher_notes)


def rendition_of(path: Path) -> str:
    rendition = SUFFIXES.get(path.suffix.lower())
    if rendition is None:
        raise UsageError(f"{path}: cannot tell the rendition from the name; pass --rendition")
    return rendition


def read_document(path: Path, limit: int) -> bytes:
    """A local document's bytes for `parse` and `scheme`, by the one reader of input files,
    at most `limit` of them (its source's max_bytes)."""
    try:
        return read_input(path, limit, what="document")
    except UnreadableInput as exc:
        if "over the limit" in exc.problem:
            raise UnreadableInput(
                exc.path,
                exc.problem,
                "if the file is genuine, raise max_bytes for its source in the registry "
                "(--sources FILE)",
            ) from exc
        raise


def parse_file(
    path: Path,
    family: str,
    *,
    version: str | None = None,
    document: str | None = None,
    rendition: str | None = None,
    registry: list[Source] | None = None,
    engine: str | None = None,
) -> ParsedFile:
    if family not in NAMES:  # the family table's names (it checks so), without its imports
        raise UsageError(f"unknown family {family!r}; known: {', '.join(sorted(NAMES))}")
    if document is None:
        match = next((s for s in registry or [] if s.family == family), None)
        if match is None:
            raise UsageError(f"no registry source uses family {family}; pass --document")
        document = match.document
    rendition = rendition or rendition_of(path)
    source = next(
        (
            s
            for s in registry or []
            if (s.family, s.rendition, s.document) == (family, rendition, document)
        ),
        None,
    )
    limit = source.max_bytes if source is not None else Source.model_fields["max_bytes"].default
    data = read_document(path, limit)
    if source is not None:
        request = request_for(source, what=str(path), version=version)
    else:
        # A scheme says how the document is numbered, whichever rendition is read.
        numbered = (s for s in registry or [] if (s.family, s.document) == (family, document))
        scheme = next((s.scheme for s in numbered if s.scheme is not None), None)
        request = ParseRequest(
            family=family, document=document, rendition=rendition, what=str(path),
            version=version, scheme=scheme,
        )  # fmt: skip
    if engine is not None:
        request = replace(request, options={**request.options, "engine": engine})
    ref = SourceRef(url=None, sha256=sha256_bytes(data), bytes=len(data), rendition=rendition)
    return parse_isolated_as(data, request, partial(as_file, ref))
