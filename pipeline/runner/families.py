"""The typed family table: which extractor and parser turn a rendition's bytes into a Document.

One list, `TABLE`, of `Family(name, extract, parse, version)` entries (made by `family`). An
extractor turns bytes into some content (text or PDF lines, tar members, an
FAQ page, a wiki bundle) plus extraction notes; every parser has one
signature, `parse(content, notes, options) -> Document` (`Parser`). Each
entry is type-checked: mypy infers the content type from the extractor and
checks the parser takes the same (a mismatch is an error at `make check`,
not at run time).

`parse_bytes` is the one parse entry point (update, import, `parse`, `verify
--reproduce`): it extracts, parses, checks the ending, records the extraction
engine on the Document (`parser.engine`, `parser.engine_version`: ONE place),
places every record's character offsets in the extracted text, and runs the
extraction-artefact lint (`parse.lint.lint_parsed`).

Every family whose documents number their rules declares its number shape (`shape`:
its scheme, or the registry entry's for family `numbered`), and `parse_bytes` accounts
for every number of that shape in the extracted lines (`parse.account`): a number no
record, citation or declared matter accounts for is an `unaccounted-number` warning.

Adding a family: write its parser (a sub-package of `parse/`, or nothing at
all for a numbered document: family `numbered` reads the scheme its registry
entry declares), add one `Family(...)` line here (with its number shape, if it has
one), a `[[source]]` in `registry/sources.toml`, and its name to `NAMES`
(runner/family_names.py, which the registry checks sources against without importing
this table).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Generic, Protocol, TypeVar

from pipeline.errors import UsageError
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.text import extract_text_lines, sniff_encoding
from pipeline.models.content import FaqPage, Line, NsgHtmlPage, RulesSite, WikiPage, YamlBundle
from pipeline.models.records import Document, ParseOptions
from pipeline.models.scheme import NumberedScheme
from pipeline.parse import faq, rulings, sections, wiki
from pipeline.parse.account import account_document
from pipeline.parse.common import doubt_citations
from pipeline.parse.endings import check_ending
from pipeline.parse.fab import cr as fab_cr
from pipeline.parse.fab import html as fab_html
from pipeline.parse.fab import policy as fab_policy
from pipeline.parse.lint import lint_parsed
from pipeline.parse.mtg import cr as mtg_cr
from pipeline.parse.mtg import policy as mtg_policy
from pipeline.parse.netrunner import cr as netrunner_cr
from pipeline.parse.nsg import html_cr as nsg_html
from pipeline.parse.nsg import yaml_cr as nsg_yaml
from pipeline.parse.numbered import engine as numbered
from pipeline.parse.numbered import headed
from pipeline.parse.numbered.finish import place_offsets
from pipeline.parse.riftbound import cr as riftbound_cr
from pipeline.parse.swu import cr as swu_cr
from pipeline.runner.family_names import NAMES
from pipeline.runner.request import ParseRequest, pdf_options

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
T_contra = TypeVar("T_contra", contravariant=True)


def _installed(package: str) -> str:
    try:
        return f"{package} {version(package)}"
    except PackageNotFoundError:  # pragma: no cover - every engine is a dependency
        return f"{package} (not installed)"


# What read the bytes that have no PDF engine: Python's own codecs and parsers (their
# behaviour changes with the minor version, not with a patch release) and the libraries.
PYTHON = f"Python {sys.version_info.major}.{sys.version_info.minor}"
TAR_ENGINE = ("python-tarfile json", PYTHON)


@cache
def html_engine() -> tuple[str, str]:
    return ("beautifulsoup4 html.parser", f"{_installed('beautifulsoup4')} ({PYTHON})")


@cache
def markdown_engine() -> tuple[str, str]:
    return ("markdown-it-py commonmark", f"{_installed('markdown-it-py')} ({PYTHON})")


@cache
def yaml_engine() -> tuple[str, str]:
    return ("PyYAML safe_load", f"{_installed('PyYAML')} ({PYTHON} tarfile)")


@dataclass(frozen=True)
class Extracted(Generic[T_co]):
    """What an extractor read: the parser's input, the notes it made (zero-width spaces),
    the engine that read the bytes and its version, and (for line families) the extracted
    lines that records' spans and character offsets refer to."""

    content: T_co
    notes: dict[str, int] = field(default_factory=dict)
    engine: str = ""
    engine_version: str = ""
    lines: list[Line] | None = None
    # the text a reader reads, for the account of every number, where the parser's input
    # is no lines (a rules site's blocks: each its page's and line)
    read: list[Line] | None = None


class Extractor(Protocol[T_co]):
    def __call__(self, data: bytes, request: ParseRequest, /) -> Extracted[T_co]: ...


