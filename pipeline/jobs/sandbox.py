"""Every parse runs in a child process with limits, so a hostile file costs one source.

A PDF whose content stream inflates to gigabytes, or a parser stuck in a loop,
must not take the run (or the machine) down. The child is forked from a small
fork server (started once, with the parsers already imported), gets an address
space, CPU time and wall-clock limit, and dies with its parent, so a killed run
leaves no process behind. A child that hits a limit is that source's parse
failure (exit 40) with a message naming the limit and how to raise it.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from pipeline.errors import ParseError, RulesCorpusError
from pipeline.extract.lifetime import die_with_parent
from pipeline.jobs.families import ParseRequest, parse_bytes
from pipeline.models.records import Document

MiB = 1024 * 1024


@dataclass(frozen=True)
class ParseLimits:
    """Per-parse limits; env RULESCORPUS_PARSE_MEMORY_MB / _CPU_S / _WALL_S override."""

    memory_bytes: int = 1024 * MiB
    cpu_seconds: int = 600
    wall_seconds: int = 900

    @classmethod
    def from_env(cls) -> ParseLimits:
        def read(name: str, default: int) -> int:
            value = os.environ.get(name)
            return int(value) if value and value.isdigit() else default

        base = cls()
        return cls(
            memory_bytes=read("RULESCORPUS_PARSE_MEMORY_MB", base.memory_bytes // MiB) * MiB,
            cpu_seconds=read("RULESCORPUS_PARSE_CPU_S", base.cpu_seconds),
            wall_seconds=read("RULESCORPUS_PARSE_WALL_S", base.wall_seconds),
        )


_context: Any = None


def _fork_server() -> Any:
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        # The server imports the parsers once; each child is a cheap fork of it.
        _context.set_forkserver_preload(["pipeline.jobs.families", "pipeline.jobs.sandbox_server"])
    return _context


def _child(conn: Connection, data: bytes, request: ParseRequest, limits: ParseLimits) -> None:
    die_with_parent()
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 5))
    answer: tuple[str, Any]
    try:
        doc = parse_bytes(data, request)
        answer = ("ok", doc.model_dump_json().encode("utf-8"))
    except MemoryError:
        answer = ("limit", "memory")
    except RulesCorpusError as exc:
        answer = ("error", exc)
    except Exception:  # a parser bug: report it as this source's failure, with the trace
        answer = ("crash", traceback.format_exc(limit=8))
    try:
        conn.send(answer)
    except OSError:
        pass  # the run that asked was killed: nobody is left to tell, or to print to
    finally:
        conn.close()


def _limit_error(request: ParseRequest, limit: str, limits: ParseLimits) -> ParseError:
    hints = {
        "memory": (
            f"the address-space limit of {limits.memory_bytes // MiB} MiB",
            "RULESCORPUS_PARSE_MEMORY_MB",
        ),
        "cpu": (f"the CPU-time limit of {limits.cpu_seconds} s", "RULESCORPUS_PARSE_CPU_S"),
        "wall": (f"the wall-time limit of {limits.wall_seconds} s", "RULESCORPUS_PARSE_WALL_S"),
    }
    what, variable = hints[limit]
    return ParseError(
        request.what,
        f"parsing stopped at {what}; the file may be hostile or damaged. If it is genuine, "
        f"raise the limit with {variable}",
    )


def parse_isolated(
    data: bytes, request: ParseRequest, limits: ParseLimits | None = None
) -> Document:
    """`parse_bytes` in a limited child process; the same Document, or a ParseError."""
    limits = limits or ParseLimits.from_env()
    context = _fork_server()
    receiver, sender = context.Pipe(duplex=False)
    # Not a daemon: the PDF engine may start its own workers; die_with_parent reaps it.
    process = context.Process(target=_child, args=(sender, data, request, limits))
    process.start()
    sender.close()
    try:
        if not receiver.poll(limits.wall_seconds):
            process.kill()
            raise _limit_error(request, "wall", limits)
        try:
            kind, payload = receiver.recv()
        except (EOFError, OSError):
            process.join(5)
            raise _died(request, process.exitcode, limits) from None
    finally:
        receiver.close()
        if process.is_alive():
            process.join(5)
        if process.is_alive():
            process.kill()
        process.join()
    if kind == "ok":
        return Document.model_validate_json(payload)
    if kind == "limit":
        raise _limit_error(request, str(payload), limits)
    if kind == "error":
        assert isinstance(payload, RulesCorpusError)
        raise payload
    raise ParseError(
        request.what, f"the parser failed unexpectedly (a bug; please report it):\n{payload}"
    )


def _died(request: ParseRequest, exitcode: int | None, limits: ParseLimits) -> ParseError:
    if exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return _limit_error(request, "cpu", limits)
    if exitcode == -signal.SIGSEGV or exitcode is None or exitcode < 0:
        # An allocation past RLIMIT_AS inside a C library often ends as a crash, not a
        # MemoryError: name the memory limit, which is what such files hit.
        return _limit_error(request, "memory", limits)
    return ParseError(request.what, f"the parser process exited with status {exitcode}")
