"""What a person reads in the terminal: summary tables, a shown rule, a history."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from pipeline.cli.show_text import format_shown
from pipeline.jobs.outcomes import Outcome, RunSummary
from pipeline.jobs.show import HistoryStep, Shown

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
    row, cells two spaces apart and never wrapped, so a log stays one line per row."""
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
        table.add_row(*row, style=style or None)
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
        line = Text(f"{o.document} {o.version or ''}: {o.message}", style=style)
        console.print(line, soft_wrap=not console.is_terminal)
    for o in summary.outcomes:
        for note in o.notes:
            line = Text(f"{o.document} {o.version or ''}: publisher note: {note}")
            console.print(line, soft_wrap=not console.is_terminal)
    console.print(f"exit code {summary.exit_code}")


def _indented(console: Console, text: str, indent: int, style: str = "") -> None:
    """Wrapped lines keep the indentation of their first line."""
    # Wrapped here and printed line by line: rich's Padding would end every line in spaces
    # up to the console's width.
    for line in Text(text, style=style).wrap(console, max(console.width - indent, 20)):
        line.rstrip()
        console.print(Text(" " * indent) + line, soft_wrap=True)


def print_shown(console: Console, shown: Shown) -> None:
    """The shown record as `cli.show_text` formats it (the fast path prints the same text)."""
    console.print(
        format_shown(shown.as_json()), end="", markup=False, highlight=False, soft_wrap=True
    )


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
