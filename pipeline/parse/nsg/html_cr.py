"""`nsg-html`: Null Signal Games' Comprehensive Rules web page -> records.

The page (https://rules.nullsignal.games/, read by pipeline.extract.nsg_html) is made by
the same generator as the PDF, from the YAML source that `nsg-yaml` reads, and prints
every number: chapters `1.`, sections `1.2.`, rules `1.2.3.`, subrules `a.` under their
rule. Records have the ids, kinds, keys (the entries' anchors) and text shape of the
`nsg-yaml` rendition, so the two renditions of one version compare record for record.

Read from the page itself: the version from "Summary of Changes (v24.03)" (and the
page title's `(v24.03)`, which must agree; a page printing none has the version its
effective date gives, `YY.MM`, as the generator names it), the effective date from "This
version of the Comprehensive Rules document is effective 30 March 2024.", the changes listed under
that summary, with the entries their links point at as `cites`.
"""

from __future__ import annotations

import re

from pipeline.models.content import NsgHtmlItem, NsgHtmlPage
from pipeline.models.records import (
    Document,
    Location,
    ParseOptions,
    ParserInfo,
    ParseWarning,
    PublisherChange,
    Rule,
)
from pipeline.parse.netrunner.cr import ENGINE
from pipeline.parse.nsg.checks import nsg_document
from pipeline.parse.nsg.checks import problem as warn
from pipeline.parse.nsg.markup import ICON_TEXT, fold_space, record_id
from pipeline.parse.nsg.release import generator_version
from pipeline.parse.numbered.statements import read_date

FAMILY = "nsg-html"
PARSER_VERSION = "1.0"
_VERSION = re.compile(r"\(\s*v\s*([0-9]+(?:\.[0-9]+)+)\s*\)", re.I)
_EFFECTIVE = re.compile(r"document\s+is\s+effective\s+(?:on\s+|as\s+of\s+)?(.+?)\s*\.?\s*$", re.I)
_ICON = re.compile(r"\{img:([^{}]*)\}")
NUMBERING = ENGINE.numbering  # the numbers NSG prints are those of its PDF (netrunner-cr)


def show_icons(text: str) -> str:
    """Symbols as the YAML rendition writes them: the generator's plaintext (`[c]`)."""
    return _ICON.sub(lambda m: ICON_TEXT.get(m.group(1), f"[{m.group(1)}]"), text)


def parse(page: NsgHtmlPage, notes: dict[str, int], options: ParseOptions) -> Document:
    """Records, changes, version and effective date of one generated page. Pure."""
    version = options.version
    warnings: list[ParseWarning] = []
    effective = _effective(page, warnings)
    stated = _version(page, effective, warnings)
    if version is not None and stated is not None and version != stated:
        message = f"the caller says version {version}, the page {stated}"
        warnings.append(warn("version-mismatch", message))
    if page.unknown_icons and (unknown := [i for i in page.unknown_icons if i not in ICON_TEXT]):
        warnings.append(warn("bad-markup", f"symbols with no plaintext form: {unknown}"))
    numbers = _numbers(page.items, warnings)
    anchors = {item.anchor: numbers[i] for i, item in enumerate(page.items) if item.anchor}
    numbered = zip(page.items, numbers, strict=True)
    records = [_record(item, n, anchors, warnings) for item, n in numbered if n is not None]
    changes = []
    for text, links in page.changes:
        cites = _cites(links, anchors, "the Summary of Changes", warnings)
        changes.append(PublisherChange(text=show_icons(fold_space(text)), cites=cites))
    if not changes:
        warnings.append(warn("no-changelog", "the page lists no Summary of Changes"))
    title = page.title
    if title is None:
        warnings.append(warn("title-not-recognised", 'no <p class="Title"> on the page'))
    parser = ParserInfo(family=FAMILY, version=PARSER_VERSION)
    return nsg_document(
        options, parser, records, changes, warnings, notes,
        title=title, version=stated or version, effective=effective,
    )  # fmt: skip


