"""What a person reads in the terminal: summary tables, a shown rule, a history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from pipeline.cli.show_text import format_history, format_hits, format_shown
from pipeline.errors import MESSAGE_LINE, NAME_LENGTH, shorten
from pipeline.jobs.outcomes import RunSummary
from pipeline.lookup.lineage import HistoryStep
from pipeline.lookup.search import Hit
from pipeline.models.outcomes import Outcome

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


def print_table(
    console: Console,
    title: str,
    columns: tuple[str, ...],
    rows: Sequence[tuple[str, ...]],
    styles: Sequence[str] | None = None,
) -> None:
    """A table that fits the terminal; without one (cron, CI, a pipe) plain lines, one per
    row, cells two spaces apart and never wrapped, so a log stays one line per row. Cells
    hold names from registries and manifests: each is escaped and cut (`shorten`), and never
    read as rich markup."""
    rows = [tuple(shorten(cell, NAME_LENGTH, one_line=True) for cell in row) for row in rows]
    if not console.is_terminal:
        console.print(title, markup=False, highlight=False, soft_wrap=True)
        for row in [columns, *rows]:
            cells = list(row)
            while cells and not cells[-1]:
                cells.pop()
            line = "  ".join(cell or "-" for cell in cells)
            console.print(line, markup=False, highlight=False, soft_wrap=True)
        return
    table = Table(title=title, show_lines=False)
    for column in columns:
        table.add_column(column, justify="right" if column == "records" else "left")
    for i, row in enumerate(rows):
        style = styles[i] if styles else ""
        table.add_row(*(Text(cell) for cell in row), style=style or None)
    console.print(table)


def summary_row(o: Outcome) -> tuple[str, ...]:
    changes = ", ".join(f"{k} {v}" for k, v in sorted(o.changes.items()) if v)
    if o.previous:
        changes = f"from {o.previous}: {changes or 'no changes'}"
    if o.warnings:
        changes = (changes + "; " if changes else "") + f"{o.warnings} warnings"
    records = "-" if o.records is None else str(o.records)
    return (o.document, o.version or "-", records, o.outcome, changes)


def print_summary(console: Console, summary: RunSummary) -> None:
    print_table(
        console,
        f"rulescorpus {summary.command}",
        ("document", "version", "records", "outcome", "changes"),
        [summary_row(o) for o in summary.outcomes],
        [STYLES.get(o.outcome, "red") for o in summary.outcomes],
    )
    for o in summary.outcomes:
        if not o.message or o.outcome in ("fetched", "imported"):
            continue
        style = "dim" if o.outcome == "skipped" else ""
        said = shorten(f"{o.document} {o.version or ''}: {o.message}", MESSAGE_LINE, one_line=True)
        console.print(Text(said, style=style), soft_wrap=not console.is_terminal)
    for o in summary.outcomes:
        for note in o.notes:
            said = f"{o.document} {o.version or ''}: publisher note: {note}"
            line = Text(shorten(said, MESSAGE_LINE, one_line=True))
            console.print(line, soft_wrap=not console.is_terminal)
    console.print(f"exit code {summary.exit_code}")


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
