"""Null Signal Games' Comprehensive Rules web page (https://rules.nullsignal.games/) -> entries.

The page is made by NSG's generator (github.com/rubenpieters/netrunner-comprehensive-rules,
`rules_doc_generator/model/main.py` and `model/section.py`) from the YAML source:

- front matter: `<p class="Title">`, a paragraph "... This version of the Comprehensive
  Rules document is effective <b>30 March 2024</b>.", then `<details>` whose summary is
  "Summary of Changes (v24.03)" with one `<li>` per change;
- `<h1 class="Chapter" id=KEY>` and `<h2 class="Section" id=KEY>` headings whose
  `<a class="RuleLink">` prints the number (`1.`, `1.2.`), a section's `<p class="Snippet">`;
- `<ol class="Rules">` of `<li class="Rule" id=KEY>`, each led by
  `<span class="RuleLinkOuterWrapper">…<a class="RuleLink">1.2.3.</a>…</span>`, its text (a
  subsection printed as a heading wraps it in `<span class="SubSection">`), its
  `<ol class="Examples">` of `<li class="Example">Example: …</li>`, and for a
  subsection `<ol class="SubRules">` (snippet, examples, `<li class="SubRule">` with
  `a.`, `b.` …); timing structures as nested `<ol class="TimingStructureList">`;
- references `<a href=#KEY>rule 1.2.3</a>`, game terms, subtypes and products as spans,
  cards as `<a class="Card" href="https://netrunnerdb.com/…">Name<span>…preview…</span></a>`
  (older pages: `<span class="Card">`), symbols as `<img class="Symbol" alt="credit">`.

This module reads that shape with beautifulsoup4 and returns each entry's printed number,
anchor, visible text (symbols written back as the generator's own `{img:NAME}` markup, so
the parser renders them as the YAML rendition does), examples, links and card names. It
does not decide what the numbers mean: pipeline.parse.nsg.html_cr does.
"""

from __future__ import annotations

import re
from html.entities import html5

from bs4 import BeautifulSoup
from bs4.element import NavigableString, Tag

from pipeline.errors import ExtractError
from pipeline.extract.html import load_html
from pipeline.models.content import NsgHtmlItem, NsgHtmlPage

_EFFECTIVE = re.compile(r"document is effective", re.I)
_CHANGES = re.compile(r"summary\s+of\s+changes", re.I)
_SKIP_CLASSES = frozenset({"RuleLinkOuterWrapper", "RuleLinkSymbol", "ThumbnailImageContainer"})
_ENTRY_CLASSES = {"Chapter": "chapter", "Section": "section", "Rule": "rule", "SubRule": "subrule"}
_NAMED_REFERENCE = re.compile(r"&([A-Za-z][A-Za-z0-9]*;)")


def _literal_ampersands(data: bytes) -> bytes | str:
    """The generator writes rule text into the page unescaped ("R&D; and"). A browser shows
    `&D;` as it is (no character reference is named `D;`), but beautifulsoup4's html.parser
    drops the semicolon; escaping the ampersand of every `&name;` HTML does not define
    makes the parse read what the browser shows."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # not the generator's UTF-8: let beautifulsoup4 sniff the encoding
    return _NAMED_REFERENCE.sub(
        lambda m: m.group(0) if m.group(1) in html5 else "&amp;" + m.group(1), text
    )


def read_nsg_page(data: bytes, *, what: str) -> NsgHtmlPage:
    """The statements and numbered entries of one generated CR page."""
    soup = load_html(_literal_ampersands(data), what=what)
    entries = [t for t in soup.find_all(_is_entry) if isinstance(t, Tag)]
    if not entries:
        raise ExtractError(
            what,
            "no chapter, section or rule entries (h1.Chapter, h2.Section, li.Rule): this is "
            "not the page Null Signal Games' rules generator makes",
        )
    icons: list[str] = []
    items = tuple(_item(tag, icons) for tag in entries)
    title_tag = soup.find("p", class_="Title")
    return NsgHtmlPage(
        title=_plain(title_tag) if isinstance(title_tag, Tag) else None,
        version_text=_version_text(soup),
        effective_text=_effective_text(soup),
        changes=_changes(soup, icons),
        items=items,
        unknown_icons=tuple(sorted(set(icons))),
    )


def _is_entry(tag: Tag) -> bool:
    return any(
        c in _ENTRY_CLASSES and tag.name == {"Chapter": "h1", "Section": "h2"}.get(c, "li")
        for c in _classes(tag)
    )


def _classes(tag: Tag) -> set[str]:
    value = tag.get("class")
    if value is None:
        return set()
    return {value} if isinstance(value, str) else {str(c) for c in value}


def _plain(tag: Tag) -> str:
    return " ".join(tag.get_text(" ").split())


def _version_text(soup: BeautifulSoup) -> str | None:
    for summary in soup.find_all("summary"):
        text = _plain(summary)
        if _CHANGES.search(text):
            return text
    title = soup.find("title")
    return _plain(title) if isinstance(title, Tag) else None


def _effective_text(soup: BeautifulSoup) -> str | None:
    for paragraph in soup.find_all("p"):
        text = _plain(paragraph)
        if _EFFECTIVE.search(text):
            return text
    return None


def _changes(soup: BeautifulSoup, icons: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    for details in soup.find_all("details"):
        summary = details.find("summary")
        if not isinstance(summary, Tag) or not _CHANGES.search(_plain(summary)):
            continue
        listing = details.find("ul")
        if not isinstance(listing, Tag):
            return ()
        out = []
        for li in listing.find_all("li", recursive=False):
            inline = _Inline(icons)
            inline.walk(li)
            out.append((inline.text(), tuple(inline.links)))
        return tuple(out)
    return ()


class _Inline:
    """Visible text of an element's inline content, its fragment links and card names."""

    def __init__(self, icons: list[str]) -> None:
        self.parts: list[str] = []
        self.links: list[str] = []
        self.cards: list[str] = []
        self.icons = icons

    def text(self) -> str:
        # Inline content: a line break in the source is a space to the reader.
        return " ".join("".join(self.parts).split())

    def walk(self, node: Tag, skip_blocks: bool = False) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                if type(child) is NavigableString:
                    self.parts.append(str(child).replace("\xa0", " "))
                continue
            if not isinstance(child, Tag) or _classes(child) & _SKIP_CLASSES:
                continue
            if skip_blocks and child.name in ("ol", "ul", "p"):
                continue
            self.element(child)

    def element(self, tag: Tag) -> None:
        classes = _classes(tag)
        if tag.name == "img":
            if "Symbol" in classes:
                name = str(tag.get("alt") or tag.get("src") or "").removesuffix(".svg")
                self.icons.append(name)
                self.parts.append("{img:" + name + "}")
            return
        if "Card" in classes:
            inner = _Inline(self.icons)
            inner.walk(tag)
            name = inner.text()
            if name and name not in self.cards:
                self.cards.append(name)
            self.parts.append(name)
            return
        href = str(tag.get("href") or "") if tag.name == "a" else ""
        if href.startswith("#") and len(href) > 1:
            self.links.append(href[1:])
        self.walk(tag)


