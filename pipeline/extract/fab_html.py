"""The FaB rules site (MkDocs Material pages) -> blocks of text, via beautifulsoup4.

A rendition of this kind is several pages: the site's index (the preface) lists
the chapter pages, the glossary and the back matter in its navigation. They
travel as one **site bundle**, whose format (built by fetch/, read here) is
pipeline.models.bundles. `list_site_pages` says which pages the index names: for
the live crawl (jobs hands it to fetch/) and for reading a bundle back.
Reading a bundle re-checks every page's hash and orders the pages as the
index's navigation lists them, never by file name; a page the index lists but
the bundle lacks is reported in `RulesSite.missing`, a page it does not list is
an error. Plain HTML bytes (not a bundle) are read as a site of one page.

Text is what a reader sees: permalink markers (`§`) dropped, runs of white space
collapsed, and resource icons (`<img src=".../icon_p.png" alt="{p}">`) written
back as the tokens the text export prints (`{p}`), by image name, alt text or
title, whichever the page gives; where they disagree, or an image is no known
icon, the image is listed in `SitePage.unknown_icons` for the parser to warn.
"""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import urldefrag

from bs4 import BeautifulSoup
from bs4.element import NavigableString, Tag

from pipeline.errors import ExtractError
from pipeline.extract.html import absolute_link, read_soup
from pipeline.models.bundles import BundleError, SiteBundle, canonical_page_url, read_site_bundle
from pipeline.models.content import RulesSite, SiteBlock, SitePage

# The resource icons of the FaB rules (the text export writes them `{r}`, `{p}`, ...),
# by the title the site gives each image. Letters not listed here are still read when
# the image name and the alt text agree on them (`{t}`, `{u}` appear in 2.14.0).
ICON_TITLES = {
    "resource": "r",
    "power": "p",
    "defense": "d",
    "intellect": "i",
    "life": "h",
    "chi": "c",
}
_ICON_FILE = re.compile(r"(?:^|/)icon[_-]([a-z])\.(?:png|svg|webp|gif|jpe?g)$", re.IGNORECASE)
_ICON_TOKEN = re.compile(r"^\{([a-z])\}$")
_NUMBER = re.compile(r"^\d+(?:\.\d+)*[a-z]?\s")
_VERSION_STATEMENT = re.compile(r"\b(?:version\s+|v)(\d+\.\d+\.\d+)(?![\d.]*\d)", re.IGNORECASE)
_NOISE = ("script", "style", "noscript", "template", "nav", "footer", "aside", "iframe", "form")
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BLOCK_TAGS = frozenset({"p", "div", "li", "ul", "ol", "blockquote", "table", "tr", "br"})


# --------------------------------------------------------------------------- bundles


def list_site_pages(index_html: bytes | str, index_url: str, *, what: str) -> list[str]:
    """The pages the index's navigation lists, in its order, the index first.

    Only links into the index's own folder count (the site's "Home" link leads
    out of the rules); folder URLs are written as their `index.html`.
    """
    soup = read_soup(index_html, what=what)
    nav = soup.select_one("nav.md-nav--primary")
    if nav is None:
        raise ExtractError(
            what,
            "the index page has no MkDocs navigation (nav.md-nav--primary), so the pages "
            "of the site cannot be listed; is this the rules site's index page?",
        )
    index = canonical_page_url(index_url)
    folder = index.rsplit("/", 1)[0] + "/"
    pages = [index]
    for link in nav.find_all("a", href=True):
        absolute = absolute_link(index, str(link["href"]))
        url = canonical_page_url(absolute) if absolute is not None else ""
        if url.startswith(folder) and url not in pages:
            pages.append(url)
    return pages


def _bundle_pages(data: bytes, *, what: str) -> SiteBundle:
    try:
        return read_site_bundle(data)
    except BundleError as exc:
        raise ExtractError(what, exc.problem) from exc


def read_rules_site(data: bytes, *, what: str) -> RulesSite:
    """A site bundle's pages in index order (or plain HTML bytes as a site of one page)."""
    if not data.lstrip().startswith(b"{"):
        return RulesSite(index=None, pages=[read_site_page(data, url=None, page=1, what=what)])
    bundle = _bundle_pages(data, what=what)
    index, pages = bundle.index, bundle.pages
    if index not in pages:
        raise ExtractError(what, f"the bundle does not hold its index page {index}")
    listed = list_site_pages(pages[index], index, what=f"{what} {index}")
    unlisted = sorted(set(pages) - set(listed))
    if unlisted:
        raise ExtractError(
            what,
            f"the bundle holds pages its index does not list: {', '.join(unlisted)}; "
            "only the pages the site's navigation names belong to the document",
        )
    present = [url for url in listed if url in pages]
    return RulesSite(
        index=index,
        pages=[
            read_site_page(pages[url], url=url, page=number, what=f"{what} {url}")
            for number, url in enumerate(present, start=1)
        ],
        missing=tuple(url for url in listed if url not in pages),
    )


# --------------------------------------------------------------------------- pages


