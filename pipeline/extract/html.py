"""HTML documents -> text blocks, via beautifulsoup4 (the only module that parses documents' HTML).

Two readers: question/answer pairs found by CSS selectors (FAQ pages, release
notes), and the sections of a rendered MediaWiki page. Both return plain text as
a reader sees it: scripts, styles, navigation and footers dropped, inline markup
flattened, block elements on their own lines, runs of spaces collapsed.
"""

from __future__ import annotations

import bisect
import json
import warnings
from urllib.parse import urldefrag, urljoin

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, ParserRejectedMarkup
from bs4.element import NavigableString, Tag
from soupsieve import SelectorSyntaxError

from pipeline.errors import ExtractError
from pipeline.models.bundles import WIKI_BUNDLE_FIELDS
from pipeline.models.content import FaqPage, HtmlSection, HtmlText, QAItem, WikiPage

# Never part of a document's content, whatever a selector says.
NOISE = ("script", "style", "noscript", "template", "nav", "footer", "aside", "iframe", "form")
BLOCKS = frozenset(
    {
        "address",
        "article",
        "blockquote",
        "dd",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "li",
        "main",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tbody",
        "td",
        "th",
        "tr",
        "ul",
        "br",
    }
)
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def read_soup(data: bytes | str, *, what: str) -> BeautifulSoup:
    """The page as bs4 reads it (bs4 sniffs the byte encoding); ExtractError when the
    page is empty or html.parser gives up on it (a malformed declaration, say)."""
    if not data:
        raise ExtractError(what, "the page is empty")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        try:
            return BeautifulSoup(data, "html.parser")
        except ParserRejectedMarkup as exc:
            first = str(exc).strip().splitlines()[-1].strip()
            raise ExtractError(
                what, f"the page is not HTML that can be read ({first}); is it the right file?"
            ) from exc


def load_html(data: bytes | str, *, what: str) -> BeautifulSoup:
    """Parsed page with the noise elements removed."""
    soup = read_soup(data, what=what)
    for tag in soup.find_all(NOISE):
        tag.decompose()
    return soup


def _collect(node: Tag, parts: list[str], links: list[str]) -> None:
    for child in node.children:
        if isinstance(child, NavigableString):
            if type(child) is NavigableString:  # not comments, CDATA, doctype
                parts.append(str(child))
            continue
        if not isinstance(child, Tag):
            continue
        if child.name == "a" and child.get("href"):
            links.append(str(child["href"]))
        block = child.name in BLOCKS
        if block:
            parts.append("\n")
        _collect(child, parts, links)
        if block:
            parts.append("\n")


def element_text(element: Tag, *, skip: str | None = None) -> HtmlText:
    """Visible text of `element`; descendants matching CSS `skip` are left out."""
    line = element.sourceline
    if skip:
        element = BeautifulSoup(str(element), "html.parser")  # a copy: the page stays intact
        for tag in element.select(skip):
            tag.decompose()
    parts: list[str] = []
    links: list[str] = []
    _collect(element, parts, links)
    lines = (" ".join(line.split()) for line in "".join(parts).replace("\xa0", " ").split("\n"))
    return HtmlText("\n".join(t for t in lines if t), tuple(links), line)


def _select(root: BeautifulSoup | Tag, selector: str, *, what: str, key: str) -> list[Tag]:
    try:
        return list(root.select(selector))
    except (SelectorSyntaxError, ValueError) as exc:
        raise ExtractError(what, f"selector {key}={selector!r} is not valid CSS: {exc}") from exc


def _matches(tag: Tag, selector: str) -> bool:
    return bool(tag.css.match(selector))


def _preceding(order: dict[int, int], marks: list[Tag], target: Tag) -> Tag | None:
    """The last of `marks` before `target` in document order."""
    positions = [order[id(m)] for m in marks]
    index = bisect.bisect_left(positions, order[id(target)])
    return marks[index - 1] if index else None