class Parser(Protocol[T_contra]):
    """Every family's parser: the extracted content, the extraction notes, the options."""

    def __call__(
        self, content: T_contra, notes: dict[str, int], options: ParseOptions, /
    ) -> Document: ...


def registry_scheme(options: ParseOptions) -> NumberedScheme | None:
    """The number shape of family `numbered`: the scheme its registry entry declares."""
    return options.scheme


class Declared:
    """The number shape a family's parser reads by (its module's `SCHEME`)."""

    def __init__(self, scheme: NumberedScheme) -> None:
        self.scheme = scheme

    def __call__(self, options: ParseOptions) -> NumberedScheme | None:
        return self.scheme


@dataclass(frozen=True)
class Family(Generic[T]):
    name: str
    extract: Extractor[T]
    parse: Parser[T]
    version: str
    # the numbers its documents are made of, for the account of every number; None: a
    # family whose records are not numbered in the text (FAQ pages, rulings, YAML sources)
    shape: Callable[[ParseOptions], NumberedScheme | None] | None = None


class Lines:
    """The line families' extractor: text lines (decoded; `sentinel` is the title the text
    must start with) or PDF lines (read as `request.pdf_options` says)."""

    def __init__(self, sentinel: str | None = None) -> None:
        self.sentinel = sentinel

    def __call__(self, data: bytes, request: ParseRequest, /) -> Extracted[list[Line]]:
        if request.rendition == "pdf":
            columns, engine = pdf_options(request)
            pdf = extract_pdf_lines(data, what=request.what, columns=columns, engine=engine)
            return Extracted(pdf.lines, dict(pdf.notes), pdf.engine, pdf.engine_version, pdf.lines)
        if request.rendition in ("md", "html"):
            return page_lines(data, request)
        text = extract_text_lines(data, what=request.what, sentinel=self.sentinel)
        encoding, bom = sniff_encoding(data)
        codec = f"python-codecs {encoding}" + (" (byte-order mark)" if bom else "")
        return Extracted(text, engine=codec, engine_version=PYTHON, lines=text)


# The HTML, YAML and tar extractors import their engine when called: a PDF or text parse
# (the common case, and `rulescorpus parse`'s) does not load beautifulsoup4, soupsieve,
# PyYAML or tarfile, which it never uses.
def tar_members(data: bytes, request: ParseRequest) -> Extracted[dict[str, bytes]]:
    from pipeline.extract.tarball import read_tar_members

    return Extracted(read_tar_members(data, what=request.what), {}, *TAR_ENGINE)


def page_lines(data: bytes, request: ParseRequest) -> Extracted[list[Line]]:
    """A Markdown or HTML page's lines as a reader sees them rendered."""
    if request.rendition == "md":
        from pipeline.extract.markdown import extract_markdown_lines

        lines = extract_markdown_lines(data, what=request.what)
        return Extracted(lines, {}, *markdown_engine(), lines=lines)
    from pipeline.extract.html_lines import extract_html_lines

    lines = extract_html_lines(data, what=request.what)
    return Extracted(lines, {}, *html_engine(), lines=lines)


def faq_page(data: bytes, request: ParseRequest) -> Extracted[FaqPage]:
    from pipeline.extract.html import FAQ_KEYS, read_faq_page

    selectors = {k: v for k, v in request.options.items() if k in FAQ_KEYS}
    page = read_faq_page(data, what=request.what, selectors=selectors)
    return Extracted(replace(page, selectors=selectors), {}, *html_engine())


def wiki_bundle(data: bytes, request: ParseRequest) -> Extracted[WikiPage]:
    from pipeline.extract.html import read_wiki_bundle

    return Extracted(read_wiki_bundle(data, what=request.what), {}, *html_engine())


def yaml_bundle(data: bytes, request: ParseRequest) -> Extracted[YamlBundle]:
    from pipeline.extract.yaml_bundle import read_yaml_bundle

    return Extracted(read_yaml_bundle(data, what=request.what), {}, *yaml_engine())


def rules_site(data: bytes, request: ParseRequest) -> Extracted[RulesSite]:
    """A site bundle (pipeline.extract.fab_html): its pages in the order its index lists."""
    from pipeline.extract.fab_html import read_rules_site

    site = read_rules_site(data, what=request.what)
    read = [
        Line(text=block.text, line=block.line, page=page.page)
        for page in site.pages
        for block in page.blocks
    ]
    return Extracted(site, {}, *html_engine(), read=read)


def nsg_page(data: bytes, request: ParseRequest) -> Extracted[NsgHtmlPage]:
    from pipeline.extract.nsg_html import read_nsg_page

    return Extracted(read_nsg_page(data, what=request.what), {}, *html_engine())


