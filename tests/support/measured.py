"""The measured pages of the documentation (docs/measured/). `make bench`, `make faults` and
`make fuzz` each write their tables there, saying when, on what machine and by which
command, so no figure in the documentation is typed by hand or outlives the code it
measured."""

from __future__ import annotations

import datetime
import os
import platform
from collections.abc import Sequence
from pathlib import Path

from rich.table import Table


def machine() -> str:
    """`Intel(R) Xeon(R) … (x86_64), 2 cores, 7.8 GiB, Linux 6.1, Python 3.11.7`."""
    model = ""
    memory = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = " ".join(line.split(":", 1)[1].split())
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {int(line.split()[1]) / 2**20:.1f} GiB"
                break
    except OSError:  # not Linux: the platform module's words are all there is
        pass
    cpu = f"{model} ({platform.machine()})" if model else platform.machine()
    return (
        f"{cpu}, {os.cpu_count()} cores{memory}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def escape(cell: str) -> str:
    return " ".join(cell.split()).replace("|", "\\|")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(escape(h) for h in headers) + " |"]
    lines.append("|" + "---|" * len(headers))
    lines += ["| " + " | ".join(escape(str(c)) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def rich_table_markdown(table: Table) -> str:
    """The same table as printed on the terminal, as Markdown (title as a heading)."""
    headers = [str(column.header) for column in table.columns]
    cells = [[str(c) for c in column.cells] for column in table.columns]
    rows = [list(row) for row in zip(*cells, strict=True)]
    title = f"## {table.title}\n\n" if table.title else ""
    return title + markdown_table(headers, rows)


def write_page(path: Path, title: str, command: str, body: str) -> None:
    """The page, with what wrote it and when first; written whole, then renamed over."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M")
    page = (
        f"# {title}\n\n"
        f"Written by `{command}` on {now} UTC, on {machine()}. Generated: run the command "
        "again rather than editing this page.\n\n" + body.rstrip("\n") + "\n"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(page, encoding="utf-8")
    temporary.replace(path)