def _answer_blocks(question: Tag, answer: str, stops: set[int], questions: set[int]) -> list[Tag]:
    """Siblings after the question that match `answer`, up to the next question, stop
    element or heading: the shapes h3+p, dt+dd and Q:/A: paragraphs all read this way."""
    found: list[Tag] = []
    for sibling in question.find_next_siblings():
        if not isinstance(sibling, Tag):
            continue
        if id(sibling) in questions or id(sibling) in stops:
            break
        if any(id(t) in questions for t in sibling.find_all(True)):
            break
        if _matches(sibling, answer):
            found.append(sibling)
        elif sibling.name in HEADINGS:
            break
    return found


def select_questions(
    data: bytes | str,
    *,
    what: str,
    question: str,
    answer: str | None,
    card: str | None = None,
    section: str | None = None,
    scope: str | None = None,
) -> list[QAItem]:
    """Every element matching `question` with its answer blocks, card and section.

    With `answer` None each question element stands alone (a text ruling).
    `scope` limits the search to matching containers. The card and section of a
    question are the last elements matching those selectors before it.
    """
    soup = load_html(data, what=what)
    roots: list[BeautifulSoup | Tag] = (
        list(_select(soup, scope, what=what, key="scope")) if scope else [soup]
    )
    order = {id(tag): i for i, tag in enumerate(soup.find_all(True))}
    found_q: list[Tag] = []
    for root in roots:
        found_q += [
            q
            for q in _select(root, question, what=what, key="question")
            if id(q) not in {id(x) for x in found_q}
        ]
    found_q.sort(key=lambda t: order[id(t)])
    cards = _select(soup, card, what=what, key="card") if card else []
    sections = _select(soup, section, what=what, key="section") if section else []
    stops = {id(t) for t in cards + sections}
    qids = {id(q) for q in found_q}
    items = []
    for q in found_q:
        blocks = _answer_blocks(q, answer, stops, qids) if answer else []
        answer_text = None
        if blocks:
            texts = [element_text(b) for b in blocks]
            answer_text = HtmlText(
                "\n".join(t.text for t in texts if t.text),
                tuple(h for t in texts for h in t.links),
                texts[0].line,
            )
        card_el = _preceding(order, cards, q)
        section_el = _preceding(order, sections, q)
        items.append(
            QAItem(
                element_text(q),
                answer_text,
                element_text(card_el) if card_el is not None else None,
                element_text(section_el) if section_el is not None else None,
            )
        )
    return items


def page_title(data: bytes | str, *, what: str) -> str | None:
    soup = load_html(data, what=what)
    title = soup.find("title")
    text = " ".join(title.get_text().split()) if title else ""
    return text or None


def select_text(data: bytes | str, selector: str, *, what: str) -> str | None:
    """Visible text of the first element matching `selector`, or None."""
    hits = _select(load_html(data, what=what), selector, what=what, key="version")
    return " ".join(element_text(hits[0]).text.split()) if hits else None


# Edit links, footnote markers, the table of contents and maintenance boxes (class
# "metadata", "ambox", "navbox", "noprint" by MediaWiki convention) are not content.
_EDIT_LINKS = (
    ".mw-editsection, .mw-cite-backlink, sup.reference, .toc, #toc, .mw-empty-elt, "
    ".metadata, .ambox, .navbox, .noprint"
)


def mediawiki_sections(html: str, *, what: str) -> list[HtmlSection]:
    """Sections of a rendered MediaWiki page (`action=parse` text).

    Handles both heading shapes MediaWiki emits: `<h2><span class="mw-headline"
    id="...">` (up to 1.42) and `<div class="mw-heading"><h2 id="...">` (1.43+).
    Edit links, reference markers and the table of contents are not text.
    """
    soup = load_html(html, what=what)
    root = soup.select_one(".mw-parser-output") or soup
    sections = [HtmlSection(None, None, None)]
    for child in root.children:
        if not isinstance(child, Tag):
            continue
        heading = child if child.name in HEADINGS else None
        if heading is None and "mw-heading" in (child.get("class") or []):
            heading = child.find(list(HEADINGS))
        if heading is not None:
            headline = heading.select_one(".mw-headline")
            anchor = (headline or heading).get("id")
            text = element_text(headline or heading, skip=_EDIT_LINKS).text
            sections.append(HtmlSection(text, str(anchor) if anchor else None, heading.sourceline))
            continue
        if _matches(child, _EDIT_LINKS):
            continue
        block = element_text(child, skip=_EDIT_LINKS)
        if block.text:
            sections[-1].blocks.append(HtmlText(block.text, block.links, child.sourceline))
    return [s for s in sections if s.heading is not None or s.blocks]


