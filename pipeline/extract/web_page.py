"""A web page -> runs of text and links, each with the elements it sits in.

What the hash-attestation check (verify/attestations.py) reads a third-party page as: a
digest attests the URL printed in the same block, so every run knows its blocks. Parsed
with beautifulsoup4 like every other HTML page here; a page that is not HTML is kept as
text, its blocks being its paragraphs.
"""

from __future__ import annotations

import codecs
import contextlib
import itertools
import re

from bs4.element import NavigableString, Tag

from pipeline.extract.html import BLOCKS, read_soup
from pipeline.extract.text import normalise_newlines, sniff_encoding
from pipeline.models.content import PageRun, WebPage

_SKIPPED = frozenset({"script", "style", "template"})
# Elements that start a new line of text (a digest's label is the line before it): the
# blocks of a document's text, and the page's own furniture around them.
_BLOCK_TAGS = BLOCKS | frozenset({"aside", "details", "footer", "form", "header", "nav"})


def decode_page(page: bytes | str, content_type: str | None) -> str:
    """The page's text: a byte-order mark decides, then the charset its Content-Type
    names, then the sniff every text export gets (UTF-8, else cp1252). A third party's
    page is read even where its bytes are off: they are replaced, not refused."""
    if isinstance(page, str):
        return page
    encoding, skip = sniff_encoding(page)
    match = re.search(r"charset=[\"']?([\w-]+)", content_type or "", re.I)
    if not skip and match:
        with contextlib.suppress(LookupError):
            encoding = codecs.lookup(match.group(1)).name
    return normalise_newlines(page[skip:].decode(encoding, errors="replace"))


def looks_like_html(text: str, content_type: str | None) -> bool:
    if content_type and "html" in content_type.lower():
        return True
    head = text.lstrip()[:512].lower()
    return head.startswith("<") and ("<html" in head or "<!doctype" in head or "<body" in head)


def read_web_page(page: bytes | str, content_type: str | None = None, *, what: str) -> WebPage:
    """The page as runs when it is HTML, else as text."""
    text = decode_page(page, content_type)
    if not text.strip() or not looks_like_html(text, content_type):
        return WebPage(text=text)
    return WebPage(runs=tuple(_walk(read_soup(text, what=what))))


def _walk(root: Tag) -> list[PageRun]:
    """Every text run and link in document order. The walk keeps its own stack, so a page
    nested deeper than Python's recursion limit is read like any other."""
    ids = itertools.count(1)
    runs: list[PageRun] = []
    # (node, the ids of the elements around it); a plain str is a block's closing newline
    stack: list[tuple[Tag | NavigableString | str, tuple[int, ...]]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str) and not isinstance(node, NavigableString):
            runs.append(PageRun("text", node, path))  # a block's closing newline
            continue
        if isinstance(node, NavigableString):
            if type(node) is NavigableString:  # not comments, CDATA, doctype
                runs.append(PageRun("text", str(node), path))
            continue
        if node.name in _SKIPPED:
            continue
        inner = path if node is root else (*path, next(ids))
        block = node.name in _BLOCK_TAGS
        if block:
            runs.append(PageRun("text", "\n", path))
        href = node.get("href") if node.name == "a" else None
        if isinstance(href, str) and href:
            runs.append(PageRun("link", href, inner))
        children: list[tuple[Tag | NavigableString | str, tuple[int, ...]]] = [
            (child, inner) for child in node.children if isinstance(child, Tag | NavigableString)
        ]
        if block:
            children.append(("\n", path))
        stack.extend(reversed(children))
    return runs
