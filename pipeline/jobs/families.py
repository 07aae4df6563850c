"""Family dispatch: which extractor and which parser turn a rendition's bytes into a Document.

This is the one table to extend when a game is added: write `parse/<family>.py`,
then add a branch here and a [[source]] in sources.toml.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from pipeline.errors import UsageError
from pipeline.extract.html import FAQ_KEYS, read_faq_page, read_wiki_bundle
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.text import extract_text_lines
from pipeline.models import Document, Line

FAMILIES = {
    "fab-cr": "pipeline.parse.fab.cr",
    "fab-policy": "pipeline.parse.fab.policy",
    "mtg-cr": "pipeline.parse.mtg.cr",
    "netrunner-cr": "pipeline.parse.netrunner.cr",
    "riftbound-cr": "pipeline.parse.riftbound.cr",
    "nrdb-rulings": "pipeline.parse.rulings",
    "faq-html": "pipeline.parse.faq",
    "fandom-wiki": "pipeline.parse.wiki",
}


@dataclass(frozen=True)
class ParseRequest:
    family: str
    document: str
    rendition: str
    what: str = "document"
    version: str | None = None
    options: dict[str, str] = field(default_factory=dict)


def family_module(family: str) -> ModuleType:
    name = FAMILIES.get(family)
    if name is None:
        raise UsageError(f"unknown family {family!r}; known: {', '.join(sorted(FAMILIES))}")
    return importlib.import_module(name)


def parser_version(family: str) -> str:
    return str(family_module(family).PARSER_VERSION)


def _lines(
    data: bytes, request: ParseRequest, sentinel: str | None = None
) -> tuple[list[Line], dict[str, int]]:
    if request.rendition == "pdf":
        columns = int(request.options.get("columns", "1"))
        pdf = extract_pdf_lines(data, what=request.what, columns=columns)
        return pdf.lines, dict(pdf.notes)
    return extract_text_lines(data, what=request.what, sentinel=sentinel), {}


def parse_bytes(data: bytes, request: ParseRequest) -> Document:
    """Bytes of one rendition -> Document (source left None for the caller to fill)."""
    module = family_module(request.family)
    family = request.family
    kwargs: dict[str, Any] = {"document": request.document, "version": request.version}
    if family in ("fab-cr", "fab-policy", "mtg-cr"):
        sentinel = getattr(module, "SENTINEL", None) if request.rendition == "txt" else None
        lines, _notes = _lines(data, request, sentinel)
        doc: Document = module.parse(lines, rendition=request.rendition, **kwargs)
    elif family in ("netrunner-cr", "riftbound-cr"):
        lines, notes = _lines(data, request)
        doc = module.parse(lines, rendition=request.rendition, extraction=notes, **kwargs)
    elif family == "nrdb-rulings":
        from pipeline.extract.tarball import read_tar_members

        files = read_tar_members(data, what=request.what)
        doc = module.parse(files, **kwargs)
    elif family == "faq-html":
        selectors = {k: v for k, v in request.options.items() if k in FAQ_KEYS}
        page = read_faq_page(data, what=request.what, selectors=selectors)
        doc = module.parse(page, selectors=selectors, **kwargs)
    elif family == "fandom-wiki":
        doc = module.parse(read_wiki_bundle(data, what=request.what), **kwargs)
    else:
        raise UsageError(f"family {family} has no extraction step in families.py")
    return doc
