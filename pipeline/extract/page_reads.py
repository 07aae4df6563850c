"""A PDF's pages read by this process and workers beside it, for both PDF engines.

Pages are independent, so large PDFs are read by several processes; the rows come
back in page order, so the result is identical to a sequential read. A process
without threads forks its workers (`forkmap`), which then take a few pages at a
time until none are left; `start_read_pages` starts them and lets this process do
other work before it joins them. One with threads (a server in a test, a progress
display, `import`'s document threads) spawns them instead: a fork would copy another
thread's held locks. Either kind dies with its parent, so a killed run (or parse
sandbox) leaves none behind.

Like `pdflines`, this module imports neither a PDF library nor pydantic.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from multiprocessing import get_context
from typing import Generic, TypeVar

from pipeline.extract.forkmap import Forked, can_fork, collector_paused
from pipeline.extract.lifetime import die_with_parent
from pipeline.extract.pdflines import Row

T = TypeVar("T")

# Reads pages [first, last) (0-based) of `data` with `columns`: their rows and the
# zero-width characters removed.
ReadPages = Callable[[bytes, int, int, int], tuple[list[Row], int]]
# Opens `data` once for a process (with `columns`) and gives its ReadRange: pages
# [first, last) each time, the document kept open in between.
ReadRange = Callable[[int, int], tuple[list[Row], int]]
OpenPages = Callable[[bytes, int], AbstractContextManager[ReadRange]]

# Fewer pages than this are read by this process alone.
PARALLEL_MIN_PAGES = 24
# Pages per task for forked workers reading through an `OpenPages`: small, so the
# last task to finish ends soon after the others (a PDFium page takes ~3 ms).
FORKED_PAGES_PER_TASK = 4


class Pending(Generic[T]):
    """Work begun (`start_read_pages`, `pdfium.start_pdf_lines_pdfium`): `result` gives
    what it gives, joining its workers; `close` abandons it, ending them."""

    def __init__(self, finish: Callable[[], T], close: Callable[[], None] | None = None) -> None:
        self.result = finish
        self.close = close or (lambda: None)


def start_read_pages(
    reader: ReadPages,
    data: bytes,
    columns: int,
    pages: int,
    per_task: int,
    *,
    in_parent: bool = False,
    session: OpenPages | None = None,
) -> Pending[tuple[list[Row], int]]:
    """All rows of the document in page order, and the zero-width characters removed,
    from `result`. Forked workers start on the pages now, and `result` joins them (this
    process reading the pages left), so what this process does in between runs beside
    the read; read any other way, everything happens at `result`.

    `per_task` pages go to each spawned worker (and to each forked one without
    `session`). With `in_parent`, this process reads the first task itself while
    spawned workers read the rest (one worker fewer to start, for engines that start
    slower than they read); forked workers always share the work with it.
    """
    cores = os.cpu_count() or 1
    if pages >= PARALLEL_MIN_PAGES and cores >= 2 and can_fork():
        forked = _forked(reader, data, columns, pages, per_task, session, cores)
        return Pending(lambda: _joined(forked.join()), forked.close)
    return Pending(partial(_read_here, reader, data, columns, pages, per_task, in_parent, cores))


def _read_here(
    reader: ReadPages,
    data: bytes,
    columns: int,
    pages: int,
    per_task: int,
    in_parent: bool,
    cores: int,
) -> tuple[list[Row], int]:
    """The pages read by this process alone, or beside spawned workers (this process has
    threads, and must not fork)."""
    ranges = _ranges(pages, per_task)
    with collector_paused():
        if pages < PARALLEL_MIN_PAGES or cores < 2 or len(ranges) < 2:
            return reader(data, columns, 0, pages)
        local = ranges[:1] if in_parent else []
        remote = ranges[len(local) :]
        workers = min(cores - len(local), len(remote))
        context = get_context("spawn")
        with ProcessPoolExecutor(workers, context, initializer=die_with_parent) as pool:
            futures = [pool.submit(reader, data, columns, a, b) for a, b in remote]
            parts = [reader(data, columns, a, b) for a, b in local]
            parts += [future.result() for future in futures]
    return _joined(parts)


def _forked(
    reader: ReadPages,
    data: bytes,
    columns: int,
    pages: int,
    per_task: int,
    session: OpenPages | None,
    processes: int,
) -> Forked[tuple[list[Row], int]]:
    ranges = _ranges(pages, FORKED_PAGES_PER_TASK if session is not None else per_task)

    @contextmanager
    def tasks() -> Iterator[Callable[[int], tuple[list[Row], int]]]:
        if session is None:  # the engine opens the document for each task
            yield lambda task: reader(data, columns, *ranges[task])
            return
        with session(data, columns) as read:
            yield lambda task: read(*ranges[task])

    return Forked(len(ranges), tasks, processes)


def _ranges(pages: int, step: int) -> list[tuple[int, int]]:
    """Pages [0, pages) as [first, last) ranges of `step` pages (the last one shorter)."""
    return [(start, min(start + step, pages)) for start in range(0, pages, step)]


def _joined(parts: list[tuple[list[Row], int]]) -> tuple[list[Row], int]:
    rows = [row for part, _ in parts for row in part]
    return rows, sum(removed for _, removed in parts)
