"""The context of a rule's page and of an old number's page: what the templates show."""

from __future__ import annotations

import shlex
from typing import Any

from pipeline.models.records import Rule
from pipeline.site import paths
from pipeline.site.blocks import block_of, heading_of, subtree_blocks
from pipeline.site.document_site import DocumentSite
from pipeline.site.labels import game_name


def titled_ancestor(site: DocumentSite, rule: Rule) -> Rule | None:
    """The nearest rule above this one that has a title (702.19 Trample above 702.19c)."""
    parent = site.by_id.get(rule.parent) if rule.parent else None
    while parent is not None and not title_of(site, parent):
        parent = site.by_id.get(parent.parent) if parent.parent else None
    return parent


def rule_item(site: DocumentSite, rule: Rule) -> dict[str, Any]:
    return {
        "number": rule.number,
        "page": paths.rule_page(site.id, rule.number),
        "title": title_of(site, rule) or "",
    }


def title_of(site: DocumentSite, rule: Rule) -> str | None:
    return heading_of(rule, rule.id in site.children)


def crumbs_of(site: DocumentSite) -> list[dict[str, str]]:
    game = site.id.split("/", 1)[0]
    return [
        {"label": "Home", "page": paths.home_page()},
        {"label": game_name(game), "page": paths.game_page(game)},
        {"label": site.title, "page": paths.document_page(site.id)},
    ]


def doc_of(site: DocumentSite) -> dict[str, Any]:
    """What every page of a document says of it, and what its search filters on."""
    game = site.id.split("/", 1)[0]
    return {
        "id": site.id,
        "title": site.title,
        "version": site.version,
        "game": game_name(game),
        "page": paths.document_page(site.id),
    }


def check_commands(site: DocumentSite, rule: Rule) -> str:
    """The commands that let a reader check the text against the publisher's bytes."""
    lines = []
    if site.retrieval.url and site.doc.source:
        name = f"source.{site.doc.source.rendition}"
        lines += [
            f"curl -sL {shlex.quote(site.retrieval.url)} -o {name}",
            f"sha256sum {name}    # expect {site.doc.source.sha256}",
        ]
    lines.append(
        f"rulescorpus show {shlex.quote(rule.id)} --doc {site.id} "
        f"--version {shlex.quote(site.version)} --provenance"
    )
    return "\n".join(lines)


def source_block(site: DocumentSite, rule: Rule) -> dict[str, Any]:
    source = site.doc.source
    where = rule.location
    return {
        "document": site.title,
        "document_id": site.id,
        "version": site.version,
        "published": site.doc.published,
        "effective": site.doc.effective,
        "url": site.retrieval.url,
        "sha256": source.sha256 if source else None,
        "bytes": source.bytes if source else None,
        "rendition": source.rendition if source else None,
        "retrieved": site.retrieval.retrieved,
        "parser": f"{site.doc.parser.family} {site.doc.parser.version}",
        "engine": " ".join(
            p for p in (site.doc.parser.engine, site.doc.parser.engine_version) if p
        ),
        "page": where.page,
        "end_page": where.end_page if where.end_page != where.page else None,
        "line": where.line,
        "end_line": where.end_line if where.end_line != where.line else None,
        "check": check_commands(site, rule),
    }


def rule_context(site: DocumentSite, rule: Rule) -> dict[str, Any]:
    at = site.position[rule.id]
    parent = site.by_id.get(rule.parent) if rule.parent else None
    lineage = site.lineage
    history = [
        {
            "version": step.version,
            "number": step.number,
            "page": step.page,
            "current": step.version == site.version,
            "change": step.change,
            "changes_page": step.changes_page,
        }
        for step in lineage.history.get(rule.id, [])
    ]
    ancestor = titled_ancestor(site, rule)
    blocks, whole = subtree_blocks(
        rule, site.children, site.linker, lambda r: paths.rule_page(site.id, r.number)
    )
    title = title_of(site, rule)
    heading = f"{rule.number} {title or ''}".strip()
    return {
        "title": heading + f" — {site.title}",
        "search_title": heading
        if title or ancestor is None
        else f"{rule.number} ({ancestor.number} {title_of(site, ancestor)})",
        "crumbs": [
            *crumbs_of(site),
            *(
                [{"label": parent.number, "page": paths.rule_page(site.id, parent.number)}]
                if parent
                else []
            ),
        ],
        "feed": paths.feed_file(site.id),
        "feed_title": f"{site.title}: changes",
        "doc": doc_of(site),
        "rule": {
            **block_of(
                rule,
                site.linker,
                paths.rule_page(site.id, rule.number),
                0,
                rule.id in site.children,
            ),
            "id": rule.id,
            "kind": rule.kind,
        },
        "ancestor": rule_item(site, ancestor) if ancestor else None,
        "subtree": blocks,
        "whole": whole,
        "parent": rule_item(site, parent) if parent else None,
        "previous": rule_item(site, site.rules[at - 1]) if at > 0 else None,
        "next": rule_item(site, site.rules[at + 1]) if at + 1 < len(site.rules) else None,
        "cites": [
            rule_item(site, site.by_id[ref])
            for ref in dict.fromkeys(rule.references)
            if ref in site.by_id and ref != rule.id
        ],
        "cited_by": [rule_item(site, r) for r in site.cited_by.get(rule.id, [])],
        "glossary": [
            {
                "term": t.term,
                "page": f"{paths.document_page(site.id)}#{paths.glossary_anchor(t.id)}",
            }
            for t in site.glossary_citing.get(rule.id, [])
        ],
        "rulings": [
            {
                "page": paths.ruling_page(source, r.id) if source in site.built else None,
                "document": site.built.get(source, source),
                "question": r.question,
                "answer": r.answer,
                "text": r.text,
                "cards": [site.card_names.get(c, c) for c in r.cards] or r.card_titles,
                "updated": r.updated,
            }
            for source, r in site.rulings_citing.get(rule.id, [])
        ],
        "history": history,
        "renumbered": len({step["number"] for step in history}) > 1,
        "source": source_block(site, rule),
    }
