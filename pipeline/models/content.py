"""What extraction hands to parsing: lines with positions, and the structured content of
HTML pages, rules sites and YAML sources. The contract between extract/ and parse/."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field

from pipeline.models.base import Model


class Line(Model):
    """One line of extracted text and where it sat in the original bytes."""

    text: str
    line: int = Field(description="1-based line number in the extracted stream")
    page: int | None = None
    x0: float | None = None
    top: float | None = None
    size: float | None = None
    bold: bool = False
    highlight: bool = False
    heading: int | None = Field(
        default=None, description="Markdown and HTML: the heading level (1-6) of a heading line"
    )
    item: str | None = Field(
        default=None,
        description="Markdown and HTML: a list item's marker (`1.` ordered, `-` or `•` bulleted)",
    )
    anchors: tuple[str, ...] = Field(
        default=(), description="Markdown and HTML: the anchors (ids) that lead to this line"
    )
    links: tuple[str, ...] = Field(
        default=(), description="Markdown and HTML: the anchors of this page the line links to"
    )


@dataclass(frozen=True)
class HtmlText:
    """The visible text of an HTML element (lines joined by '\\n') and the links inside it."""

    text: str
    links: tuple[str, ...] = ()
    line: int | None = None


@dataclass(frozen=True)
class PageRun:
    """A run of a web page's text, or a link's target, with the ids of the elements it
    sits in, outermost first (two runs share the blocks their paths share)."""

    kind: Literal["text", "link"]
    value: str
    path: tuple[int, ...]


@dataclass(frozen=True)
class WebPage:
    """A web page read for what it publishes: an HTML page as runs, a plain-text page as
    its text."""

    runs: tuple[PageRun, ...] = ()
    text: str | None = None


@dataclass(frozen=True)
class QAItem:
    """A question found on an FAQ page, with its answer and the card or section it concerns."""

    question: HtmlText
    answer: HtmlText | None
    card: HtmlText | None = None
    section: HtmlText | None = None


@dataclass
class HtmlSection:
    """A heading and the blocks under it (before the first heading: heading None)."""

    heading: str | None
    anchor: str | None
    line: int | None
    blocks: list[HtmlText] = field(default_factory=list)


@dataclass(frozen=True)
class FaqPage:
    """What extraction reads off an FAQ page with the registry's selectors."""

    title: str | None
    items: list[QAItem]
    version_text: str | None = None
    selectors: dict[str, str] = field(default_factory=dict)  # the ones it was read with


@dataclass(frozen=True)
class WikiPage:
    """A verified MediaWiki revision: its wikitext and the sections of its rendering."""

    title: str
    revid: int
    sha1: str
    wikitext: str
    sections: list[HtmlSection]


@dataclass(frozen=True)
class SiteBlock:
    """One block of a rules-site page (pipeline.extract.fab_html): a heading with its anchor,
    a paragraph, a quoted paragraph (blockquote) or a list item, as a reader sees its text
    (resource icons written back as the text export's `{r}`-style tokens)."""

    kind: Literal["heading", "paragraph", "quote", "item", "other"]
    text: str
    line: int
    level: int | None = None  # heading level, 1-6
    anchor: str | None = None  # the heading's id
    strong: bool = False  # the heading's text (after its number) is all <strong>: a keyword
    links: tuple[str, ...] = ()  # fragment ids of the in-site links (cross-references)


@dataclass(frozen=True)
class SitePage:
    """One page of a rules site, in the order the site's index lists it (1-based `page`)."""

    url: str | None
    page: int
    title: str | None
    blocks: list[SiteBlock]
    stated_version: str | None = None
    icons: tuple[str, ...] = ()  # `{x}` tokens the page's icon images were written back as
    unknown_icons: tuple[str, ...] = ()  # images inside the content that are no known icon


@dataclass(frozen=True)
class RulesSite:
    """The pages of a rules site read from its bundle, in index order, and the pages the
    index lists that the bundle does not hold."""

    index: str | None
    pages: list[SitePage]
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class YamlFile:
    """One YAML member of an archive, parsed with yaml.safe_load (pipeline.extract.yaml_bundle).

    `start` is the 1-based line at which the file begins in the bundle's line stream (its
    chapter files concatenated in order), so a record's location is one line number."""

    path: str
    data: object
    text: str
    start: int = 1


@dataclass(frozen=True)
class YamlBundle:
    """Null Signal Games' CR source as a tarball holds it: chapter files `data/input/NN_*.yaml`
    in order, the changelogs, and `config.yaml` (none of them required but the chapters);
    the archive's top folder (`<repo>-<tag>`, or None at the root) and its build workflows
    (text only: `data` is None)."""

    chapters: tuple[YamlFile, ...]
    changelogs: tuple[YamlFile, ...] = ()
    config: YamlFile | None = None
    commit: str | None = None
    folder: str | None = None
    workflows: tuple[YamlFile, ...] = ()


@dataclass(frozen=True)
class NsgHtmlItem:
    """A numbered entry of Null Signal Games' generated CR page (pipeline.extract.nsg_html):
    its printed number (`1.2.3.`, `a.`), anchor id, visible text and inner blocks."""

    kind: Literal["chapter", "section", "rule", "subrule"]
    printed: str
    anchor: str | None
    text: str
    line: int
    heading: bool = False  # a subsection printed as a heading (class SubSection)
    snippet: str | None = None
    examples: tuple[str, ...] = ()
    bullets: tuple[str, ...] = ()
    links: tuple[str, ...] = ()  # fragment ids of the in-page links, in order
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class NsgHtmlPage:
    """What the NSG CR page states: title, version, effective date, changes, entries."""

    title: str | None
    version_text: str | None
    effective_text: str | None
    changes: tuple[tuple[str, tuple[str, ...]], ...]  # (text, fragment ids it links to)
    items: tuple[NsgHtmlItem, ...]
    unknown_icons: tuple[str, ...] = ()
