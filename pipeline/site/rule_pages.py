"""The context of a rule's page and of an old number's page: what the templates show."""

from __future__ import annotations

import shlex
from typing import Any

from pipeline.models.records import Rule
from pipeline.site import paths
from pipeline.site.document_site import DocumentSite
from pipeline.site.lineage import OldNumber

# Above this many sub-rules a page lists their numbers only: a keyword chapter's section
# holds some two hundred rules, and a rule page stays small enough to load on a phone.
_EXCERPTS_UP_TO = 60
_EXCERPT_CHARS = 72


def excerpt(rule: Rule) -> str:
    text = rule.title or rule.text
    if len(text) <= _EXCERPT_CHARS:
        return text
    return text[: _EXCERPT_CHARS - 1].rsplit(" ", 1)[0] + "…"


def rule_item(site: DocumentSite, rule: Rule, with_excerpt: bool = True) -> dict[str, Any]:
    return {
        "number": rule.number,
        "page": paths.rule_page(site.id, rule.number),
        "excerpt": excerpt(rule) if with_excerpt else "",
    }


def crumbs_of(site: DocumentSite) -> list[dict[str, str]]:
    return [
        {"label": "Home", "page": paths.home_page()},
        {"label": site.title, "page": paths.document_page(site.id)},
    ]


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
    children = site.children.get(rule.id, [])
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
    return {
        "title": f"{rule.number} {rule.title or ''}".strip() + f" — {site.title}",
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
        "doc": {"id": site.id, "title": site.title, "version": site.version},
        "rule": {
            "id": rule.id,
            "number": rule.number,
            "kind": rule.kind,
            "title": rule.title,
            "text": site.segments(rule.text, rule.references),
            "bullets": [site.segments(b, rule.references) for b in rule.bullets],
            "examples": [site.segments(e, rule.references) for e in rule.examples],
            "notes": [site.segments(n, rule.references) for n in rule.notes],
        },
        "parent": rule_item(site, parent) if parent else None,
        "previous": rule_item(site, site.rules[at - 1]) if at > 0 else None,
        "next": rule_item(site, site.rules[at + 1]) if at + 1 < len(site.rules) else None,
        "children": [
            rule_item(site, c, with_excerpt=len(children) <= _EXCERPTS_UP_TO) for c in children
        ],
        "cites": [
            rule_item(site, site.by_id[ref], with_excerpt=False)
            for ref in dict.fromkeys(rule.references)
            if ref in site.by_id and ref != rule.id
        ],
        "cited_by": [
            rule_item(site, r, with_excerpt=False) for r in site.cited_by.get(rule.id, [])
        ],
        "glossary": [
            {
                "term": t.term,
                "page": f"{paths.document_page(site.id)}#{paths.glossary_anchor(t.id)}",
            }
            for t in site.glossary_citing.get(rule.id, [])
        ],
        "rulings": [
            {
                "document": source,
                "question": r.question,
                "answer": r.answer,
                "text": r.text,
                "cards": r.card_titles or r.cards,
                "updated": r.updated,
            }
            for source, r in site.rulings_citing.get(rule.id, [])
        ],
        "history": history,
        "renumbered": len({step["number"] for step in history}) > 1,
        "source": source_block(site, rule),
    }


def old_number_context(site: DocumentSite, old: OldNumber) -> dict[str, Any]:
    now = site.by_id.get(old.now) if old.now else None
    lineage = site.lineage
    removed_page = None
    if old.removed_in:
        removed_page = lineage.change_link(old.removed_in, old.rule.id, before=True) or (
            paths.changes_page(site.id, old.removed_in) if old.removed_in in lineage.diffs else None
        )
    return {
        "title": f"{old.rule.number} in {old.version} — {site.title}",
        "crumbs": crumbs_of(site),
        "feed": paths.feed_file(site.id),
        "feed_title": f"{site.title}: changes",
        "doc": {"id": site.id, "title": site.title, "version": site.version},
        "old": {
            "number": old.rule.number,
            "version": old.version,
            "title": old.rule.title,
            "text": old.rule.text,
            "bullets": old.rule.bullets,
            "examples": old.rule.examples,
            "notes": old.rule.notes,
        },
        "now": rule_item(site, now) if now else None,
        "removed_in": old.removed_in,
        "removed_page": removed_page,
        "change_page": lineage.first_change(old.version, old.rule.id) if now else None,
    }
