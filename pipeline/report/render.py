"""A DocumentDiff -> a Markdown changelog or a self-contained HTML page. Pure.

Both group changes by chapter and section (found through each record's parent
chain), open with the summary, and end with the renumbering map, so hiding
renumbered rules in the body still leaves the mapping one glance away. The
HTML loads nothing from the network: one inline stylesheet, no scripts.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from pipeline.diff.documents import CHANGE_CLASSES, filter_changes, is_renumbering_noise
from pipeline.models import Change, Document, DocumentDiff, Rule, WordOp

_GROUPS = {"glossary": "Glossary", "ruling": "Rulings"}
_CONTEXT = 12  # words of unchanged text kept around a change in the Markdown changelog
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>~|#])")


def primary_id(change: Change) -> str:
    return (change.new_id or change.old_id or (change.new_ids or change.old_ids or ["?"])[0])


def _record(change: Change, old: dict[str, Rule], new: dict[str, Rule]) -> Rule | None:
    for rid in (change.new_id, *change.new_ids):
        if rid in new:
            return new[rid]
    for rid in (change.old_id, *change.old_ids):
        if rid in old:
            return old[rid]
    return None


def _heading(rule: Rule) -> str:
    return f"{rule.number} {rule.title}" if rule.title else rule.id


def _chain(rule: Rule, records: dict[str, Rule]) -> list[Rule]:
    chain = [rule]
    while chain[-1].parent is not None and chain[-1].parent in records and len(chain) < 32:
        chain.append(records[chain[-1].parent])
    return chain[::-1]


def group_changes(changes: Iterable[Change], old: Document, new: Document
                  ) -> list[tuple[str, list[tuple[str | None, list[Change]]]]]:
    """[(chapter heading, [(section heading or None, changes)])] in the order changes come."""
    old_by_id = {r.id: r for r in old.records}
    new_by_id = {r.id: r for r in new.records}
    chapters: dict[str, dict[str | None, list[Change]]] = {}
    for change in changes:
        rule = _record(change, old_by_id, new_by_id)
        if rule is None:  # glossary terms, rulings: grouped by the kind their id names
            prefix = primary_id(change).split(":", 1)[0]
            chapter, section = _GROUPS.get(prefix, prefix), None
        else:
            records = new_by_id if new_by_id.get(rule.id) is rule else old_by_id
            chain = _chain(rule, records)
            chapter = _heading(chain[0])
            section = _heading(chain[1]) if len(chain) > 1 else None
        chapters.setdefault(chapter, {}).setdefault(section, []).append(change)
    return [(c, list(sections.items())) for c, sections in chapters.items()]


def _ids(change: Change) -> tuple[str, str]:
    old = ", ".join(change.old_ids) if change.old_ids else (change.old_id or "")
    new = ", ".join(change.new_ids) if change.new_ids else (change.new_id or "")
    return old, new


def _describe(change: Change) -> str:
    parts = []
    if change.similarity is not None:
        parts.append(f"similarity {change.similarity:.4g}")
    if change.cls in ("renumbered", "moved", "split", "merged"):
        parts.append(f"text {change.text_change}" if change.text_change else "text unchanged")
    return "; ".join(parts)


def _cards(change: Change) -> str:
    """Rulings: which cards a ruling was attached to or detached from."""
    parts = []
    if change.cards_gained:
        parts.append("cards gained: " + ", ".join(change.cards_gained))
    if change.cards_lost:
        parts.append("cards lost: " + ", ".join(change.cards_lost))
    return "; ".join(parts)


def _hidden_note(diff: DocumentDiff, shown: list[Change]) -> str:
    visible = {id(c) for c in shown}
    hidden = [c for c in diff.changes if id(c) not in visible]
    if not hidden:
        return ""
    renum = sum(is_renumbering_noise(c) for c in hidden)
    ref = sum(c.cls == "reference-only" for c in hidden)
    bits = [f"{renum} pure renumberings"] if renum else []
    bits += [f"{ref} reference-only changes"] if ref else []
    return "Hidden here (kept in the JSON): " + ", ".join(bits) + "."


# --------------------------------------------------------------------------- Markdown


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _elide(tokens: list[str], first: bool, last: bool) -> str:
    if len(tokens) <= 2 * _CONTEXT + 6:
        return " ".join(tokens)
    head = [] if first else tokens[:_CONTEXT]
    tail = [] if last else tokens[-_CONTEXT:]
    return " ".join([*head, "…", *tail]) if head or tail else "…"


def markdown_words(words: list[WordOp]) -> str:
    """Unchanged text plain (long runs elided), ~~deleted~~ and **inserted** words."""
    out = []
    for i, op in enumerate(words):
        if op.op == "equal":
            out.append(_md(_elide(op.text.split(), i == 0, i == len(words) - 1)))
        elif op.op == "delete":
            out.append(f"~~{_md(op.text)}~~")
        else:
            out.append(f"**{_md(op.text)}**")
    return " ".join(out)


def _md_change(change: Change) -> list[str]:
    old, new = _ids(change)
    ids = f"`{old}` → `{new}`" if old and new and old != new else f"`{old or new}`"
    about = _describe(change)
    lines = [f"- **{change.cls}** {ids}" + (f" ({about})" if about else "")]
    if _cards(change):
        lines.append(f"  {_md(_cards(change))}")
    if change.cls in ("added", "removed") and change.words:
        lines.append(f"  > {_md(' '.join(w.text for w in change.words))}")
    elif any(w.op != "equal" for w in change.words):
        lines.append(f"  > {markdown_words(change.words)}")
    return lines


def _summary_rows(diff: DocumentDiff) -> list[tuple[str, int]]:
    return [(cls, diff.summary.get(cls, 0)) for cls in CHANGE_CLASSES]


def _md_reconciliation(diff: DocumentDiff) -> list[str]:
    """The publisher's own change list set against what the diff found."""
    rec = diff.reconciliation
    if rec is None:
        return []
    named = len(rec.named_found) + len(rec.named_not_found)
    out = ["", "## The publisher's summary of changes", "",
           f"The publisher names {named} changes; the diff finds {len(rec.named_found)} of them. "
           f"{len(rec.found_not_named)} changed records are not named by the publisher."]
    if rec.named_not_found:
        out += ["", "Named by the publisher, not found by the diff:", ""]
        out += [f"- {_md(c.text)}" + (f" (cites {', '.join(c.cites)})" if c.cites else "")
                for c in rec.named_not_found]
    if rec.found_not_named:
        out += ["", "Found by the diff, not named by the publisher:", "",
                ", ".join(f"`{i}`" for i in rec.found_not_named)]
    return out


