"""An HTML page -> text lines as a browser lays it out, for the numbered rules engine.

Each block (a heading, a paragraph, a list item's own text, a table row, a line
broken by `<br>`) is one line, numbered in reading order; inline markup (`<em>`,
`<strong>`, `<a>`) is flattened into its text, and what the browser never shows
(scripts, styles, navigation: `html.NOISE`) is dropped. Beside the text (`Line`
fields): a heading's level, a list item's marker (`3.` in an ordered list as the
browser numbers it, `•` in a bulleted one), the ids that lead to the line (on it,
or on an element before it with no text of its own, `<a id="rule-1.2"></a>`), and
the ids of this page the line links to (`<a href="#rule-1.2">`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bs4.element import NavigableString, Tag

from pipeline.extract.html import BLOCKS, HEADINGS, load_html
from pipeline.models.content import Line

_CELLS = frozenset({"td", "th"})


@dataclass
class _Layout:
    """The lines laid out so far and the inline text of the block being read."""

    lines: list[Line] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)
    heading: int | None = None
    item: str | None = None  # the marker of a list item whose text has not begun

    def flush(self) -> None:
        text = " ".join("".join(self.parts).replace("\xa0", " ").split())
        self.parts = []
        if not text:
            return
        links = tuple(dict.fromkeys(self.links))
        line = Line(text=text, line=len(self.lines) + 1, heading=self.heading, item=self.item,
                    anchors=tuple(self.anchors), links=links)  # fmt: skip
        self.lines.append(line)
        self.anchors, self.links, self.item = [], [], None


def item_marker(item: Tag) -> str:
    """What a browser prints before a list item: its number in an ordered list (from the
    list's `start`, or the item's `value`), a bullet otherwise."""
    parent = item.parent
    if not isinstance(parent, Tag) or parent.name != "ol":
        return "•"
    number = int(str(parent.get("start", "1"))) if str(parent.get("start", "1")).isdigit() else 1
    for sibling in parent.find_all("li", recursive=False):
        if sibling is item:
            break
        value = str(sibling.get("value", ""))
        number = int(value) + 1 if value.isdigit() else number + 1
    own = str(item.get("value", ""))
    return f"{own if own.isdigit() else number}."


def lay_out(node: Tag, layout: _Layout) -> None:
    for child in node.children:
        if isinstance(child, NavigableString):
            if type(child) is NavigableString:  # not comments, CDATA, doctype
                layout.parts.append(str(child))
            continue
        if not isinstance(child, Tag):
            continue
        if ident := child.get("id") or (child.name == "a" and child.get("name")):
            layout.anchors.append(str(ident))
        href = str(child.get("href", "")) if child.name == "a" else ""
        if href.startswith("#") and len(href) > 1:
            layout.links.append(href[1:])
        if child.name in _CELLS and "".join(layout.parts).strip():
            layout.parts.append(" | ")  # between a row's cells, as a text table shows them
        if child.name not in BLOCKS or child.name in _CELLS:
            lay_out(child, layout)
            continue
        layout.flush()
        outer = layout.heading
        if child.name in HEADINGS:
            layout.heading = int(child.name[1:])
        if child.name == "li":
            layout.item = item_marker(child)
        lay_out(child, layout)
        layout.flush()
        layout.heading = outer


def extract_html_lines(data: bytes, *, what: str = "document") -> list[Line]:
    """The lines of an HTML page's body (see the module)."""
    soup = load_html(data, what=what)
    root = soup.body or soup
    layout = _Layout()
    lay_out(root, layout)
    layout.flush()
    return layout.lines
