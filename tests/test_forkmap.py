"""Pages read by forked workers (a process without threads) or spawned ones (with threads):
the same lines as a sequential read either way; a worker's failure reaches the caller."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import get_context
from typing import TypeVar

import pytest
from test_pdf_extract import make_pdf

from pipeline.extract import pdfium
from pipeline.extract.forkmap import Session, can_fork, map_forked
from pipeline.extract.pdf import PARALLEL_MIN_PAGES
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