def render_markdown(diff: DocumentDiff, old: Document, new: Document, *,
                    hide_renumbering: bool = False, hide_reference_only: bool = False) -> str:
    shown = filter_changes(diff, hide_renumbering, hide_reference_only)
    out = [f"# {_md(diff.document)}: {_md(diff.old_version)} → {_md(diff.new_version)}", "",
           "| change | count |", "|---|---:|"]
    out += [f"| {cls} | {n} |" for cls, n in _summary_rows(diff)]
    out += ["", f"{len(diff.changes)} changes in all."]
    note = _hidden_note(diff, shown)
    if note:
        out += ["", note]
    out += _md_reconciliation(diff)
    for chapter, sections in group_changes(shown, old, new):
        out += ["", f"## {_md(chapter)}"]
        for section, changes in sections:
            if section is not None:
                out += ["", f"### {_md(section)}"]
            out.append("")
            for change in changes:
                out += _md_change(change)
    if diff.renumbering:
        out += ["", "## Renumbering map", "", "| old | new | method | similarity |",
                "|---|---|---|---:|"]
        out += [f"| `{e.old_id}` | `{e.new_id}` | {e.method} | {e.similarity:.4g} |"
                for e in diff.renumbering]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- HTML

_CSS = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:78rem;
padding:1rem 2rem;color:#1d1d1f;background:#fff}
h1{font-size:1.6rem}h2{border-bottom:2px solid #ddd;margin-top:2rem}h3{color:#444}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .6rem;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}tr.zero{color:#999}
nav ol{columns:3;font-size:.9rem}
article{border:1px solid #ddd;border-radius:6px;margin:.8rem 0;padding:.5rem .8rem}
article h4{margin:.2rem 0 .5rem;font-size:1rem}
.cls{display:inline-block;border-radius:4px;padding:0 .4rem;font-size:.85rem;background:#eee}
.cls.added{background:#c8f0c8}.cls.removed{background:#f8c8c8}.cls.reworded{background:#fde6a8}
.cls.renumbered,.cls.moved{background:#d6e4ff}.cls.split,.cls.merged{background:#ead6ff}
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
    parts = [html.escape(w.text) if w.op == "equal" else
             f"<{tag}>{html.escape(w.text)}</{tag}>" for w in words if w.op in ("equal", keep)]
    body = " ".join(parts) if parts else '<span class="none">(none)</span>'
    label = f'<span class="label">{html.escape(ids or "—")}</span>'
    return f'<div class="side {tag}">{label}{body}</div>'


def _html_change(change: Change, anchor: str) -> str:
    old, new = _ids(change)
    ids = f"{old} → {new}" if old and new and old != new else (old or new)
    cards = _cards(change)
    return (
        f'<article class="change {change.cls}" id="{anchor}">'
        f'<h4><a href="#{anchor}">{html.escape(ids)}</a> '
        f'<span class="cls {change.cls}">{change.cls}</span> '
        f'<span class="about">{html.escape(_describe(change))}</span></h4>'
        + (f'<p class="cards">{html.escape(cards)}</p>' if cards else "")
        + f'<div class="sbs">{_side(change.words, "delete", "del", old)}'
        f'{_side(change.words, "insert", "ins", new)}</div></article>'
    )


def _html_reconciliation(diff: DocumentDiff) -> list[str]:
    rec = diff.reconciliation
    if rec is None:
        return []
    named = len(rec.named_found) + len(rec.named_not_found)
    out = ['<section id="publisher-changes"><h2>The publisher\'s summary of changes</h2>',
           f"<p>The publisher names {named} changes; the diff finds {len(rec.named_found)} of "
           f"them. {len(rec.found_not_named)} changed records are not named by the publisher.</p>"]
    if rec.named_not_found:
        out.append("<h3>Named by the publisher, not found by the diff</h3><ul>")
        out += [f"<li>{html.escape(c.text)}</li>" for c in rec.named_not_found]
        out.append("</ul>")
    if rec.found_not_named:
        out.append("<h3>Found by the diff, not named by the publisher</h3><p>"
                   + ", ".join(html.escape(i) for i in rec.found_not_named) + "</p>")
    out.append("</section>")
    return out


def render_html(diff: DocumentDiff, old: Document, new: Document, *,
                hide_renumbering: bool = False, hide_reference_only: bool = False) -> str:
    shown = filter_changes(diff, hide_renumbering, hide_reference_only)
    anchors = dict(zip(map(id, shown), anchor_ids(shown), strict=True))
    title = f"{diff.document}: {diff.old_version} → {diff.new_version}"
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>",
           '<section id="summary"><h2>Summary</h2><table><tr><th>change</th><th>count</th></tr>']
    out += [f'<tr class="{"zero" if n == 0 else "some"}"><td>{cls}</td><td class="n">{n}</td></tr>'
            for cls, n in _summary_rows(diff)]
    out.append(f"</table><p>{len(diff.changes)} changes in all.</p>")
    note = _hidden_note(diff, shown)
    if note:
        out.append(f'<p class="hidden-note">{html.escape(note)}</p>')
    out.append("</section>")
    out += _html_reconciliation(diff)
    out.append('<nav id="index"><h2>Changed records</h2><ol>')
    out += [f'<li><a href="#{anchors[id(c)]}">{html.escape(primary_id(c))}</a> '
            f'<span class="cls {c.cls}">{c.cls}</span></li>' for c in shown]
    out.append("</ol></nav><main>")
    for chapter, sections in group_changes(shown, old, new):
        out.append(f'<section class="chapter"><h2>{html.escape(chapter)}</h2>')
        for section, changes in sections:
            if section is not None:
                out.append(f"<h3>{html.escape(section)}</h3>")
            out += [_html_change(c, anchors[id(c)]) for c in changes]
        out.append("</section>")
    out.append("</main>")
    if diff.renumbering:
        out.append('<section id="renumbering"><h2>Renumbering map</h2><table>'
                   "<tr><th>old</th><th>new</th><th>method</th><th>similarity</th></tr>")
        out += [f"<tr><td>{html.escape(e.old_id)}</td><td>{html.escape(e.new_id)}</td>"
                f'<td>{html.escape(e.method)}</td><td class="n">{e.similarity:.4g}</td></tr>'
                for e in diff.renumbering]
        out.append("</table></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