def _version(page: NsgHtmlPage, effective: str | None, warnings: list[ParseWarning]) -> str | None:
    """The version the page prints (`Summary of Changes (v24.03)`); a page that prints none
    but states its effective date has the version the generator derives from that date."""
    found = _VERSION.search(page.version_text or "")
    if found is None and effective is not None:
        return generator_version(effective)
    if found is None:
        message = f"no 'Summary of Changes (vNN.NN)' on the page: {page.version_text!r}"
        warnings.append(warn("no-version", message))
        return None
    return found.group(1)


def _effective(page: NsgHtmlPage, warnings: list[ParseWarning]) -> str | None:
    statement = page.effective_text
    found = _EFFECTIVE.search(statement or "")
    date = read_date(found.group(1)) if found else None
    if date is None:
        warnings.append(warn("bad-date", f"cannot read the effective date in {statement!r}"))
    return date


_LEVELS = ("chapter", "section", "rule", "subrule")


def _numbers(items: tuple[NsgHtmlItem, ...], warnings: list[ParseWarning]) -> list[str | None]:
    """Each entry's full number from what it prints, checked against its place: inside the
    entry above it, and after its previous sibling (a timing structure may leave a gap)."""
    out: list[str | None] = []
    current: dict[str, str | None] = dict.fromkeys(_LEVELS)
    for item in items:
        level = _LEVELS.index(item.kind)
        start = NUMBERING.match_start(item.printed)  # `1.2.` prints its number, `a.` its letter
        printed = start.number if start and start.level == level and not start.rest else None
        parent = current[_LEVELS[level - 1]] if level else None
        number: str | None = None
        if printed is None:
            message = f"{item.kind} #{item.anchor} prints no number ({item.printed!r})"
            warnings.append(warn("numbering", message, item.line))
        elif item.kind == "subrule":
            number = parent + printed if parent else None
        else:
            number = printed
        if (
            printed is not None
            and level
            and (parent is None or not (number or "").startswith(parent))
        ):
            message = f"{item.kind} {item.printed} of #{item.anchor} is not inside {parent}"
            warnings.append(warn("misplaced", message, item.line))
            number = None
        previous = current[item.kind]
        if number is not None and previous is not None and _place(previous) >= _place(number):
            warnings.append(warn("numbering", f"{number} does not follow {previous}", item.line))
        out.append(number)
        if number is not None:
            current[item.kind] = number
            for lower in _LEVELS[level + 1 :]:
                current[lower] = None
    return out


def _place(number: str) -> int:
    """Its place among its siblings: `1.2.3` the 3rd, `1.2.3b` the 2nd."""
    return NUMBERING.order_key(number)[-1]


def _cites(
    links: tuple[str, ...],
    anchors: dict[str, str | None],
    where: str,
    warnings: list[ParseWarning],
    line: int | None = None,
) -> list[str]:
    cites: list[str] = []
    for anchor in links:
        number = anchors.get(anchor)
        if number is None:
            message = f"{where} links to #{anchor}, no entry"
            warnings.append(warn("dangling-reference", message, line))
            continue
        if record_id(number) not in cites:
            cites.append(record_id(number))
    return cites


def _record(
    item: NsgHtmlItem, number: str, anchors: dict[str, str | None], warnings: list[ParseWarning]
) -> Rule:
    snippet = show_icons(fold_space(item.snippet or ""))
    text = show_icons(fold_space(item.text))
    if item.kind in ("chapter", "section") or item.heading:
        title, body = text, snippet
    else:
        title, body = "", "\n".join(t for t in (text, snippet) if t)
    parent = NUMBERING.parent_of(number)
    ident = record_id(number)
    refs = _cites(item.links, anchors, ident, warnings, item.line)
    return Rule(
        id=ident,
        number=number,
        kind=item.kind,
        parent=record_id(parent) if parent else None,
        depth=_LEVELS.index(item.kind) + 1,
        title=title or None,
        text=body,
        examples=[e for e in (show_icons(fold_space(x)) for x in item.examples) if e],
        bullets=[show_icons(fold_space(b)) for b in item.bullets],
        references=[r for r in refs if r != ident],
        cards=list(item.cards),
        location=Location(line=item.line),
        key=item.anchor,
    )