def family(
    name: str,
    extract: Extractor[T],
    parse: Parser[T],
    version: str,
    shape: Callable[[ParseOptions], NumberedScheme | None] | None = None,
) -> Family[Any]:
    """One entry, checked: the parser must take what the extractor gives. (Written as
    `Family(...)` inside the Any-typed list, mypy would infer Any and check nothing.)"""
    return Family(name, extract, parse, version, shape)


# fmt: off
TABLE: list[Family[Any]] = [
    family("fab-cr", Lines(), fab_cr.parse, fab_cr.PARSER_VERSION, Declared(fab_cr.SCHEME)),
    family("fab-policy", Lines(), fab_policy.parse, fab_policy.PARSER_VERSION,
           Declared(fab_policy.SHAPE)),
    family("mtg-cr", Lines(mtg_cr.SENTINEL), mtg_cr.parse, mtg_cr.PARSER_VERSION,
           Declared(mtg_cr.SCHEME)),
    family("mtg-policy", Lines(), mtg_policy.parse, mtg_policy.PARSER_VERSION,
           mtg_policy.shape_of),
    family("netrunner-cr", Lines(), netrunner_cr.parse, netrunner_cr.PARSER_VERSION,
           Declared(netrunner_cr.SCHEME)),
    family("riftbound-cr", Lines(), riftbound_cr.parse, riftbound_cr.PARSER_VERSION,
           Declared(riftbound_cr.SCHEME)),
    family("numbered", Lines(), headed.parse_rendition, numbered.PARSER_VERSION,
           registry_scheme),
    family("swu-cr", Lines(), swu_cr.parse, swu_cr.PARSER_VERSION, Declared(swu_cr.SCHEME)),
    family("headed-sections", Lines(), sections.parse, sections.PARSER_VERSION),
    family("nrdb-rulings", tar_members, rulings.parse, rulings.PARSER_VERSION),
    family("faq-html", faq_page, faq.parse, faq.PARSER_VERSION),
    family("fandom-wiki", wiki_bundle, wiki.parse, wiki.PARSER_VERSION),
    family("nsg-yaml", yaml_bundle, nsg_yaml.parse, nsg_yaml.PARSER_VERSION),
    family("nsg-html", nsg_page, nsg_html.parse, nsg_html.PARSER_VERSION),
    family("fab-html", rules_site, fab_html.parse, fab_html.PARSER_VERSION,
           Declared(fab_cr.SCHEME)),
]
# fmt: on
FAMILIES: dict[str, Family[Any]] = {family.name: family for family in TABLE}
if set(FAMILIES) != NAMES:  # the registry checks sources against NAMES without this table
    raise RuntimeError(f"runner/family_names.py must list exactly {sorted(FAMILIES)}")


def family_of(name: str) -> Family[Any]:
    family = FAMILIES.get(name)
    if family is None:
        raise UsageError(f"unknown family {name!r}; known: {', '.join(sorted(FAMILIES))}")
    return family


def parser_version(name: str) -> str:
    return family_of(name).version


def parse_bytes(data: bytes, request: ParseRequest) -> Document:
    """Bytes of one rendition -> Document (source left None for the caller to fill): parsed,
    its ending checked, its extraction engine recorded, its spans' character offsets placed
    and its texts linted (unreviewed findings are warnings or publisher notes)."""
    return parse_extracted(family_of(request.family).extract(data, request), request)


def parse_extracted(extracted: Extracted[Any], request: ParseRequest) -> Document:
    """What an extractor read -> Document: `parse_bytes` after the extraction (tests give it
    lines they changed, to see what the parse and its account make of them)."""
    family = family_of(request.family)
    options = ParseOptions(
        document=request.document,
        rendition=request.rendition,
        version=request.version,
        settings=dict(request.options),
        scheme=request.scheme,
    )
    doc = check_ending(request.family, family.parse(extracted.content, extracted.notes, options))
    engine, engine_version = extracted.engine or None, extracted.engine_version or None
    parser = doc.parser.model_copy(update={"engine": engine, "engine_version": engine_version})
    doc = doc.model_copy(update={"parser": parser})
    if extracted.lines is not None:
        doc = place_offsets(doc, extracted.lines)
    read = extracted.lines if extracted.lines is not None else extracted.read
    scheme = family.shape(options) if family.shape is not None else None
    if read is not None and scheme is not None:
        doc = account_document(doc, read, scheme)
    return lint_parsed(doubt_citations(doc), text_file=request.rendition == "txt")


def engine_neutral(doc: Document) -> Document:
    """The Document as any engine reading the same bytes must give it: the one field that
    names the engine left out. Comparisons of two engines' parses
    (tests/extract/test_pdf_engines.py, `verify --cross-engine`) compare these; everything
    else, offsets included, must agree."""
    parser = doc.parser.model_copy(update={"engine": None, "engine_version": None})
    return doc.model_copy(update={"parser": parser})
