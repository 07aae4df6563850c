"""What a person reads in the terminal: summary tables, a shown rule, a history."""

from __future__ import annotations

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from pipeline.jobs.outcomes import RunSummary
from pipeline.jobs.show import HistoryStep, Shown
from pipeline.models import GlossaryTerm, Rule, Ruling

STYLES = {
    "new": "green",
    "imported": "green",
    "accepted": "green",
    "unchanged": "dim",
    "verified": "green",
    "staged": "yellow",
    "skipped": "dim",
    "fetched": "cyan",
}


def print_summary(console: Console, summary: RunSummary) -> None:
    table = Table(title=f"rulescorpus {summary.command}", show_lines=False)
    for column in ("document", "version", "records", "outcome", "changes"):
        table.add_column(column, justify="right" if column == "records" else "left")
    for o in summary.outcomes:
        changes = ", ".join(f"{k} {v}" for k, v in sorted(o.changes.items()) if v)
        if o.previous:
            changes = f"from {o.previous}: {changes or 'no changes'}"
        if o.warnings:
            changes = (changes + "; " if changes else "") + f"{o.warnings} warnings"
        style = STYLES.get(o.outcome, "red")
        table.add_row(
            o.document,
            o.version or "-",
            "-" if o.records is None else str(o.records),
            f"[{style}]{o.outcome}[/{style}]",
            changes,
        )
    console.print(table)
    for o in summary.outcomes:
        if not o.message or o.outcome in ("fetched", "imported"):
            continue
        style = "dim" if o.outcome == "skipped" else ""
        console.print(Text(f"{o.document} {o.version or ''}: {o.message}", style=style))
    console.print(f"exit code {summary.exit_code}")


def _record_lines(record: Rule | GlossaryTerm | Ruling) -> list[str]:
    if isinstance(record, Rule):
        head = f"{record.id}  {record.title}" if record.title else record.id
        lines = [head]
        if record.text:
            lines.append(record.text)
        lines += [f"  Example: {e}" for e in record.examples]
        lines += [f"  Note: {n}" for n in record.notes]
        lines += [f"  • {b}" for b in record.bullets]
        return lines
    if isinstance(record, GlossaryTerm):
        return [f"{record.id}  {record.term}", record.definition]
    cards = ", ".join(
        f"{title} ({code})" for title, code in zip(record.card_titles, record.cards, strict=False)
    ) or ", ".join(record.cards)
    lines = [f"{record.id}  cards: {cards}"]
    if record.question:
        lines.append(f"Q: {record.question}")
    if record.answer:
        lines.append(f"A: {record.answer}")
    if record.text:
        lines.append(record.text)
    if record.sources or record.attribution:
        lines.append("ruling source: " + ", ".join([*record.sources, *(
            [record.attribution] if record.attribution else [])]))
    if record.updated:
        lines.append(
            f"updated {record.updated}"
            + (", verified by the rules team" if record.verified else "")
        )
    return lines


def _indented(console: Console, text: str, indent: int, style: str = "") -> None:
    """Wrapped lines keep the indentation of their first line."""
    console.print(Padding(Text(text, style=style), (0, 0, 0, indent)))


def print_shown(console: Console, shown: Shown) -> None:
    out = console.print
    if shown.renumbered_from:
        out(
            f"{shown.renumbered_from} was renumbered to {shown.record.id} in "
            f"{shown.document} {shown.version}",
            highlight=False,
        )
        out("")
    for number, line in enumerate(_record_lines(shown.record)):
        _indented(console, line, 0, "bold" if number == 0 else "")
    for child in shown.children:
        out("")
        for number, line in enumerate(_record_lines(child)):
            _indented(console, line, 2, "bold" if number == 0 else "")
    p = shown.provenance()
    out("")
    out("Source", style="bold")
    title = shown.title or shown.doc.title or shown.document
    out(
        f"  Document:  {title} ({shown.document}), version {shown.version}",
        markup=False,
        highlight=False,
    )
    if p["published"] or p["effective"]:
        out(
            f"  Published: {p['published'] or '-'}   Effective: {p['effective'] or '-'}",
            highlight=False,
        )
    out(f"  Citation:  {shown.record.id}", highlight=False)
    out(f"  URL:       {p['url']}", highlight=False, markup=False)
    out(f"  SHA-256:   {p['sha256']} ({p['bytes']} bytes, {p['rendition']})", highlight=False)
    for rendition in shown.doc.renditions:
        if shown.doc.source and rendition.sha256 != shown.doc.source.sha256:
            out(
                f"  Also:      {rendition.rendition} {rendition.url} sha256 {rendition.sha256}",
                highlight=False,
                markup=False,
            )
    for fetch in shown.fetches:
        out(
            f"  Retrieved: {fetch.get('retrieved')} from {fetch.get('final_url')}",
            highlight=False,
            markup=False,
        )
    out(f"  Parser:    {shown.doc.parser.family} {shown.doc.parser.version}", highlight=False)
    check = (
        f"download {p['url']} and run `sha256sum` on the file; if it is still version "
        f"{shown.version} it prints {p['sha256']}."
        if p["url"]
        else f"no publisher URL is known for these bytes; `sha256sum` of the file retrieved "
        f"above prints {p['sha256']}."
    )
    out(f"  Check it yourself: {check}", highlight=False, markup=False)


def print_history(console: Console, citation: str, document: str, steps: list[HistoryStep]) -> None:
    console.print(f"history of {citation} in {document}", style="bold")
    previous_text: str | None = None
    for step in steps:
        label = step.citation or "(absent)"
        console.print(f"\n{step.version}  {label}  [{step.change}]", markup=False, highlight=False)
        if step.text is None:
            continue
        if step.text == previous_text:
            console.print("  (text unchanged)", style="dim")
        else:
            _indented(console, step.text, 2)
        previous_text = step.text
