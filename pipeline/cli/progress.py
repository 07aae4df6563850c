"""Progress on the terminal: the one place a job's progress reports are drawn (rich)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from pipeline.errors import NAME_LENGTH, shorten

if TYPE_CHECKING:  # imported with the first bar: most commands draw none
    from rich.progress import Progress, TaskID


class TerminalProgress:
    """A bar for work of known length, a dim line for everything else (on stderr)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, message: str, done: int | None = None, total: int | None = None) -> None:
        # Progress names documents and versions read from manifests: escaped, never markup.
        message = shorten(message, NAME_LENGTH, one_line=True)
        if total is None or done is None:
            self.console.print(Text(message, style="dim"), highlight=False)
            return
        if self.bar is None:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bar = Progress(
                TextColumn("{task.description}", markup=False),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(message, total=total)
        assert self.task is not None
        self.bar.update(self.task, description=message, completed=done, total=total)
        if done >= total:
            self.bar.stop()
            self.bar = None


def quiet_progress(message: str, done: int | None = None, total: int | None = None) -> None:
    """For --json runs: nothing on the terminal but the JSON."""
