"""The pages of an older stored version: its contents, and a page per rule showing the
rule as it stood then, with where it is now and the change that followed.

A rule whose text (its whole subtree) stands unchanged under the same number in the next
version gets a light page that leads to where that text stands, so an archive of many
versions writes a full page only where a version's text differs.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from pipeline.models.records import Rule
from pipeline.site import paths
from pipeline.site.blocks import block_of, heading_of, subtree_blocks
from pipeline.site.document_site import DocumentSite
from pipeline.site.lineage import children_of
from pipeline.site.linking import Linker
from pipeline.site.rule_pages import crumbs_of, doc_of, rule_item


def version_linker(site: DocumentSite, version: str) -> Linker:
    records = site.lineage.records[version]
    return Linker(
        {r.id: r.number for r in records}, partial(paths.old_number_page, site.id, version)
    )


def _base(site: DocumentSite, version: str, title: str) -> dict[str, Any]:
    return {
        "title": f"{title} — {site.title}",
        "crumbs": [
            *crumbs_of(site),
            {"label": f"Version {version}", "page": paths.version_page(site.id, version)},
        ],
        "feed": paths.feed_file(site.id),
        "feed_title": f"{site.title}: changes",
        "doc": doc_of(site),
        "version": version,
    }


def version_pages(site: DocumentSite) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(page, template, context) of every page of the document's older versions."""
    lineage = site.lineage
    for version in lineage.versions[:-1]:
        records = lineage.records[version]
        linker = version_linker(site, version)
        children = children_of(records)
        yield (
            paths.version_page(site.id, version),
            "version.html",
            version_index_context(site, version, records, children),
        )
        for rule in records:
            page = paths.old_number_page(site.id, version, rule.number)
            target = lineage.light.get(page)
            if target is not None:
                yield page, "standing.html", standing_context(site, version, rule, target)
            else:
                context = old_rule_context(site, version, rule, linker, children)
                yield page, "old_rule.html", context


def version_index_context(
    site: DocumentSite, version: str, records: list[Rule], children: dict[str, list[Rule]]
) -> dict[str, Any]:
    known = {r.id for r in records}

    def item(rule: Rule) -> dict[str, Any]:
        page = paths.old_number_page(site.id, version, rule.number)
        title = heading_of(rule, rule.id in children)
        return {"number": rule.number, "page": page, "title": title or ""}

    contents = [
        {
            **item(top),
            "sections": [
                item(s) for s in children.get(top.id, []) if heading_of(s, s.id in children)
            ],
        }
        for top in records
        if top.parent is None or top.parent not in known
    ]
    changes = site.lineage.versions[site.lineage.versions.index(version) + 1]
    return {
        **_base(site, version, f"Version {version}"),
        "contents": contents,
        "changes": paths.changes_page(site.id, changes) if changes in site.lineage.diffs else None,
        "next_version": changes,
    }


def standing_context(site: DocumentSite, version: str, rule: Rule, target: str) -> dict[str, Any]:
    return {
        **_base(site, version, f"{rule.number} in {version}"),
        "number": rule.number,
        "target": target,
    }


def old_rule_context(
    site: DocumentSite,
    version: str,
    rule: Rule,
    linker: Linker,
    children: dict[str, list[Rule]],
) -> dict[str, Any]:
    lineage = site.lineage
    followed = lineage.followed[version][rule.id]
    now = site.by_id.get(followed.citation) if followed.citation else None
    removed_page = None
    if followed.removed_in:
        removed_page = lineage.change_link(followed.removed_in, rule.id, before=True) or (
            paths.changes_page(site.id, followed.removed_in)
            if followed.removed_in in lineage.diffs
            else None
        )
    page_of = partial(paths.old_number_page, site.id, version)
    blocks, whole = subtree_blocks(rule, children, linker, lambda r: page_of(r.number))
    return {
        **_base(site, version, f"{rule.number} in {version}"),
        "rule": block_of(rule, linker, page_of(rule.number), 0, rule.id in children),
        "subtree": blocks,
        "whole": whole,
        "now": rule_item(site, now) if now else None,
        "removed_in": followed.removed_in,
        "removed_page": removed_page,
        "change_page": lineage.first_change(version, rule.id),
        "version_page": paths.version_page(site.id, version),
    }