def list_links(html: bytes, base_url: str) -> list[str]:
    """Every `<a href>` on the page as an absolute URL, in page order, without duplicates.

    A `<base href>` in the page moves the base as a browser would; fragments are
    dropped because they never change which file is downloaded.
    """
    try:
        soup = read_soup(html, what=base_url)
    except ExtractError:
        return []  # a page no parser can read links to nothing; discovery says so
    base_tag = soup.find("base", href=True)
    if base_tag is not None:
        base_url = absolute_link(base_url, str(base_tag["href"]).strip()) or base_url
    seen: dict[str, None] = {}
    for anchor in soup.find_all("a", href=True):
        href = str(anchor["href"]).strip()
        if not href or href.lower().startswith(("javascript:", "mailto:", "data:")):
            continue
        absolute = absolute_link(base_url, href)
        if absolute is not None:
            seen.setdefault(absolute, None)
    return list(seen)


def absolute_link(base_url: str, href: str) -> str | None:
    """`href` made absolute without its fragment; None for an href no browser could
    follow (urljoin rejects `http://[x`, an unclosed IPv6 host)."""
    try:
        return urldefrag(urljoin(base_url, href))[0]
    except ValueError:
        return None


# --------------------------------------------------------------------------- page readers

FAQ_KEYS = frozenset(
    {"question", "answer", "text", "card", "section", "scope", "card_link", "version"}
)


def check_faq_selectors(selectors: dict[str, str], *, what: str) -> None:
    """The registry's selector set must name what to read; unknown keys are typos."""
    unknown = sorted(set(selectors) - FAQ_KEYS)
    if unknown:
        raise ExtractError(what, f"unknown selector keys {unknown}; known: {sorted(FAQ_KEYS)}")
    if "text" in selectors and ("question" in selectors or "answer" in selectors):
        raise ExtractError(what, "give either question+answer selectors or a text selector")
    if "text" not in selectors and not ("question" in selectors and "answer" in selectors):
        raise ExtractError(
            what, "the registry entry needs question and answer selectors (or a text selector)"
        )


def read_faq_page(data: bytes, *, what: str, selectors: dict[str, str]) -> FaqPage:
    """Questions, answers, cards and the stated version of an FAQ page, by CSS selectors."""
    check_faq_selectors(selectors, what=what)
    is_text = "text" in selectors
    items = select_questions(
        data,
        what=what,
        question=selectors.get("text") or selectors["question"],
        answer=None if is_text else selectors["answer"],
        card=selectors.get("card"),
        section=selectors.get("section"),
        scope=selectors.get("scope"),
    )
    version_text = (
        select_text(data, selectors["version"], what=what) if ("version" in selectors) else None
    )
    return FaqPage(title=page_title(data, what=what), items=items, version_text=version_text)


def read_wiki_bundle(data: bytes, *, what: str) -> WikiPage:
    """A wiki bundle (pipeline.models.bundles; fetched by pipeline.fetch.mediawiki) with its
    rendering split into sections."""
    try:
        bundle = json.loads(data)
    except ValueError as exc:
        raise ExtractError(what, f"not a MediaWiki revision bundle (JSON): {exc}") from exc
    if not isinstance(bundle, dict):
        raise ExtractError(what, "not a MediaWiki revision bundle (a JSON object)")
    missing = [k for k in WIKI_BUNDLE_FIELDS if k not in bundle]
    if missing:
        raise ExtractError(
            what,
            f"the bundle lacks {missing}; build it with "
            "pipeline.fetch.mediawiki.fetch_revision_bundle",
        )
    return WikiPage(
        title=str(bundle["title"]),
        revid=int(bundle["revid"]),
        sha1=str(bundle["sha1"]),
        wikitext=str(bundle["wikitext"]),
        sections=mediawiki_sections(str(bundle["html"]), what=what),
    )
