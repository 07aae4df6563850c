"""What a person reads in the terminal: summary tables, a shown rule, a history."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from pipeline.cli.show_text import format_history, format_hits, format_shown
from pipeline.corpus import HistoryStep, Hit
from pipeline.jobs.outcomes import RunSummary

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


def _indented(console: Console, text: str, indent: int, style: str = "") -> None:
    """Wrapped lines keep the indentation of their first line."""
    console.print(Padding(Text(text, style=style), (0, 0, 0, indent)))


def print_shown(console: Console, shown: dict[str, Any]) -> None:
    """The shown record as `cli.show_text` formats it (the fast path prints the same text)."""
    console.print(format_shown(shown), end="", markup=False, highlight=False, soft_wrap=True)


def print_hits(console: Console, query: str, hits: list[Hit]) -> None:
    """Search hits as `cli.show_text` formats them (the fast path prints the same text)."""
    text = format_hits(query, hits)
    console.print(text, end="", markup=False, highlight=False, soft_wrap=True)


def print_history(console: Console, citation: str, document: str, steps: list[HistoryStep]) -> None:
    """The history as `cli.show_text` formats it (the fast path prints the same text)."""
    text = format_history(citation, document, steps)
    console.print(text, end="", markup=False, highlight=False, soft_wrap=True)
