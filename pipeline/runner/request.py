"""What a parse is asked to read, without importing a parser: `ParseRequest`, the request
for a registry source, and the PDF extraction a line family's request asks for.

They live apart from the family table (`runner.families`, which imports every parser):
the parse command and the jobs build their requests from them in a process that never
parses, and leave the parsers to the parse sandbox's child.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.models.scheme import NumberedScheme
from pipeline.models.sources import Source


@dataclass(frozen=True)
class ParseRequest:
    family: str
    document: str
    rendition: str
    what: str = "document"
    version: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    scheme: NumberedScheme | None = None  # family `numbered`: the registry entry's scheme


def request_for(source: Source, *, what: str, version: str | None = None) -> ParseRequest:
    """The request for one registry source: its family, document, rendition, options, scheme."""
    return ParseRequest(
        family=source.family,
        document=source.document,
        rendition=source.rendition,
        what=what,
        version=version,
        options=dict(source.options),
        scheme=source.scheme,
    )


def pdf_options(request: ParseRequest) -> tuple[int, str]:
    """The columns and the engine a line family's PDF is read with (its source's options)."""
    return int(request.options.get("columns", "1")), request.options.get("engine", "pdfium")