class _Text:
    """Collects one block's visible text, its in-site links and the icons met on the way."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.links: list[str] = []
        self.icons: list[str] = []
        self.unknown: list[str] = []

    def walk(self, node: Tag) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                if type(child) is NavigableString:  # not comments, CDATA, doctype
                    self.parts.append(str(child))
            elif isinstance(child, Tag):
                self.element(child)

    def element(self, tag: Tag) -> None:
        if "headerlink" in (tag.get("class") or []):
            return  # the permalink marker (§) is not text
        if tag.name == "img":
            self.image(tag)
            return
        if tag.name == "a" and tag.get("href"):
            fragment = urldefrag(str(tag["href"]))[1]
            if fragment and fragment not in self.links:
                self.links.append(fragment)
        block = tag.name in _BLOCK_TAGS
        if block:
            self.parts.append("\n")
        self.walk(tag)
        if block:
            self.parts.append("\n")

    def image(self, img: Tag) -> None:
        token = icon_token(img)
        if token is not None:
            self.icons.append(token)
            self.parts.append(token)
        else:
            self.unknown.append(str(img.get("src") or img.get("alt") or "<img>"))
            self.parts.append(str(img.get("alt") or ""))

    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self.parts).split("\n"))
        return "\n".join(line for line in lines if line)


def icon_token(img: Tag) -> str | None:
    """`{x}` for a resource icon image: by file name, alt text or title; None when they
    name no icon or disagree (a page that draws Power with Life's image must not pass)."""
    letters: set[str] = set()
    if match := _ICON_FILE.search(str(img.get("src") or "")):
        letters.add(match.group(1).lower())
    if match := _ICON_TOKEN.match(str(img.get("alt") or "").strip()):
        letters.add(match.group(1))
    if (title := ICON_TITLES.get(str(img.get("title") or "").strip().lower())) is not None:
        letters.add(title)
    return "{" + letters.pop() + "}" if len(letters) == 1 else None


def _is_strong_heading(tag: Tag) -> bool:
    """A heading whose text after its number is all <strong>: a keyword or glossary term."""
    loose: list[str] = []
    strong = False
    for child in tag.children:
        if isinstance(child, Tag) and child.name in ("strong", "b"):
            strong = strong or bool(child.get_text(strip=True))
        elif isinstance(child, Tag) and "headerlink" in (child.get("class") or []):
            continue
        elif isinstance(child, Tag):
            loose.append(child.get_text())
        elif type(child) is NavigableString:
            loose.append(str(child))
    rest = _NUMBER.sub("", "".join(loose).strip() + " ", count=1).strip()
    return strong and not rest


def _block(
    tag: Tag, kind: Literal["heading", "paragraph", "quote", "item", "other"], sink: _Text
) -> SiteBlock | None:
    text = _Text()
    text.walk(tag)
    sink.icons.extend(text.icons)
    sink.unknown.extend(text.unknown)
    body = text.text()
    if not body and kind != "heading":
        return None
    heading = kind == "heading"
    return SiteBlock(
        kind=kind,
        text=body,
        line=tag.sourceline or 0,
        level=_HEADINGS.get(tag.name or "") if heading else None,
        anchor=str(tag["id"]) if heading and tag.get("id") else None,
        strong=heading and _is_strong_heading(tag),
        links=tuple(text.links),
    )


def _content(soup: BeautifulSoup) -> Tag:
    for selector in ("article.md-content__inner", "article", "main", "body"):
        found = soup.select_one(selector)
        if found is not None:
            return found
    return soup


def read_site_page(data: bytes | str, *, url: str | None, page: int, what: str) -> SitePage:
    """The content blocks of one page in document order (navigation, header and scripts
    left out): headings, paragraphs, each paragraph of a blockquote, each list item."""
    soup = read_soup(data, what=what)
    title_tag = soup.find("title")
    title = " ".join(title_tag.get_text().split()) if title_tag else None
    for tag in soup.find_all(_NOISE):
        tag.decompose()
    content = _content(soup)
    sink = _Text()
    blocks: list[SiteBlock] = []
    for child in content.children:
        if not isinstance(child, Tag):
            continue
        found: list[SiteBlock | None]
        if child.name in _HEADINGS:
            found = [_block(child, "heading", sink)]
        elif child.name == "p":
            found = [_block(child, "paragraph", sink)]
        elif child.name == "blockquote":
            parts = [c for c in child.children if isinstance(c, Tag)] or [child]
            found = [_block(part, "quote", sink) for part in parts]
        elif child.name in ("ul", "ol"):
            found = [_block(li, "item", sink) for li in child.find_all("li", recursive=False)]
        else:
            found = [_block(child, "other", sink)]
        blocks.extend(b for b in found if b is not None)
    statement = " ".join([title or "", *(b.text for b in blocks)])
    version = _VERSION_STATEMENT.search(statement)
    return SitePage(
        url=url,
        page=page,
        title=title,
        blocks=blocks,
        stated_version=version.group(1) if version else None,
        icons=tuple(sink.icons),
        unknown_icons=tuple(sink.unknown),
    )
