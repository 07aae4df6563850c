"""A DocumentDiff -> one self-contained HTML page. Pure.

The summary at the top (with the number of weak pairings to check), a link per changed
record, old and new text side by side with insertions and deletions coloured, and the
renumbering map at the end, each old number linked to the change that says where it went.
It loads nothing from the network: the site's own stylesheet inline, no scripts. It is
rendered through the site's Jinja2 templates, so it reads on a phone as the site does.
"""

from __future__ import annotations

from typing import Any

from pipeline.diff.documents import filter_changes
from pipeline.models.changes import Change, WordOp
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document
from pipeline.report.common import (
    WEAK_MARK,
    WEAK_NOTE,
    anchor_ids,
    cards,
    change_ids,
    contents_entry,
    describe,
    group_changes,
    hidden_note,
    map_change,
    map_entries,
    map_new,
    reused_numbers,
    summary_rows,
    weak_count,
)
from pipeline.site.render import read_asset, render_page

__all__ = ["anchor_ids", "render_html"]


def _words(words: list[WordOp], keep: str) -> list[dict[str, str]]:
    return [{"op": w.op, "text": w.text} for w in words if w.op in ("equal", keep)]


def _change(change: Change, anchor: str) -> dict[str, Any]:
    old, new = change_ids(change)
    return {
        "anchor": anchor,
        "cls": change.cls,
        "weak": change.weak,
        "ids": f"{old} → {new}" if old and new and old != new else (old or new),
        "about": describe(change),
        "cards": cards(change),
        "old_label": old or "—",
        "new_label": new or "—",
        "old_words": _words(change.words, "delete"),
        "new_words": _words(change.words, "insert"),
    }


def _map_rows(diff: DocumentDiff, anchor_of: dict[str, str]) -> list[dict[str, Any]]:
    return [
        {
            "weak": e.weak,
            "old": {"id": e.old_id, "anchor": anchor_of.get(e.old_id)},
            "new": [{"id": i, "anchor": anchor_of.get(e.old_id)} for i in map_new(e)],
            "change": map_change(e),
            "method": e.method or "",
            "similarity": "" if e.similarity is None else f"{e.similarity:.4g}",
        }
        for e in map_entries(diff)
    ]


def render_html(
    diff: DocumentDiff,
    old: Document,
    new: Document,
    *,
    hide_renumbering: bool = False,
    hide_reference_only: bool = False,
) -> str:
    shown = filter_changes(diff, hide_renumbering, hide_reference_only)
    anchors = dict(zip(map(id, shown), anchor_ids(shown), strict=True))
    anchor_of = {ident: anchors[id(c)] for c in shown for ident in (c.old_id, *c.old_ids) if ident}
    title = f"{diff.document}: {diff.old_version} → {diff.new_version}"
    rec = diff.reconciliation
    reused = reused_numbers(shown)
    context = {
        "title": title,
        "feed": None,
        # the site's stylesheet, inlined: the report is one file that loads nothing
        "css": read_asset("site.css").decode("utf-8"),
        "summary": summary_rows(diff),
        "total": len(diff.changes),
        "weak": weak_count(diff),
        "weak_mark": WEAK_MARK,
        "weak_note": WEAK_NOTE,
        "hidden_note": hidden_note(diff, shown),
        "reconciliation": None
        if rec is None
        else {
            "named": len(rec.named_found) + len(rec.named_not_found),
            "found": len(rec.named_found),
            "not_named": rec.found_not_named,
            "not_found": [c.text for c in rec.named_not_found],
        },
        "index": [
            {
                "anchor": anchors[id(c)],
                "entry": contents_entry(c, reused),
                "cls": c.cls,
                "weak": c.weak,
            }
            for c in shown
        ],
        "groups": [
            {
                "heading": chapter,
                "sections": [
                    {"heading": section, "changes": [_change(c, anchors[id(c)]) for c in changes]}
                    for section, changes in sections
                ],
            }
            for chapter, sections in group_changes(shown, old, new)
        ],
        "map": _map_rows(diff, anchor_of),
    }
    return render_page("diff_report.html", context).decode("utf-8")
