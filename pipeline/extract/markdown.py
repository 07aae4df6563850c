"""Markdown pages -> text lines as a reader sees the rendered page (markdown-it-py, CommonMark).

Each heading, paragraph, list item, table row and code line is one line, numbered by
the source line it starts on. Markup is what a reader never sees: `**bold**`, `_em_`,
backticks, a link's target and an image's address are dropped, their text kept. What
the page's structure says is kept beside the text (`Line` fields): a heading's level,
a list item's marker (`1.`, `-`), the anchors that lead to a line (the slug a renderer
gives each heading, `{#id}` attributes, `<a id>` tags) and the anchors of this page a
line links to (`[see 1.2](#12-combat)`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pipeline.extract.text import decode_text
from pipeline.models.content import Line

_PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
# `--- … ---` at the very top: metadata for a site generator, no part of the page
_METADATA = re.compile(r"\A---\n.*?\n(?:---|\.\.\.)\n", re.S)
_ATTRIBUTE = re.compile(r"\s*\{#(?P<id>[^\s}]+)[^}]*\}\s*$")  # `## 1.2. Combat {#combat}`
_TAG_ID = re.compile(r"""<a\b[^>]*?\b(?:id|name)\s*=\s*["']?([^"'\s>]+)""", re.I)
_TAG = re.compile(r"<[^>]*>|<!--.*?-->", re.S)
_NOT_IN_SLUG = re.compile(r"[^\w\- ]")


def heading_slug(text: str) -> str:
    """The anchor a renderer (GitHub, GitLab, MkDocs) gives a heading: lower case, marks
    other than hyphens dropped, spaces as hyphens (`1.2. Combat` is `12-combat`)."""
    return _NOT_IN_SLUG.sub("", text.strip().lower()).replace(" ", "-")


@dataclass
class _Page:
    """The lines read so far and what the next one takes along."""

    lines: list[Line] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)  # ids met before the next line
    slugs: Counter[str] = field(default_factory=Counter)

    def add(
        self, text: str, at: int, heading: int | None, item: str | None, links: list[str]
    ) -> None:
        text = " ".join(text.split())
        if not text:
            return
        if heading is not None:
            if (attribute := _ATTRIBUTE.search(text)) is not None:
                self.anchors.append(attribute.group("id"))
                text = text[: attribute.start()]
            self.anchors.append(self.unique_slug(heading_slug(text)))
        line = Line(text=text, line=at, heading=heading, item=item, anchors=tuple(self.anchors),
                    links=tuple(dict.fromkeys(links)))  # fmt: skip
        self.lines.append(line)
        self.anchors = []

    def unique_slug(self, slug: str) -> str:
        """A heading's slug, `-1`, `-2` after it when an earlier heading had it."""
        seen = self.slugs[slug]
        self.slugs[slug] += 1
        return f"{slug}-{seen}" if seen else slug


def inline_text(token: Token, page: _Page, links: list[str]) -> str:
    """What a reader sees of an inline run: text, code and image descriptions; the anchors
    it links to into `links`, the anchors it sets into the page."""
    out: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif child.type == "image":
            out.append(child.content)
        elif child.type == "link_open":
            href = str(child.attrs.get("href", ""))
            if href.startswith("#") and len(href) > 1:
                links.append(href[1:])
        elif child.type == "html_inline":
            page.anchors.extend(_TAG_ID.findall(child.content))
    return "".join(out)


def extract_markdown_lines(data: bytes, *, what: str = "document") -> list[Line]:
    """The lines of a Markdown page (see the module)."""
    text = decode_text(data, what=what)
    skipped = 0
    if metadata := _METADATA.match(text):
        skipped = metadata.group(0).count("\n")
        text = text[metadata.end() :]
    page = _Page()
    heading: int | None = None
    items: list[str | None] = []  # the marker of each open list item (None once used)
    for token in _PARSER.parse(text):
        at = (token.map[0] if token.map else 0) + 1 + skipped
        if token.type == "heading_open":
            heading = int(token.tag[1:])
        elif token.type == "heading_close":
            heading = None
        elif token.type == "list_item_open":
            items.append(f"{token.info}{token.markup}" if token.info else token.markup)
        elif token.type == "list_item_close":
            items.pop()
        elif token.type == "inline":
            links: list[str] = []
            content = inline_text(token, page, links)
            item = items[-1] if items else None
            if items:
                items[-1] = None  # a second paragraph of the item continues it
            page.add(content, at, heading, item, links)
        elif token.type in ("fence", "code_block"):
            for offset, code in enumerate(token.content.splitlines()):
                page.add(code, at + offset + (token.type == "fence"), None, None, [])
        elif token.type == "html_block":
            page.anchors.extend(_TAG_ID.findall(token.content))
            page.add(_TAG.sub(" ", token.content), at, None, None, [])
    return merge_rows(page.lines)


def merge_rows(lines: list[Line]) -> list[Line]:
    """A table row's cells (each its own inline run, all on the row's line) as one line, the
    cells separated by ` | ` as the source prints them."""
    merged: list[Line] = []
    for line in lines:
        if merged and merged[-1].line == line.line and line.heading is None:
            last = merged[-1]
            links = tuple(dict.fromkeys(last.links + line.links))
            update = {"text": f"{last.text} | {line.text}", "links": links}
            merged[-1] = last.model_copy(update={**update, "anchors": last.anchors + line.anchors})
        else:
            merged.append(line)
    return merged
