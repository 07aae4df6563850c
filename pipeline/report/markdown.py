"""A DocumentDiff -> a Markdown changelog. Pure.

Changes are grouped by chapter and section, the summary comes first (with the number of
weak pairings to check), and the changelog ends with the renumbering map, so hiding
renumbered rules in the body still leaves every old number's new one a glance away.
"""

from __future__ import annotations

import re

from pipeline.diff.documents import filter_changes
from pipeline.models.changes import Change, WordOp
from pipeline.models.diffs import DocumentDiff
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
    reused_numbers,
    summary_rows,
    weak_count,
)

_CONTEXT = 12  # words of unchanged text kept around a change in the Markdown changelog
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>~|#])")


# A citation id in a contents line ("cr:712.7", "glossary:battlefield"): shown as code.
_CITATION_ID = re.compile(r"(?<![\w`])([a-z][a-z-]*:[^\s,`]+)")


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
    old, new = change_ids(change)
    ids = f"`{old}` → `{new}`" if old and new and old != new else f"`{old or new}`"
    about = describe(change)
    lines = [f"- **{change.cls}** {ids}" + (f" ({_md(about)})" if about else "")]
    if cards(change):
        lines.append(f"  {_md(cards(change))}")
    if change.cls in ("added", "removed") and change.words:
        lines.append(f"  > {_md(' '.join(w.text for w in change.words))}")
    elif any(w.op != "equal" for w in change.words):
        lines.append(f"  > {markdown_words(change.words)}")
    return lines


def _md_contents(shown: list[Change]) -> list[str]:
    """Every change shown, one line each: moves as old → new, splits and merges named."""
    if not shown:
        return []
    out = ["", "## Contents", ""]
    reused = reused_numbers(shown)
    for change in shown:
        ids, what = contents_entry(change, reused)
        named = _CITATION_ID.sub(r"`\1`", f"{ids} {what}")
        out.append(f"- {named}" + (f" {WEAK_MARK}" if change.weak else ""))
    return out


def _md_reconciliation(diff: DocumentDiff) -> list[str]:
    """The publisher's own change list set against what the diff found."""
    rec = diff.reconciliation
    if rec is None:
        return []
    named = len(rec.named_found) + len(rec.named_not_found)
    out = [
        "",
        "## The publisher's summary of changes",
        "",
        f"The publisher names {named} changes; the diff finds {len(rec.named_found)} of them. "
        f"{len(rec.found_not_named)} changed records are not named by the publisher.",
    ]
    if rec.named_not_found:
        out += ["", "Named by the publisher, not found by the diff:", ""]
        out += [
            f"- {_md(c.text)}" + (f" (cites {', '.join(c.cites)})" if c.cites else "")
            for c in rec.named_not_found
        ]
    if rec.found_not_named:
        out += [
            "",
            "Found by the diff, not named by the publisher:",
            "",
            ", ".join(f"`{i}`" for i in rec.found_not_named),
        ]
    return out


def _md_map(diff: DocumentDiff) -> list[str]:
    entries = map_entries(diff)
    if not entries:
        return []
    out = [
        "",
        "## Renumbering map",
        "",
        f"Where each old number went ({diff.old_version} → {diff.new_version}); "
        f"{WEAK_MARK} marks a weak pairing, {WEAK_NOTE}.",
        "",
        "| old | new | change | method | similarity |",
        "|---|---|---|---|---:|",
    ]
    for e in entries:
        new = ", ".join(f"`{i}`" for i in map_new(e)) or "—"
        method = (e.method or "") + (f" {WEAK_MARK} weak" if e.weak else "")
        similarity = "" if e.similarity is None else f"{e.similarity:.4g}"
        out.append(f"| `{e.old_id}` | {new} | {map_change(e)} | {method} | {similarity} |")
    return out


def render_markdown(
    diff: DocumentDiff,
    old: Document,
    new: Document,
    *,
    hide_renumbering: bool = False,
    hide_reference_only: bool = False,
) -> str:
    shown = filter_changes(diff, hide_renumbering, hide_reference_only)
    out = [
        f"# {_md(diff.document)}: {_md(diff.old_version)} → {_md(diff.new_version)}",
        "",
        "| change | count |",
        "|---|---:|",
    ]
    out += [f"| {cls} | {n} |" for cls, n in summary_rows(diff)]
    out += ["", f"{len(diff.changes)} changes in all."]
    weak = weak_count(diff)
    if weak:
        out += ["", f"{WEAK_MARK} {weak} pairings are weak ({WEAK_NOTE})."]
    note = hidden_note(diff, shown)
    if note:
        out += ["", note]
    out += _md_reconciliation(diff)
    out += _md_contents(shown)
    for chapter, sections in group_changes(shown, old, new):
        out += ["", f"## {_md(chapter)}"]
        for section, changes in sections:
            if section is not None:
                out += ["", f"### {_md(section)}"]
            out.append("")
            for change in changes:
                out += _md_change(change)
    out += _md_map(diff)
    return "\n".join(out) + "\n"
