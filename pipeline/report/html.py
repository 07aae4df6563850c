"""A DocumentDiff -> one self-contained HTML page. Pure.

The summary at the top (with the number of weak pairings to check), a link per changed
record, old and new text side by side with insertions and deletions coloured, and the
renumbering map at the end, each old number linked to the change that says where it went.
It loads nothing from the network: one inline stylesheet, no scripts.
"""

from __future__ import annotations

import html
import re

from pipeline.diff.documents import filter_changes
from pipeline.diff.models import DocumentDiff
from pipeline.models.changes import Change, WordOp
from pipeline.models.records import Document
from pipeline.report.common import (
    WEAK_MARK,
    WEAK_NOTE,
    cards,
    change_ids,
    contents_entry,
    describe,
    group_changes,
    hidden_note,
    map_change,
    map_entries,
    map_new,
    primary_id,
    reused_numbers,
    summary_rows,
    weak_count,
)

_CSS = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:78rem;
padding:1rem 2rem;color:#1d1d1f;background:#fff}
h1{font-size:1.6rem}h2{border-bottom:2px solid #ddd;margin-top:2rem}h3{color:#444}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .6rem;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}tr.zero{color:#999}
nav ol{columns:3;font-size:.9rem}
article{border:1px solid #ddd;border-radius:6px;margin:.8rem 0;padding:.5rem .8rem}
article h4{margin:.2rem 0 .5rem;font-size:1rem}
article.weak{border-color:#e0a800;border-left-width:4px}
.cls{display:inline-block;border-radius:4px;padding:0 .4rem;font-size:.85rem;background:#eee}
.cls.added{background:#c8f0c8}.cls.removed{background:#f8c8c8}.cls.reworded{background:#fde6a8}
.cls.renumbered,.cls.moved{background:#d6e4ff}.cls.split,.cls.merged{background:#ead6ff}
.weak-mark{color:#8a5a00;font-weight:600}tr.weak td{background:#fff7dd}
.about{color:#666;font-size:.85rem}
.sbs{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.side{background:#fafafa;border-radius:4px;padding:.4rem .6rem;white-space:pre-wrap}
.side .label{font-size:.8rem;color:#666;display:block}
ins{background:#c8f0c8;color:#064;text-decoration:none}
del{background:#f8c8c8;color:#900;text-decoration:line-through}
.none{color:#999;font-style:italic}
"""


def anchor_ids(changes: list[Change]) -> list[str]:
    """One unique, stable HTML id per change, derived from its citation id."""
    seen: dict[str, int] = {}
    out = []
    for change in changes:
        base = "change-" + (re.sub(r"[^A-Za-z0-9]+", "-", primary_id(change)).strip("-") or "x")
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def _side(words: list[WordOp], keep: str, tag: str, ids: str) -> str:
    parts = [
        html.escape(w.text) if w.op == "equal" else f"<{tag}>{html.escape(w.text)}</{tag}>"
        for w in words
        if w.op in ("equal", keep)
    ]
    body = " ".join(parts) if parts else '<span class="none">(none)</span>'
    label = f'<span class="label">{html.escape(ids or "—")}</span>'
    return f'<div class="side {tag}">{label}{body}</div>'


def _html_change(change: Change, anchor: str) -> str:
    old, new = change_ids(change)
    ids = f"{old} → {new}" if old and new and old != new else (old or new)
    about = cards(change)
    weak = f' <span class="weak-mark">{WEAK_MARK} weak</span>' if change.weak else ""
    return (
        f'<article class="change {change.cls}{" weak" if change.weak else ""}" id="{anchor}">'
        f'<h4><a href="#{anchor}">{html.escape(ids)}</a> '
        f'<span class="cls {change.cls}">{change.cls}</span>{weak} '
        f'<span class="about">{html.escape(describe(change))}</span></h4>'
        + (f'<p class="cards">{html.escape(about)}</p>' if about else "")
        + f'<div class="sbs">{_side(change.words, "delete", "del", old)}'
        f"{_side(change.words, 'insert', 'ins', new)}</div></article>"
    )


def _html_reconciliation(diff: DocumentDiff) -> list[str]:
    rec = diff.reconciliation
    if rec is None:
        return []
    named = len(rec.named_found) + len(rec.named_not_found)
    out = [
        '<section id="publisher-changes"><h2>The publisher\'s summary of changes</h2>',
        f"<p>The publisher names {named} changes; the diff finds {len(rec.named_found)} of "
        f"them. {len(rec.found_not_named)} changed records are not named by the publisher.</p>",
    ]
    if rec.named_not_found:
        out.append("<h3>Named by the publisher, not found by the diff</h3><ul>")
        out += [f"<li>{html.escape(c.text)}</li>" for c in rec.named_not_found]
        out.append("</ul>")
    if rec.found_not_named:
        out.append(
            "<h3>Found by the diff, not named by the publisher</h3><p>"
            + ", ".join(html.escape(i) for i in rec.found_not_named)
            + "</p>"
        )
    out.append("</section>")
    return out


def _link(ident: str, anchor: str | None) -> str:
    text = html.escape(ident)
    return f'<a href="#{anchor}">{text}</a>' if anchor else text


def _html_map(diff: DocumentDiff, anchor_of: dict[str, str]) -> list[str]:
    entries = map_entries(diff)
    if not entries:
        return []
    out = [
        '<section id="renumbering"><h2>Renumbering map</h2>',
        f"<p>Where each old number went; {WEAK_MARK} marks a weak pairing, "
        f"{html.escape(WEAK_NOTE)}.</p>",
        "<table><tr><th>old</th><th>new</th><th>change</th><th>method</th><th>similarity</th></tr>",
    ]
    for e in entries:
        anchor = anchor_of.get(e.old_id)
        new = ", ".join(_link(i, anchor) for i in map_new(e)) or "—"
        method = html.escape(e.method or "") + (
            f' <span class="weak-mark">{WEAK_MARK} weak</span>' if e.weak else ""
        )
        similarity = "" if e.similarity is None else f"{e.similarity:.4g}"
        out.append(
            f'<tr class="{"weak" if e.weak else "sure"}"><td>{_link(e.old_id, anchor)}</td>'
            f"<td>{new}</td><td>{html.escape(map_change(e))}</td><td>{method}</td>"
            f'<td class="n">{similarity}</td></tr>'
        )
    out.append("</table></section>")
    return out


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
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        '<section id="summary"><h2>Summary</h2><table><tr><th>change</th><th>count</th></tr>',
    ]
    out += [
        f'<tr class="{"zero" if n == 0 else "some"}"><td>{cls}</td><td class="n">{n}</td></tr>'
        for cls, n in summary_rows(diff)
    ]
    out.append(f"</table><p>{len(diff.changes)} changes in all.</p>")
    weak = weak_count(diff)
    if weak:
        out.append(
            f'<p class="weak-note"><span class="weak-mark">{WEAK_MARK}</span> {weak} pairings '
            f"are weak ({html.escape(WEAK_NOTE)}).</p>"
        )
    note = hidden_note(diff, shown)
    if note:
        out.append(f'<p class="hidden-note">{html.escape(note)}</p>')
    out.append("</section>")
    out += _html_reconciliation(diff)
    out.append('<nav id="index"><h2>Changed records</h2><ol>')
    reused = reused_numbers(shown)
    for c in shown:
        ids, what = contents_entry(c, reused)
        out.append(
            f'<li><a href="#{anchors[id(c)]}">{html.escape(ids)}</a> '
            f'<span class="cls {c.cls}">{html.escape(what)}</span>'
            + (f' <span class="weak-mark">{WEAK_MARK}</span>' if c.weak else "")
            + "</li>"
        )
    out.append("</ol></nav><main>")
    for chapter, sections in group_changes(shown, old, new):
        out.append(f'<section class="chapter"><h2>{html.escape(chapter)}</h2>')
        for section, changes in sections:
            if section is not None:
                out.append(f"<h3>{html.escape(section)}</h3>")
            out += [_html_change(c, anchors[id(c)]) for c in changes]
        out.append("</section>")
    out.append("</main>")
    out += _html_map(diff, anchor_of)
    out.append("</body></html>")
    return "\n".join(out) + "\n"
