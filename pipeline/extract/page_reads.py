"""A PDF's pages read by this process and workers beside it, for both PDF engines.

Pages are independent, so large PDFs are read by several processes; the rows come
back in page order, so the result is identical to a sequential read. The workers are
spawned, not forked: a fork would copy another thread's held locks (a server in a
test, a progress display, `import`'s document threads). They die with their parent,
so a killed run (or parse sandbox) leaves none behind.

Like `pdflines`, this module imports neither a PDF library nor pydantic.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context

from pipeline.extract.lifetime import die_with_parent
from pipeline.extract.pdflines import Row

# Reads pages [first, last) (0-based) of `data` with `columns`: their rows and the
# zero-width characters removed.
ReadPages = Callable[[bytes, int, int, int], tuple[list[Row], int]]
# Pages [first, last) of a document an engine keeps open in between.
ReadRange = Callable[[int, int], tuple[list[Row], int]]

# Fewer pages than this are read by this process alone: a worker's start would cost
# more than it reads.
PARALLEL_MIN_PAGES = 24


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a while: the page readers build hundreds of
    thousands of short-lived tuples and no cycles, which each collection would walk."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_pages(
    reader: ReadPages,
    data: bytes,
    columns: int,
    pages: int,
    per_task: int,
    *,
    in_parent: bool = False,
) -> tuple[list[Row], int]:
    """All rows of the document in page order, and the zero-width characters removed.

    `per_task` pages go to each spawned worker. With `in_parent`, this process reads the
    first task itself while workers read the rest (one worker fewer to start, for
    engines that start slower than they read).
    """
    cores = os.cpu_count() or 1
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


def _ranges(pages: int, step: int) -> list[tuple[int, int]]:
    """Pages [0, pages) as [first, last) ranges of `step` pages (the last one shorter)."""
    return [(start, min(start + step, pages)) for start in range(0, pages, step)]


def _joined(parts: list[tuple[list[Row], int]]) -> tuple[list[Row], int]:
    rows = [row for part, _ in parts for row in part]
    return rows, sum(removed for _, removed in parts)
