"""Every parse runs in a child process with limits, so a hostile file costs one source.

A PDF whose content stream inflates to gigabytes, or a parser stuck in a loop,
must not take the run (or the machine) down. The child gets an address space,
CPU time and wall-clock limit, and dies with its parent, so a killed run leaves
no process behind. A child that hits a limit is that source's parse failure
(exit 40) with a message naming the limit and how to raise it.

How the child starts depends on the caller. A plain fork is safe only when this
process has no thread but the main one (a thread holding a lock at the fork leaves
it held forever in the child) and a small address space (the child starts with this
process's, and the address-space limit counts it): `rulescorpus parse` and `update`
are such callers. Any other caller (the tests' HTTP server threads, the thread pools
of `import` and `verify`, Datasette) forks from a small fork server instead, started
once per process with the parsers imported.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.forkserver
import os
import resource
import signal
import sys
import traceback
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from pipeline.errors import ParseError, RulesCorpusError
from pipeline.extract.lifetime import die_with_parent
from pipeline.models.records import Document
from pipeline.parse.numbered.budget import set_pattern_budget
from pipeline.runner.limits import MiB, ParseLimits
from pipeline.runner.request import ParseRequest

T = TypeVar("T")
# What the child sends of its Document: what the caller needs of it (and must pickle).
# Made in the child, it costs the caller nothing to read back.
Reply = Callable[[Document], T]
# What a child does with the bytes: a parse and its reply, or another reading of untrusted
# bytes (scheme inference) under the same limits. A module's function, or a partial of
# one, when the child is served.
Task = Callable[[bytes, ParseRequest], T]


def parse_then(reply: Reply[T], data: bytes, request: ParseRequest) -> T:
    """The parse child's task: the family's parse of `data`, handed to `reply`."""
    from pipeline.runner.families import parse_bytes  # a forked child has not yet

    return reply(parse_bytes(data, request))


# A caller may fork its parse child directly only while its own address space is at
# most this share of the child's limit: a fork inherits the whole of it, and a large
# caller (an `import` holding many documents) would leave the parse too little.
DIRECT_FORK_SHARE = 4


_context: Any = None
# Extraction engines the family table imports only when a parse needs them.
LAZY_ENGINES = (
    "pipeline.extract.html",
    "pipeline.extract.fab_html",
    "pipeline.extract.nsg_html",
    "pipeline.extract.tarball",
    "pipeline.extract.yaml_bundle",
)


def _fork_server() -> Any:
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        # The server imports the parsers and every extraction engine once (the family
        # table imports the HTML, YAML and tar ones only when a parse needs them); each
        # child is a cheap fork of it.
        preload = ["pipeline.runner.families", "pipeline.runner.sandbox_server", *LAZY_ENGINES]
        _context.set_forkserver_preload(preload)
    return _context


def address_space() -> int:
    """This process's address space now (VmSize), in bytes; 0 when it cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def can_fork() -> bool:
    """Whether this process may fork: Linux, and no thread but this one."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


# Kept for `parse` of the MTG PDF: 0.3-0.5 s under the fork server (bench.md, whole command).
def start_method(limits: ParseLimits) -> str:
    """ "fork" when this process may fork its parse child itself, else "forkserver"."""
    size = address_space()
    if can_fork() and 0 < size <= limits.memory_bytes // DIRECT_FORK_SHARE:
        return "fork"
    return "forkserver"


def dump_json(doc: Document) -> bytes:
    """The Document as the caller reads it back (`parse_isolated`): its JSON."""
    return doc.model_dump_json().encode("utf-8")


def _child(
    conn: Connection, data: bytes, request: ParseRequest, limits: ParseLimits, task: Task[Any]
) -> None:
    die_with_parent()
    # Ctrl-C reaches the whole process group: the run decides what it means (exit 2)
    # and kills this child; a KeyboardInterrupt here would only print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    cpu = limits.cpu_now()
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    answer: tuple[str, Any]
    # A registry pattern past its budget ends this child by SIGALRM's default action, which
    # the parent reports by the pattern's key (see _died), whatever this process inherited.
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    set_pattern_budget(limits.pattern_seconds)
    try:
        # This child lives for one parse: what it has now (the modules, the caller's heap)
        # it keeps, and frozen, the collector's passes during the parse skip it.
        gc.freeze()
        answer = ("ok", task(data, request))
    except MemoryError:
        answer = ("limit", "memory")
    except RulesCorpusError as exc:
        answer = ("error", exc)
    except ValueError as exc:
        # Python refuses to read a number of more digits than its conversion limit (4,300),
        # which guards it against quadratic time: no rule is numbered so.
        if "integer string conversion" not in str(exc):
            answer = ("crash", traceback.format_exc(limit=8))
        else:
            limit = sys.get_int_max_str_digits()
            problem = (
                f"the file holds a number of more than {limit} digits where a rule number "
                "stands; no rules document numbers a rule so: the file is damaged or hostile"
            )
            answer = ("error", ParseError(request.what, problem))
    except Exception:  # a parser bug: report it as this source's failure, with the trace
        answer = ("crash", traceback.format_exc(limit=8))
    try:
        conn.send(answer)
    except OSError:
        pass  # the run that asked was killed: nobody is left to tell, or to print to
    finally:
        conn.close()


def _forked_child(
    unused: Connection,
    conn: Connection,
    data: bytes,
    request: ParseRequest,
    limits: ParseLimits,
    task: Task[Any],
) -> None:
    # A plain fork inherits the parent's end of the pipe too: closed, so the pipe
    # breaks when the parent is gone instead of filling up with nobody reading.
    unused.close()
    _child(conn, data, request, limits, task)


def _served_child(
    conn: Connection, data: bytes, request: ParseRequest, limits: ParseLimits, task: Task[Any]
) -> None:
    die_with_parent()  # the fork server's death, below, is this child's
    # The fork server hands each child a copy of the run's end of its "alive" pipe and
    # stays up while any copy is open, so a killed run's child went on parsing (for as
    # long as its limits allowed) under a server that waited for it. Closed here, the
    # server exits when the run does, and takes this child with it.
    server = getattr(multiprocessing.forkserver, "_forkserver", None)
    alive = getattr(server, "_forkserver_alive_fd", None)
    if isinstance(alive, int):
        with contextlib.suppress(OSError):
            os.close(alive)
        server._forkserver_alive_fd = None  # type: ignore[union-attr]
    _child(conn, data, request, limits, task)


def _limit_error(request: ParseRequest, limit: str, limits: ParseLimits) -> ParseError:
    hints = {
        "memory": (
            f"the address-space limit of {limits.memory_bytes // MiB} MiB",
            "RULESCORPUS_PARSE_MEMORY_MB",
        ),
        "cpu": (f"the CPU-time limit of {limits.cpu_seconds} s", "RULESCORPUS_PARSE_CPU_S"),
        "wall": (f"the wall-time limit of {limits.wall_seconds} s", "RULESCORPUS_PARSE_WALL_S"),
        "deadline": ("the run's deadline", "`update --deadline SECONDS`"),
    }
    what, variable = hints[limit]
    return ParseError(
        request.what,
        f"parsing stopped at {what}; the file may be hostile or damaged. If it is genuine, "
        f"raise the limit with {variable}",
    )


def _start_child(
    data: bytes, request: ParseRequest, limits: ParseLimits, task: Task[Any]
) -> tuple[Any, Connection]:
    """The running child and the end of the pipe its answer comes down."""
    work = (data, request, limits, task)
    if start_method(limits) == "fork":
        context = multiprocessing.get_context("fork")
        receiver, sender = context.Pipe(duplex=False)
        args: tuple[Any, ...] = (receiver, sender, *work)
        target: Any = _forked_child
    else:
        context = _fork_server()
        receiver, sender = context.Pipe(duplex=False)
        args, target = (sender, *work), _served_child
    # die_with_parent reaps it when this process dies.
    process = context.Process(target=target, args=args)
    try:
        process.start()
    finally:
        sender.close()
    return process, receiver


def parse_isolated_as(
    data: bytes, request: ParseRequest, reply: Reply[T], limits: ParseLimits | None = None
) -> T:
    """`parse_bytes` in a limited child process, which hands the Document to `reply`
    (a module's function, or a partial of one, when the child is served): what `reply`
    made of it, or a ParseError."""
    return run_isolated(data, request, partial(parse_then, reply), limits)


def run_isolated(
    data: bytes, request: ParseRequest, task: Task[T], limits: ParseLimits | None = None
) -> T:
    """`task(data, request)` in a limited child process (memory, CPU and wall time, the
    run's deadline): what it returned, or a ParseError naming the limit it hit."""
    limits = limits or ParseLimits.from_env()
    process, receiver = _start_child(data, request, limits, task)
    answered = False
    deadline_first = limits.deadline_first()
    try:
        if not receiver.poll(limits.wall_now()):
            raise _limit_error(request, "deadline" if deadline_first else "wall", limits)
        try:
            kind, payload = receiver.recv()
        except (EOFError, OSError):
            process.join(5)
            raise _died(request, process.exitcode, limits) from None
        answered = True
    finally:
        receiver.close()
        if answered:
            process.join(5)  # it has answered and is closing: give it a moment
        if process.is_alive():
            process.kill()  # past a limit, or this run is being interrupted
        process.join()
    if kind == "ok":
        result: T = payload
        return result
    if kind == "limit":
        raise _limit_error(request, str(payload), limits)
    if kind == "error":
        assert isinstance(payload, RulesCorpusError)
        raise payload
    raise ParseError(
        request.what, f"the parser failed unexpectedly (a bug; please report it):\n{payload}"
    )


def parse_isolated_json(
    data: bytes, request: ParseRequest, limits: ParseLimits | None = None
) -> bytes:
    """`parse_bytes` in a limited child process: the Document's JSON as the child
    dumped it (`model_dump_json`), or a ParseError."""
    return parse_isolated_as(data, request, dump_json, limits)


def parse_isolated(
    data: bytes, request: ParseRequest, limits: ParseLimits | None = None
) -> Document:
    """`parse_bytes` in a limited child process; the same Document, or a ParseError."""
    return Document.model_validate_json(parse_isolated_json(data, request, limits))


def _died(request: ParseRequest, exitcode: int | None, limits: ParseLimits) -> ParseError:
    if exitcode == -signal.SIGALRM:  # parse.numbered.budget: a registry pattern overran
        return ParseError(
            request.what,
            f"the registry's scheme.version_pattern ran past its time budget of "
            f"{limits.pattern_seconds} s on the document's text (it backtracks "
            "catastrophically on some line); rewrite that entry's version_pattern without a "
            "quantifier inside a repeated group, e.g. (a+)+",
        )
    if exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return _limit_error(request, "cpu", limits)
    if exitcode == -signal.SIGSEGV or exitcode is None or exitcode < 0:
        # An allocation past RLIMIT_AS inside a C library often ends as a crash, not a
        # MemoryError: name the memory limit, which is what such files hit.
        return _limit_error(request, "memory", limits)
    return ParseError(request.what, f"the parser process exited with status {exitcode}")
