"""Work shared between this process and forked copies of it, each taking the next task
when it is free: the PDF engines' page reader in a process without threads.

A forked worker starts in a millisecond with everything imported (a spawned one
pays a whole Python start and its imports, a fifth of a PDFium read of the MTG
CR), and taking tasks one at a time from a shared counter balances pages of
unequal cost. Forking is only safe without other threads (a thread holding a
lock at the fork leaves it held forever in the child), so `can_fork` asks the
kernel how many threads this process has; the parse sandbox's children have one.
"""

from __future__ import annotations

import gc
import os
import pickle
import resource
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from multiprocessing import get_context
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

from pipeline.extract.lifetime import die_with_parent

T = TypeVar("T")

# Opens what a process needs for its tasks (a document, say) and gives the function
# that does task i; closed when the process has no task left.
Session = Callable[[], AbstractContextManager[Callable[[int], T]]]


def can_fork() -> bool:
    """Whether this process may fork workers: Linux, and no thread but this one."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a while: the page readers build hundreds of
    thousands of short-lived tuples and no cycles, and each collection would walk them
    all (a tenth of a PDFium read)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def map_forked(count: int, session: Session[T], processes: int) -> list[T]:
    """The results of tasks 0..count-1 in order, done by this process and up to
    `processes - 1` forked workers. Call it only when `can_fork()`.

    A worker's exception is raised here. A worker that dies without a word (a
    signal) is a MemoryError when this process has an address-space limit, which
    is what an allocation past it inside a C library ends as; otherwise a
    RuntimeError naming the signal.
    """
    return Forked(count, session, processes).join()


class Forked(Generic[T]):
    """`map_forked` begun: the workers start on the tasks at once, and this process does
    whatever else it has to (the parse child imports the parsers) until `join`, where it
    takes the tasks left and collects every result. `close` (or `join`) ends the workers;
    one never joined nor closed dies with this process."""

    def __init__(self, count: int, session: Session[T], processes: int) -> None:
        context = get_context("fork")
        taken = context.RawValue("l", 0)  # the next task; guarded by `lock`
        lock = context.Lock()

        def next_task() -> int:
            with lock:
                task = int(taken.value)
                taken.value = task + 1
            return task

        def work() -> dict[int, T]:
            done: dict[int, T] = {}
            with collector_paused(), session() as do:
                while (task := next_task()) < count:
                    done[task] = do(task)
            return done

        self._count, self._work = count, work
        self._workers: list[tuple[Any, Connection]] = []
        try:
            for _ in range(max(0, min(processes, count) - 1)):
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(target=_worker, args=(work, sender))
                process.start()
                sender.close()
                self._workers.append((process, receiver))
        except BaseException:
            self.close()
            raise

    def join(self) -> list[T]:
        """Every result in task order, this process doing the tasks left."""
        try:
            done = self._work()
            for process, receiver in self._workers:
                done.update(_result(process, receiver))
        finally:
            self.close()
        return [done[task] for task in range(self._count)]

    def close(self) -> None:
        """End the workers (at once, if they are still at work)."""
        for process, receiver in self._workers:
            receiver.close()
            if process.is_alive():
                process.kill()
            process.join()
        self._workers = []


def _worker(work: Callable[[], dict[int, Any]], conn: Connection) -> None:
    die_with_parent()
    try:
        message: tuple[str, Any] = ("ok", work())
    except BaseException as exc:  # every failure goes back to the parent, to be raised there
        message = ("error", exc)
    try:
        conn.send(message)
    except (pickle.PicklingError, TypeError, AttributeError):  # an exception pickle refuses
        conn.send(("error", RuntimeError(f"page worker failed: {message[1]!r}")))
    finally:
        conn.close()


def _result(process: Any, receiver: Connection) -> dict[int, Any]:
    try:
        kind, payload = receiver.recv()
    except (EOFError, OSError):
        process.join()
        code = process.exitcode
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if code is not None and code < 0 and soft != resource.RLIM_INFINITY:
            message = f"a page worker died of signal {-code} under a memory limit"
            raise MemoryError(message) from None
        raise RuntimeError(f"a page worker exited with status {code} before answering") from None
    if kind == "error":
        raise payload
    result: dict[int, Any] = payload
    return result
