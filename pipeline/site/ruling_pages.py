"""A page per ruling: the card's name as the rulings print it, the question and the
answer with the rule numbers they name linked, where the ruling comes from and its date.

A ruling files its card under a slug (`mirrormorph_endless_iteration`); the card's
printed name is read out of the rulings' own words, where the slug's words stand
together ("Hoshiko Shiro: Untold Protagonist"), else the longest run of its first words
that does ("Mirrormorph"), else the slug is shown as it is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from pipeline.models.records import Ruling
from pipeline.site import paths
from pipeline.site.document_site import DocumentSite
from pipeline.site.rule_pages import crumbs_of, doc_of

# A Markdown link of a ruling's heading line: [UFAQ 22](http://...).
_LINK = re.compile(r"\[([^\[\]]+)\]\((https?://[^()\s]+)\)")
_APOSTROPHES = str.maketrans("", "", "'’‘\"“”")


def _folded(text: str) -> tuple[str, list[int]]:
    """The text lower-cased, accents and quotes dropped, and for each of its characters
    the index of the original character it came from."""
    out: list[str] = []
    where: list[int] = []
    for at, char in enumerate(text):
        plain = unicodedata.normalize("NFKD", char).translate(_APOSTROPHES)
        for part in plain:
            if not unicodedata.combining(part):
                out.append(part.lower())
                where.append(at)
    return "".join(out), where


def _texts(ruling: Ruling) -> list[str]:
    return [t for t in (ruling.question, ruling.answer, ruling.text) if t]


def _find(words: list[str], texts: Iterable[tuple[str, str, list[int]]]) -> str | None:
    gap = r"[^a-z0-9\n]{0,3}"
    pattern = re.compile(r"(?<![a-z0-9])" + gap.join(re.escape(w) for w in words) + r"(?![a-z0-9])")
    for original, folded, where in texts:
        found = pattern.search(folded)
        if found:
            return original[where[found.start()] : where[found.end() - 1] + 1]
    return None


def card_names(rulings: list[Ruling]) -> dict[str, str]:
    """slug -> the card's name as the rulings print it (see the module's docstring)."""
    folded_all = [(t, *_folded(t)) for r in rulings for t in _texts(r)]
    own: dict[str, list[Ruling]] = {}
    names: dict[str, str] = {}
    for ruling in rulings:
        for at, slug in enumerate(ruling.cards):
            if at < len(ruling.card_titles):
                names.setdefault(slug, ruling.card_titles[at])
            own.setdefault(slug, []).append(ruling)
    for slug, filed in own.items():
        if slug in names:
            continue
        words = [w for w in slug.split("_") if w]
        if not words:
            continue
        folded_own = [(t, *_folded(t)) for r in filed for t in _texts(r)]
        name = _find(words, folded_own) or _find(words, folded_all)
        for size in range(len(words) - 1, 0, -1):
            if name is not None:
                break
            name = _find(words[:size], folded_own)
        if name is not None:
            names[slug] = name
    return names


def ruling_source(ruling: Ruling) -> dict[str, Any]:
    """Who ruled, as its heading says, with the heading's links."""
    heading = next((md.split("\n", 1)[0] for md in (ruling.question_md, ruling.text_md) if md), "")
    links = [
        {"label": m.group(1), "url": m.group(2)}
        for m in _LINK.finditer(heading)
        if heading.startswith("#")
    ]
    return {"attribution": ruling.attribution, "links": links, "updated": ruling.updated}


def ruling_item(site: DocumentSite, ruling: Ruling, names: dict[str, str]) -> dict[str, Any]:
    return {
        "page": paths.ruling_page(site.id, ruling.id),
        "cards": [names.get(c, c) for c in ruling.cards] or ruling.card_titles,
        "question": site.linker.segments(ruling.question or ""),
        "answer": site.linker.segments(ruling.answer or ""),
        "text": site.linker.segments(ruling.text or ""),
        "updated": ruling.updated,
    }


def ruling_context(site: DocumentSite, ruling: Ruling, names: dict[str, str]) -> dict[str, Any]:
    item = ruling_item(site, ruling, names)
    cards = ", ".join(item["cards"]) or "Ruling"
    return {
        "title": f"{cards}: ruling — {site.title}",
        "crumbs": crumbs_of(site),
        "feed": paths.feed_file(site.id),
        "feed_title": f"{site.title}: changes",
        "doc": doc_of(site),
        "ruling": {**item, "heading": cards, "verified": ruling.verified},
        "source": ruling_source(ruling),
    }