def _item(tag: Tag, icons: list[str]) -> NsgHtmlItem:
    kind = next(_ENTRY_CLASSES[c] for c in _classes(tag) if c in _ENTRY_CLASSES)
    anchor = str(tag["id"]) if tag.get("id") else None
    if kind in ("chapter", "section"):
        return _heading(tag, kind, anchor, icons)
    link = tag.find("a", class_="RuleLink")
    printed = _plain(link) if isinstance(link, Tag) else ""
    body = _Inline(icons)
    body.walk(tag, skip_blocks=True)
    heading = tag.find("span", class_="SubSection", recursive=False) is not None
    examples: list[str] = []
    snippet = None
    for child in tag.find_all(["ol", "p"], recursive=False):
        if "Examples" in _classes(child):
            examples += _examples(child, icons, body)
        elif "SubRules" in _classes(child):
            for part in child.find_all(["ol", "p"], recursive=False):
                if "Examples" in _classes(part):
                    examples += _examples(part, icons, body)
                elif "Snippet" in _classes(part):
                    snippet = _block(part, icons, body)
    return NsgHtmlItem(
        kind=kind,  # type: ignore[arg-type]  # one of the four literal kinds
        printed=printed,
        anchor=anchor,
        text=body.text(),
        line=tag.sourceline or 0,
        heading=heading,
        snippet=snippet,
        examples=tuple(examples),
        links=tuple(body.links),
        cards=tuple(body.cards),
    )


def _block(tag: Tag, icons: list[str], owner: _Inline) -> str:
    inline = _Inline(icons)
    inline.walk(tag)
    owner.links += inline.links
    owner.cards += [c for c in inline.cards if c not in owner.cards]
    return inline.text()


def _examples(listing: Tag, icons: list[str], owner: _Inline) -> list[str]:
    out = []
    for li in listing.find_all("li", recursive=False):
        text = _block(li, icons, owner)
        out.append(re.sub(r"^Example:\s*", "", text))
    return out


def _heading(tag: Tag, kind: str, anchor: str | None, icons: list[str]) -> NsgHtmlItem:
    body = _Inline(icons)
    body.walk(tag)
    link = tag.find("a", class_="RuleLink")
    text = body.text()
    printed = ""
    if isinstance(link, Tag):
        match = re.match(r"^\s*(\d+(?:\.\d+)*\.)\s*", text)
        if match:
            printed, text = match.group(1), text[match.end() :]
    body.links = [x for x in body.links if x != anchor]  # the heading's own RuleLink
    snippet = None
    bullets: list[str] = []
    if kind == "section":
        sibling = tag.find_next_sibling()
        if isinstance(sibling, Tag) and "Snippet" in _classes(sibling):
            snippet = _block(sibling, icons, body)
            sibling = sibling.find_next_sibling()
        if isinstance(sibling, Tag) and "Rules" in _classes(sibling):
            for listing in sibling.find_all("ol", class_="TimingStructureList", recursive=False):
                bullets += _timing(listing, 0, icons, body)
    return NsgHtmlItem(
        kind=kind,  # type: ignore[arg-type]  # chapter or section
        printed=printed,
        anchor=anchor,
        text=text,
        line=tag.sourceline or 0,
        snippet=snippet,
        bullets=tuple(bullets),
        links=tuple(body.links),
        cards=tuple(body.cards),
    )


_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv")


def _timing(listing: Tag, level: int, icons: list[str], owner: _Inline) -> list[str]:
    """Nested list items with the labels the printed document gives them: 1), a), i)."""
    out: list[str] = []
    for index, li in enumerate(listing.find_all("li", recursive=False)):
        label = (str(index + 1), chr(ord("a") + index % 26), _ROMAN[index % len(_ROMAN)])
        inline = _Inline(icons)
        inline.walk(li, skip_blocks=True)
        owner.links += inline.links
        out.append(f"{label[min(level, 2)]}) {inline.text()}")
        for nested in li.find_all("ol", recursive=False):
            out += _timing(nested, level + 1, icons, owner)
    return out
