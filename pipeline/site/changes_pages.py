"""The context of a version's changes page: the stored diff report, each record linked to
the page it is read on (the rule's page, or its old number's page), and the rule pages'
history linking back to each change's anchor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipeline.corpus import CorpusReader
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document
from pipeline.report.common import anchor_ids, group_changes, summary_rows
from pipeline.site import paths
from pipeline.site.document_site import DocumentSite
from pipeline.site.rule_pages import crumbs_of, doc_of
from pipeline.site.wording import evidence, kind_of, sentence


def names_of(doc: Document) -> Callable[[str], str]:
    """How a reader names a record of a version: its number, a glossary term's term."""
    names = {r.id: r.number for r in doc.records if r.number}
    names.update({g.id: g.term for g in doc.glossary})
    return lambda cid: names.get(cid) or cid.partition(":")[2] or cid


def _ids(
    site: DocumentSite, version: str, ids: list[str], name: Callable[[str], str]
) -> list[dict[str, str | None]]:
    return [
        {"id": name(cid), "page": site.lineage.page_of(version, cid)}
        for cid in ids
        if cid is not None
    ]


def _change(
    site: DocumentSite,
    diff: DocumentDiff,
    change: Change,
    anchor: str,
    names: tuple[Callable[[str], str], Callable[[str], str]],
) -> dict[str, Any]:
    old_ids = change.old_ids or ([change.old_id] if change.old_id else [])
    new_ids = change.new_ids or ([change.new_id] if change.new_id else [])
    olds = _ids(site, diff.old_version, old_ids, names[0])
    news = _ids(site, diff.new_version, new_ids, names[1])
    if [i["id"] for i in olds] == [i["id"] for i in news]:
        olds = []  # the same numbers: "405.4", not "405.4 → 405.4"
    return {
        "anchor": anchor,
        "cls": change.cls,
        "kind": kind_of(change.cls),
        "old": olds,
        "new": news,
        "about": sentence(change, *names),
        "evidence": evidence(change),
        "weak": change.weak,
        "old_words": [w for w in change.words if w.op in ("equal", "delete")],
        "new_words": [w for w in change.words if w.op in ("equal", "insert")],
    }


def changes_context(reader: CorpusReader, site: DocumentSite, version: str) -> dict[str, Any]:
    diff = site.lineage.diffs[version]
    old = reader.document(site.id, diff.old_version)
    new = reader.document(site.id, diff.new_version)
    names = (names_of(old), names_of(new))
    anchors = dict(zip(map(id, diff.changes), anchor_ids(diff.changes), strict=True))
    groups = [
        {
            "heading": chapter,
            "sections": [
                {
                    "heading": section,
                    "changes": [_change(site, diff, c, anchors[id(c)], names) for c in changes],
                }
                for section, changes in sections
            ],
        }
        for chapter, sections in group_changes(diff.changes, old, new)
    ]
    versions = site.lineage.versions
    at = versions.index(version)
    later = [v for v in versions[at + 1 :] if v in site.lineage.diffs]
    earlier = [v for v in versions[:at] if v in site.lineage.diffs]
    return {
        "title": f"Changes in {version} — {site.title}",
        "crumbs": crumbs_of(site),
        "feed": paths.feed_file(site.id),
        "feed_title": f"{site.title}: changes",
        "doc": doc_of(site),
        "old_version": diff.old_version,
        "new_version": diff.new_version,
        "summary": [{"cls": kind_of(cls), "count": n} for cls, n in summary_rows(diff)],
        "total": len(diff.changes),
        "groups": groups,
        "previous": paths.changes_page(site.id, earlier[-1]) if earlier else None,
        "next": paths.changes_page(site.id, later[0]) if later else None,
    }
