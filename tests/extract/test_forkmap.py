"""Pages read by forked workers (a process without threads) or spawned ones (with threads):
the same lines as a sequential read either way; a worker's failure reaches the caller; a
read begun early (a prefetch) gives the same lines, or the same error, and leaves no worker."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import active_children, get_context
from typing import TypeVar

import pytest
from test_pdf_extract import make_pdf

from pipeline.errors import ExtractError
from pipeline.extract import pdf, pdfium
from pipeline.extract.forkmap import Forked, Session, can_fork, map_forked
from pipeline.extract.page_reads import PARALLEL_MIN_PAGES
from pipeline.extract.pdflines import to_lines

T = TypeVar("T")

pytestmark = pytest.mark.skipif(not can_fork(), reason="needs Linux and a single thread")


@contextmanager
def other_thread() -> Iterator[None]:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        settle_threads()


def settle_threads() -> None:
    """Wait until this process is its main thread alone again. The kernel lists a thread
    until it has exited, a moment after join returns: a thread the test before this one
    joined (a server's, a pool's) may still be in /proc/self/task."""
    for _ in range(10_000):
        if len(os.listdir("/proc/self/task")) == 1:
            return
        time.sleep(0.001)
    names = [thread.name for thread in threading.enumerate()]
    raise AssertionError(f"other threads still run after 10 s: {names}")


def test_can_fork_only_without_other_threads() -> None:
    settle_threads()  # regression: run after a test whose threads had not yet left
    assert can_fork()
    with other_thread():
        assert not can_fork()
    assert can_fork()


def _sessions(do: Callable[[int], T]) -> Session[T]:
    @contextmanager
    def session() -> Iterator[Callable[[int], T]]:
        yield do

    return session


def test_results_come_in_task_order_from_every_process() -> None:
    parent = os.getpid()
    context = get_context("fork")
    parent_started, child_started = context.Event(), context.Event()

    def do(task: int) -> tuple[int, bool]:
        # Each side's tasks wait until the other side has one, so both take part (a fast
        # worker could otherwise take every task before the parent asks for its first).
        mine, theirs = (
            (parent_started, child_started)
            if os.getpid() == parent
            else (child_started, parent_started)
        )
        mine.set()
        assert theirs.wait(30)
        return task * task, os.getpid() == parent

    results = map_forked(20, _sessions(do), 2)
    assert [square for square, _ in results] == [task * task for task in range(20)]
    assert {by_parent for _, by_parent in results} == {True, False}


def test_a_worker_exception_is_raised_in_the_caller() -> None:
    parent = os.getpid()
    taken = get_context("fork").Event()

    def do(task: int) -> int:
        if os.getpid() == parent:
            assert taken.wait(30)
            return task
        taken.set()
        raise ValueError(f"task {task} failed in a worker")

    with pytest.raises(ValueError, match="failed in a worker"):
        map_forked(50, _sessions(do), 2)


def test_a_worker_killed_by_a_signal_is_an_error_not_a_hang() -> None:
    parent = os.getpid()
    taken = get_context("fork").Event()

    def do(task: int) -> int:
        if os.getpid() == parent:
            assert taken.wait(30)
            return task
        taken.set()
        os.kill(os.getpid(), signal.SIGKILL)
        return task

    with pytest.raises((RuntimeError, MemoryError), match=r"signal 9|status -9"):
        map_forked(20, _sessions(do), 2)


@pytest.mark.parametrize("threads", [False, True], ids=["forked", "spawned"])
@pytest.mark.parametrize("columns", [1, 2])
def test_forked_and_spawned_reads_equal_a_sequential_read(threads: bool, columns: int) -> None:
    data = make_pdf(PARALLEL_MIN_PAGES + 9)
    sequential, removed = pdfium._read_pages(data, columns, 0, PARALLEL_MIN_PAGES + 9)
    # extract_pdf_lines_pdfium: extract_pdf_lines would answer the second run from its cache.
    if threads:
        with other_thread():
            assert not can_fork()
            result = pdfium.extract_pdf_lines_pdfium(data, what="test", columns=columns)
    else:
        settle_threads()
        assert can_fork()  # so this is the forked read, not a spawned one
        result = pdfium.extract_pdf_lines_pdfium(data, what="test", columns=columns)
    assert result.lines == to_lines(sequential)
    assert result.notes == {"zero_width_removed": removed}


def test_the_collector_is_paused_only_while_pages_are_read() -> None:

    states: list[bool] = []

    def do(task: int) -> int:
        states.append(gc.isenabled())
        return task

    session = _sessions(do)

    assert gc.isenabled()
    assert map_forked(3, session, 1) == [0, 1, 2]
    assert states == [False, False, False] and gc.isenabled()
    gc.disable()
    try:
        map_forked(1, session, 1)
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()


def test_forked_workers_start_at_once_and_join_gives_every_result_in_order() -> None:
    settle_threads()
    started = get_context("fork").Event()

    def do(task: int) -> int:
        started.set()
        return task * 2

    forked = Forked(12, _sessions(do), 2)
    # The worker takes tasks before this process joins: the caller's own work (the parse
    # child's imports) runs beside it.
    assert started.wait(30)
    assert forked.join() == [task * 2 for task in range(12)]
    assert active_children() == []


def test_a_forked_run_closed_unjoined_leaves_no_worker() -> None:
    settle_threads()

    def do(task: int) -> int:
        time.sleep(0.05)
        return task

    forked = Forked(400, _sessions(do), 2)
    assert active_children()
    forked.close()
    assert active_children() == []
    forked.close()  # twice is harmless


def test_a_prefetched_extraction_gives_the_same_lines_and_leaves_no_worker() -> None:
    settle_threads()
    # Emptied first: another module's test may have extracted the same bytes (make_pdf is
    # deterministic), and a cached extraction is answered without a worker.
    pdf._RECENT.clear()
    data = make_pdf(PARALLEL_MIN_PAGES + 5)
    plain = pdfium.extract_pdf_lines_pdfium(data, what="test")
    pdf.prefetch_pdf_lines(data, what="test")
    assert active_children()  # reading already
    fetched = pdf.extract_pdf_lines(data, what="test")
    assert (fetched.lines, fetched.notes) == (plain.lines, plain.notes)
    assert active_children() == [] and pdf._PENDING == {}
    pdf.prefetch_pdf_lines(data, what="test")  # answered from the cache: nothing begun
    assert pdf._PENDING == {}
    pdf.prefetch_pdf_lines(make_pdf(PARALLEL_MIN_PAGES + 1), what="another")
    pdf.cancel_prefetches()  # one no extraction asked for
    assert active_children() == [] and pdf._PENDING == {}


def test_a_prefetch_of_bytes_that_cannot_be_read_raises_nothing_until_extraction() -> None:
    settle_threads()
    broken = b"%PDF-1.7\n" + b"\x00" * 200
    pdf.prefetch_pdf_lines(broken, what="broken.pdf")
    with pytest.raises(ExtractError) as prefetched:
        pdf.extract_pdf_lines(broken, what="broken.pdf")
    with pytest.raises(ExtractError) as plain:
        pdf.extract_pdf_lines(broken, what="broken.pdf")
    assert str(prefetched.value) == str(plain.value)
    assert active_children() == [] and pdf._PENDING == {}
