"""Flesh and Blood Comprehensive Rules, the rules site's HTML pages (family `fab-html`).

A third rendition of `fab/cr` beside the text export and the PDF, giving the
same records (`cr:1`, `cr:1.0`, `cr:1.0.1`, `cr:1.0.1a`) and glossary ids. It
reads the site's own structure rather than re-guessing it from lines:

- each rule is a heading whose anchor is its number (`<h3 id="cr1.0.1">`): the
  id comes from the anchor, and a heading whose printed number disagrees with
  its anchor, or whose level does not fit its depth, is a warning;
- a rule heading set in bold (`8.1.1 <strong>Action</strong>`) is a keyword: the
  name is its title and the paragraph after it its text, as in the export;
- blockquote paragraphs labelled `Example:` / `Note:` are examples and notes,
  list items are bullets, and any other paragraph after a rule is kept in its
  text with an `unlabelled-paragraph` warning (the same rule the text export's
  parser applies: a label or a rule number may be missing);
- cross-references are the links' targets (`#cr1.0.1a` -> `cr:1.0.1a`);
- the glossary page gives glossary records (`glossary:` + slug of the term, the
  text export's ids), the index page (the preface) front matter, any other page
  back matter;
- resource icons arrive as `{r}`-style tokens (pipeline.extract.fab_html).

The pages state a version only where a page says so (`Version 2.14.0`); the
2.10.1 prototype states none, so its version is null with a `no-version`
warning unless the caller passes the version a maintainer or an agreeing
rendition vouches for. A page the index lists but the bundle lacks is a
`page-missing` warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.errors import ParseError
from pipeline.models.content import RulesSite, SiteBlock, SitePage
from pipeline.models.records import (
    Document,
    GlossaryTerm,
    Location,
    ParseOptions,
    ParserInfo,
    ParseWarning,
    Passage,
    Rule,
    WarningCode,
)
from pipeline.parse.common import check_document, count_records, slugify, unique_slugs, warn
from pipeline.parse.fab.cr import unlabelled

FAMILY = "fab-html"
PARSER_VERSION = "1.0"

RULE_ANCHOR = re.compile(r"^cr([0-9]+(?:\.[0-9]+){0,2}[a-z]?)$")
LABEL_RE = re.compile(r"^(Example|Note):\s?(.*)$", re.DOTALL)
# depth of each kind of number, and the heading level the site sets it in
_KINDS = {1: ("chapter", 1), 2: ("section", 2), 3: ("rule", 3), 4: ("subrule", 4)}


@dataclass
class _Draft:
    number: str
    kind: str
    depth: int
    location: Location
    title: str | None = None
    text: str = ""
    examples: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    last: str = "text"


def _depth(number: str) -> int:
    dots = number.count(".")
    return dots + 2 if number[-1].isalpha() else dots + 1


def _parent(number: str, depth: int) -> str | None:
    if depth == 1:
        return None
    if depth == 4:
        return f"cr:{number[:-1]}"
    return f"cr:{number.rsplit('.', 1)[0]}"


def _references(links: list[str]) -> list[str]:
    anchored = (RULE_ANCHOR.match(fragment) for fragment in links)
    return list(dict.fromkeys(f"cr:{match.group(1)}" for match in anchored if match))


def _where(page: SitePage, block: SiteBlock) -> Location:
    return Location(line=block.line, page=page.page)


def _cannot(block: SiteBlock) -> str:
    return f"cannot place {block.text[:80]!r}"


class _Reader:
    def __init__(self) -> None:
        self.drafts: list[_Draft] = []
        self.terms: list[tuple[str, list[str], list[str], Location]] = []
        self.front: list[Passage] = []
        self.back: list[Passage] = []
        self.warnings: list[ParseWarning] = []

    def note(self, code: WarningCode, message: str, where: Location | None = None) -> None:
        self.warnings.append(warn(code, message, where))

    # ------------------------------------------------------------------ pages

    def read(self, page: SitePage) -> None:
        if any(b.anchor and RULE_ANCHOR.match(b.anchor) for b in page.blocks):
            self.read_rules(page)
        elif any(b.kind == "heading" and b.text == "Glossary" for b in page.blocks):
            self.read_glossary(page)
        else:
            self.read_matter(page)
        for image in page.unknown_icons:
            message = f"page {page.url or page.page} draws an image that is no known resource "
            self.note(WarningCode.UNKNOWN_ICON, f"{message}icon ({image}); its alt text was kept")

    def read_rules(self, page: SitePage) -> None:
        current: _Draft | None = None
        for block in page.blocks:
            where = _where(page, block)
            if block.kind == "heading":
                current = self.open_record(block, where)
                continue
            if current is None:
                self.note(WarningCode.UNPLACED_TEXT, f"{_cannot(block)}: no rule open", where)
            elif block.kind == "quote" and (label := LABEL_RE.match(block.text)):
                target = current.examples if label.group(1) == "Example" else current.notes
                target.append(label.group(2))
                current.last = "examples" if label.group(1) == "Example" else "notes"
                current.links += block.links
            elif block.kind == "item":
                current.bullets.append(block.text)
                current.last = "bullets"
                current.links += block.links
            elif block.kind in ("paragraph", "quote"):
                self.add_paragraph(current, block, where)
            else:
                self.note(WarningCode.UNPLACED_TEXT, _cannot(block), where)

    def open_record(self, block: SiteBlock, where: Location) -> _Draft | None:
        match = RULE_ANCHOR.match(block.anchor or "")
        if match is None:
            message = f"heading {block.text[:80]!r} has no rule anchor (id={block.anchor!r})"
            self.note(WarningCode.UNPLACED_TEXT, message, where)
            return None
        number = match.group(1)
        depth = _depth(number)
        kind, level = _KINDS[depth]
        printed, _, body = block.text.partition(" ")
        if printed != number:
            message = f"heading #{block.anchor} prints the number {printed!r}; the anchor wins"
            self.note(WarningCode.ANCHOR_MISMATCH, message, where)
            body = block.text
        if block.level != level:
            message = f"cr:{number} (a {kind}) is set as h{block.level}, not h{level}"
            self.note(WarningCode.HEADING_LEVEL, message, where)
        draft = _Draft(number, kind, depth, where, links=list(block.links))
        if kind in ("chapter", "section") or (kind == "rule" and block.strong):
            draft.title = body
        else:
            draft.text = body
        self.drafts.append(draft)
        return draft

    def add_paragraph(self, draft: _Draft, block: SiteBlock, where: Location) -> None:
        draft.links += block.links
        if draft.title is not None and draft.kind == "rule" and not draft.text:
            draft.text = block.text
            return
        if not any(ch.isalnum() for ch in block.text):
            self.continue_last(draft, block.text)
            return
        draft.text = f"{draft.text}\n{block.text}" if draft.text else block.text
        draft.last = "text"
        self.note(WarningCode.UNLABELLED_PARAGRAPH, unlabelled(draft.number), where)

    @staticmethod
    def continue_last(draft: _Draft, text: str) -> None:
        """A block with no letter or digit (a stray `%`) continues what came before it."""
        parts = {"examples": draft.examples, "notes": draft.notes, "bullets": draft.bullets}
        target = parts.get(draft.last)
        if target:
            target[-1] += "\n" + text
        else:
            draft.text = f"{draft.text}\n{text}" if draft.text else text

    def read_glossary(self, page: SitePage) -> None:
        for block in page.blocks:
            where = _where(page, block)
            if block.kind == "heading" and block.level == 1:
                continue
            if block.kind == "heading":
                self.terms.append((block.text, [], list(block.links), where))
            elif self.terms:
                self.terms[-1][1].append(block.text)
                self.terms[-1][2].extend(block.links)
            else:
                self.note(WarningCode.UNPLACED_TEXT, _cannot(block), where)

    def read_matter(self, page: SitePage) -> None:
        back = bool(self.drafts)
        prefix = "back" if back else "front"
        heading: SiteBlock | None = None
        lines: list[str] = []

        def close() -> None:
            if heading is not None:
                (self.back if back else self.front).append(
                    Passage(
                        id=f"{prefix}:{slugify(heading.text)}",
                        title=heading.text,
                        text="\n".join(lines),
                        location=_where(page, heading),
                    )
                )

        for block in page.blocks:
            if block.kind == "heading":
                close()
                heading, lines = block, []
            elif heading is None:
                self.note(WarningCode.UNPLACED_TEXT, _cannot(block))
            else:
                lines.append(block.text)
        close()

    # ------------------------------------------------------------------ output

    def records(self) -> list[Rule]:
        return [
            Rule(
                id=f"cr:{d.number}",
                number=d.number,
                kind=d.kind,
                parent=_parent(d.number, d.depth),
                depth=d.depth,
                title=d.title,
                text=d.text,
                examples=d.examples,
                notes=d.notes,
                bullets=d.bullets,
                references=_references(d.links),
                location=d.location,
            )
            for d in self.drafts
        ]

    def glossary(self) -> list[GlossaryTerm]:
        slugs = unique_slugs(term for term, _, _, _ in self.terms)
        return [
            GlossaryTerm(
                id=f"glossary:{slug}",
                term=term,
                definition="\n".join(lines),
                references=_references(links),
                location=location,
            )
            for slug, (term, lines, links, location) in zip(slugs, self.terms, strict=True)
        ]


def _site_title(site: RulesSite) -> str | None:
    """`FAB Comprehensive Rules – Preface - Flesh and Blood | …`: the part before the dash."""
    title = site.pages[0].title if site.pages else None
    if not title:
        return None
    return re.split(r"\s[–—-]\s", title, maxsplit=1)[0].strip() or None


def _version(site: RulesSite, given: str | None) -> tuple[str | None, list[ParseWarning]]:
    stated = sorted({p.stated_version for p in site.pages if p.stated_version})
    if len(stated) > 1:
        raise ParseError(
            "fab-html site",
            f"the pages state different versions ({', '.join(stated)}); "
            "they are not one rendition of one version",
        )
    if stated:
        if given is not None and given != stated[0]:
            message = f"expected version {given} but the pages state {stated[0]}; the pages win"
            return stated[0], [warn(WarningCode.VERSION_MISMATCH, message)]
        return stated[0], []
    if given is not None:
        return given, []
    message = "the site's pages state no version and none was given; an agreeing rendition "
    message += "of the same version (the text export) or the maintainer supplies it"
    return None, [warn(WarningCode.NO_VERSION, message)]


def parse(site: RulesSite, notes: dict[str, int], options: ParseOptions) -> Document:
    """Parse a FaB rules site (pages in index order) into a Document with `source` None."""
    document, version = options.document, options.version
    reader = _Reader()
    for page in site.pages:
        reader.read(page)
    if not any(d.kind == "chapter" for d in reader.drafts):
        raise ParseError(
            document,
            "no chapter found: no page has a heading anchored `cr1`, `cr2`, ... "
            '(expected the FaB rules site\'s pages: <h1 id="cr1">1 Game Concepts</h1>)',
        )
    found_version, version_warnings = _version(site, version)
    warnings = version_warnings + [
        warn(WarningCode.PAGE_MISSING, f"the index lists {url}, which the rendition does not hold")
        for url in site.missing
    ]
    icons = sum(len(p.icons) for p in site.pages)
    extraction = {**(notes or {}), "pages": len(site.pages), "icons_mapped": icons}
    doc = Document(
        game="fab",
        document=document,
        title=_site_title(site),
        version=found_version,
        parser=ParserInfo(family=FAMILY, version=PARSER_VERSION),
        records=reader.records(),
        glossary=reader.glossary(),
        front_matter=reader.front,
        back_matter=reader.back,
        extraction=dict(sorted(extraction.items())),
    )
    counts = count_records(doc.records)
    counts["glossary"] = len(doc.glossary)
    return check_document(doc.model_copy(update={"counts": counts}), warnings + reader.warnings)
