"""Wiki rules pages (`fandom-wiki`): a verified MediaWiki revision bundle -> section records.

Input: the bundle `pipeline.fetch.mediawiki` builds (revision id, published SHA-1,
wikitext, rendered HTML). Each section of the rendered page (the lead, then one
per heading) becomes a Ruling record: `section` is the heading, `text` the
section's visible text, `text_md` its wikitext as published, and `citations`
the structured citations found in it, e.g. `Page 21, Column 2, Paragraph(s) 1,
Core Rule Book` with the quoted text before it.

Why Ruling and not Passage: a section is a clarification with citations, which is
what Ruling carries (`section`, `citations`); a Passage has no place for them, and
the rulings diff then applies to wiki revisions unchanged.
"""

from __future__ import annotations

import re

from pipeline.errors import ParseError
from pipeline.models.content import HtmlSection, HtmlText, WikiPage
from pipeline.models.records import (
    Citation,
    Document,
    Location,
    ParseOptions,
    ParserInfo,
    ParseWarning,
    Ruling,
)
from pipeline.models.records import WarningCode as W
from pipeline.parse.common import warn
from pipeline.parse.rulings import ruling_id

FAMILY = "fandom-wiki"
PARSER_VERSION = "1.0"

CITATION = re.compile(
    r"Page\s+(?P<page>\d+)\s*,\s*"
    r"(?:Column\s+(?P<column>\d+)\s*,\s*)?"
    r"(?:Paragraphs?(?:\(s\))?\s+(?P<paragraphs>\d[\d\s,&\-–]*?(?:\s*and\s*\d+)?)\s*,\s*)?"
    r"(?P<document>[A-Za-z][^,\n()\[\]]*?)\s*(?=$|[)\]\n;]|\.(?:\s|$))",
    re.I,
)
_QUOTE_TRIM = " \t\"'“”‘’«»—–-:(["
_WIKI_HEADING = re.compile(r"^(={1,6})\s*(.+?)\s*\1\s*$", re.M)


def find_citations(blocks: list[HtmlText]) -> list[Citation]:
    """Citations in a section's blocks, each with the text it quotes.

    The quote is what precedes the citation on its line; when the citation sits on a
    line of its own, the line before it; when it is a block of its own, the block before.
    """
    found: list[Citation] = []
    for b, block in enumerate(blocks):
        lines = block.text.split("\n")
        for i, line in enumerate(lines):
            for match in CITATION.finditer(line):
                quote = line[: match.start()].strip(_QUOTE_TRIM + " ")
                if not quote and i > 0:
                    quote = lines[i - 1]
                elif not quote and b > 0:
                    quote = blocks[b - 1].text
                document, page, column, paragraphs = match.group(
                    "document", "page", "column", "paragraphs"
                )
                found.append(
                    Citation(
                        document=document.strip(),
                        page=int(page),
                        column=int(column) if column else None,
                        paragraphs=" ".join(paragraphs.split()) if paragraphs else None,
                        quote=quote.strip(_QUOTE_TRIM).strip(),
                    )
                )
    return found


def split_wikitext(wikitext: str) -> list[tuple[str | None, int, str]]:
    """(heading, 1-based line of the heading, section wikitext) in page order."""
    headings = [(m.group(2), m.start(), m.end()) for m in _WIKI_HEADING.finditer(wikitext)]
    ends = [start for _, start, _ in headings] + [len(wikitext)]
    out = [
        (heading, wikitext.count("\n", 0, start) + 1, wikitext[body:end].strip())
        for (heading, start, body), end in zip([(None, 0, 0), *headings], ends, strict=True)
    ]
    return [s for s in out if s[0] is not None or s[2]]


def _plain_heading(heading: str) -> str:
    """Wikitext heading -> text: links and bold/italic quotes dropped."""
    text = re.sub(r"\[\[(?:[^|\]]*\|)?([^\]]*)\]\]", r"\1", heading)
    return " ".join(re.sub(r"'{2,}", "", text).split())


def build_records(
    sections: list[HtmlSection], wikitext: str, warnings: list[ParseWarning]
) -> list[Ruling]:
    source = split_wikitext(wikitext)
    by_heading = {_plain_heading(h) if h else None: (line, text) for h, line, text in source}
    records = []
    for section in sections:
        text = "\n".join(b.text for b in section.blocks)
        if not text:
            continue
        line, text_md = by_heading.get(section.heading, (None, None))
        if text_md is None:
            message = f"section {section.heading!r} of the rendered page has no matching wikitext"
            warnings.append(warn(W.NO_WIKITEXT_SECTION, message + " heading"))
        records.append(Ruling(
            id=ruling_id(None, None, text, section.heading), section=section.heading,
            text=text, text_md=text_md, citations=find_citations(section.blocks),
            location=Location(line=line) if line is not None else None,
        ))  # fmt: skip
    return records


def parse(page: WikiPage, notes: dict[str, int], options: ParseOptions) -> Document:
    """Sections and citations of one pinned wiki revision (read by
    extract.html.read_wiki_bundle); its version is the revision id."""
    document, version = options.document, options.version
    what = f"{document} (fandom-wiki)"
    warnings: list[ParseWarning] = []
    revid = str(page.revid)
    if version is not None and version != revid:
        message = f"asked to store version {version!r} but the bundle is revision {revid}"
        warnings.append(warn(W.VERSION_MISMATCH, message))
    records = build_records(page.sections, page.wikitext, warnings)
    if not records:
        raise ParseError(what, f"the rendered page of revision {revid} has no text")
    citations = [c for r in records for c in r.citations]
    documents = len({c.document for c in citations})
    counts = {"sections": len(records), "citations": len(citations), "cited_documents": documents}
    return Document(
        game=document.split("/")[0], document=document, title=page.title, version=revid,
        parser=ParserInfo(family=FAMILY, version=PARSER_VERSION), counts=counts,
        warnings=warnings, rulings=records,
    )  # fmt: skip
