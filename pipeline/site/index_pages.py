"""The context of the home page, a document's contents page and the search page."""

from __future__ import annotations

import json
from typing import Any

from pipeline.site import paths
from pipeline.site.document_site import DocumentSite
from pipeline.site.labels import game_name
from pipeline.site.rule_pages import crumbs_of, doc_of, rule_item
from pipeline.site.ruling_pages import ruling_item
from pipeline.site.search import INDEX_DIR, index_folder
from pipeline.site.wording import counts_in_words


def last_change(site: DocumentSite) -> dict[str, Any] | None:
    """The newest stored diff of the document: its version, its counts, its page."""
    for version in reversed(site.lineage.versions):
        diff = site.lineage.diffs.get(version)
        if diff is not None:
            return {
                "version": version,
                "old_version": diff.old_version,
                "summary": counts_in_words(diff.summary),
                "page": paths.changes_page(site.id, version),
            }
    return None


def date_of(site: DocumentSite) -> str | None:
    """The date the current version states, else the day the corpus first stored it."""
    if site.doc.effective or site.doc.published:
        return site.doc.effective or site.doc.published
    return "first stored " + site.times[site.version][:10]


def games_of(sites: list[DocumentSite]) -> dict[str, list[DocumentSite]]:
    """The documents of each game, in the order the site lists them."""
    games: dict[str, list[DocumentSite]] = {}
    for site in sites:
        games.setdefault(site.id.split("/", 1)[0], []).append(site)
    return games


def game_context(game: str, sites: list[DocumentSite]) -> dict[str, Any]:
    """A game's page: its documents side by side."""
    return {
        "title": game_name(game),
        "crumbs": [{"label": "Home", "page": paths.home_page()}],
        "feed": None,
        "feed_title": "",
        "game": game_name(game),
        "documents": document_items(sites),
    }


def home_context(sites: list[DocumentSite]) -> dict[str, Any]:
    return {
        "title": "Rules documents",
        "crumbs": [],
        "feed": None,
        "feed_title": "",
        "games": [
            {
                "name": game_name(game),
                "page": paths.game_page(game),
                "documents": document_items(group),
            }
            for game, group in games_of(sites).items()
        ],
    }


def document_items(sites: list[DocumentSite]) -> list[dict[str, Any]]:
    return [
        {
            "id": s.id,
            "title": s.title,
            "version": s.version,
            "date": date_of(s),
            "page": paths.document_page(s.id),
            "feed": paths.feed_file(s.id),
            "rules": len(s.rules) or len(s.doc.rulings),
            "rulings": not s.rules and bool(s.doc.rulings),
            "last_change": last_change(s),
        }
        for s in sites
    ]


def document_context(site: DocumentSite) -> dict[str, Any]:
    tops = [r for r in site.rules if r.parent is None or r.parent not in site.by_id]
    contents = [
        {
            **rule_item(site, top),
            "sections": [
                rule_item(site, s)
                for s in site.children.get(top.id, [])
                if s.title  # the headings of a chapter; its numbered rules are on its page
            ],
        }
        for top in tops
    ]
    glossary = [
        {
            "anchor": paths.glossary_anchor(term.id),
            "term": term.term,
            "definition": site.segments(term.definition, term.references),
        }
        for term in site.doc.glossary
    ]
    versions = [
        {
            "version": v,
            "current": v == site.version,
            "page": None if v == site.version else paths.version_page(site.id, v),
            "date": site.stated.get(v),
            "changes": paths.changes_page(site.id, v) if v in site.lineage.diffs else None,
        }
        for v in reversed(site.lineage.versions)
    ]
    old_numbers: dict[str, list[dict[str, str]]] = {}
    for old in site.lineage.old_numbers:
        old_numbers.setdefault(old.version, []).append(
            {"number": old.rule.number, "page": old.page}
        )
    return {
        "title": site.title,
        "crumbs": crumbs_of(site)[:2],
        "feed": paths.feed_file(site.id),
        "feed_title": f"{site.title}: changes",
        "doc": {
            **doc_of(site),
            "date": date_of(site),
            "published": site.doc.published,
            "effective": site.doc.effective,
        },
        "contents": contents,
        "glossary": glossary,
        "rulings": [ruling_item(site, r, site.card_names) for r in site.doc.rulings],
        "versions": versions,
        "old_numbers": [{"version": v, "numbers": numbers} for v, numbers in old_numbers.items()],
        "last_change": last_change(site),
    }


def search_context(sites: list[DocumentSite]) -> dict[str, Any]:
    """The search page merges one index per document, each filtered as its game and
    document (see `search`)."""
    bundles = [
        {
            "bundlePath": index_folder(s.id) + "/",
            "mergeFilter": {"game": [doc_of(s)["game"]], "document": [s.title]},
        }
        for s in sites
    ]
    return {
        "title": "Search",
        "crumbs": [],
        "feed": None,
        "feed_title": "",
        # Read by the page's script as JSON: no "<" may end the element early.
        "bundles": json.dumps(bundles, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c"),
        "first": bundles[0]["bundlePath"] if bundles else f"{INDEX_DIR}/",
    }
