"""The parse sandbox's two ways to start its child, each seen from outside, in /proc.

A caller with no thread but its own and a small address space forks the limited
child itself (no fork server to start); any other caller goes through the fork
server. Either way the child has the same limits, dies with the run, and reports a
limit it hits as the same ParseError. Each case runs a small caller in its own
session (so it is single-threaded, whatever pytest runs) and looks at its processes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest

from tests.faults import materials
from tests.faults.procs import child_processes, session_processes
from tests.support.helpers import ROOT, SHARED

MTG_PDF = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.pdf"
MTG_TXT = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
MiB = 1024 * 1024
T = TypeVar("T")

# argv: file, rendition, engine, "thread" to run with a second thread, and MiB of
# ballast to hold (a caller's size). Prints the way its child starts, then the parse's
# outcome, and exits with the ParseError's code. With a sixth argument, "file", it
# then parses again as the parse command does (a partial for the child to reply with).
CALLER = """
import hashlib, sys, threading
from functools import partial
from pipeline.errors import RulesCorpusError
from pipeline.runner.local_file import as_file
from pipeline.runner.request import ParseRequest
from pipeline.runner.limits import ParseLimits
from pipeline.runner.sandbox import parse_isolated_as, parse_isolated_json, start_method
from pipeline.models.records import SourceRef
if sys.argv[4] == "thread":
    threading.Thread(target=threading.Event().wait, daemon=True).start()
ballast = bytearray(int(sys.argv[5]) * 1024 * 1024)
limits = ParseLimits.from_env()
print(start_method(limits), flush=True)
request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition=sys.argv[2],
                       what=sys.argv[1], options={"engine": sys.argv[3]})
try:
    payload = parse_isolated_json(open(sys.argv[1], "rb").read(), request, limits)
except RulesCorpusError as exc:
    print(f"error {exc.exit_code}: {exc}", flush=True)
    sys.exit(exc.exit_code)
print("ok", hashlib.sha256(payload).hexdigest(), flush=True)
if sys.argv[6:] == ["file"]:
    ref = SourceRef(url=None, sha256="0" * 64, bytes=1, rendition=sys.argv[2])
    parsed = parse_isolated_as(open(sys.argv[1], "rb").read(), request, partial(as_file, ref))
    print("file", hashlib.sha256(parsed.json).hexdigest(), len(parsed.warnings), flush=True)
"""


def environment(**limits: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULESCORPUS_PARSE_")}
    env.update({f"RULESCORPUS_PARSE_{name.upper()}": value for name, value in limits.items()})
    return env


def run_caller(
    path: Path,
    rendition: str,
    threads: str = "none",
    ballast_mb: int = 0,
    *also: str,
    **limits: str,
) -> list[str]:
    args = [str(path), rendition, "pdfium", threads, str(ballast_mb), *also]
    done = subprocess.run(
        [sys.executable, "-c", CALLER, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment(**limits),
        timeout=300,
    )
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert lines, done.stderr
    return [*lines, f"exit {done.returncode}"]


@contextmanager
def started_caller(threads: str, **limits: str) -> Iterator[subprocess.Popen[str]]:
    """A caller parsing the MTG PDF with the slow engine (so its child lives for a while)."""
    args = [sys.executable, "-c", CALLER, str(MTG_PDF), "pdf", "pdfplumber", threads, "0"]
    caller = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=environment(**limits),
        start_new_session=True,
    )
    try:
        yield caller
    finally:
        if caller.poll() is None:
            os.killpg(caller.pid, signal.SIGKILL)
        caller.communicate()


def limited(pid: int) -> bool:
    """Whether the process has an address-space limit (a parse child, not a fork server)."""
    try:
        text = Path(f"/proc/{pid}/limits").read_text()
    except OSError:
        return False
    line = next(row for row in text.splitlines() if row.startswith("Max address space"))
    return line.split()[3] != "unlimited"


def wait_for(what: str, probe: Callable[[], T], seconds: float = 60.0) -> T:
    """probe()'s first true answer; a timeout only so that a broken case cannot hang."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError(f"gave up waiting for {what}")


def parse_child(caller: subprocess.Popen[str]) -> tuple[int, int]:
    """(the parse child's pid, its parent's pid): the caller's child, or its grandchild
    through the fork server."""

    def find() -> tuple[int, int] | None:
        for pid in child_processes(caller.pid):
            if limited(pid):
                return pid, caller.pid
            for grandchild in child_processes(pid):
                if limited(grandchild):
                    return grandchild, pid
        return None

    found = wait_for("the parse child", find)
    assert found is not None
    return found


# CPU seconds a parse child spends only once it parses: more than its start and its
# imports, far less than the slow engine's parse of the MTG PDF.
PARSING_CPU_S = 2.0


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def limits_of(pid: int) -> dict[str, str]:
    rows = Path(f"/proc/{pid}/limits").read_text().splitlines()
    picked = {}
    for row in rows:
        for name in ("Max cpu time", "Max address space"):
            if row.startswith(name):
                picked[name] = row[len(name) :].split()[0]
    return picked


@pytest.mark.parametrize(("threads", "way"), [("none", "fork"), ("thread", "forkserver")])
def test_the_child_starts_the_way_the_caller_allows_with_the_same_limits(
    threads: str, way: str
) -> None:
    with started_caller(threads, memory_mb="900", cpu_s="77") as caller:
        assert caller.stdout is not None
        assert caller.stdout.readline().strip() == way
        child, parent = parse_child(caller)
        # A plain fork is the caller's own child; the fork server's is the server's.
        assert (parent == caller.pid) == (way == "fork")
        assert limits_of(child) == {"Max cpu time": "77", "Max address space": str(900 * MiB)}
        # It has spent CPU time past any start: it has its work and is parsing (a child
        # still reading its work from a killed run ends at once, whichever way it started).
        wait_for("the parse child to be parsing", lambda: cpu_seconds(child) >= PARSING_CPU_S)
        # Killed, the run leaves no process behind: the child dies too, not when its
        # parse would end (tens of seconds with this engine): the fork
        # server's child used to parse on under a server that waited for it.
        os.kill(caller.pid, signal.SIGKILL)
        gone = wait_for("the run's processes to end", lambda: not session_processes(caller.pid), 8)
        assert gone


def test_a_directly_forked_child_past_its_cpu_time_is_the_cpu_limit_error() -> None:
    with started_caller("none", cpu_s="50") as caller:
        assert caller.stdout is not None
        assert caller.stdout.readline().strip() == "fork"
        child, _ = parse_child(caller)
        os.kill(child, signal.SIGXCPU)  # what the kernel sends at RLIMIT_CPU's soft limit
        out, err = caller.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert caller.returncode == 40
    assert "the CPU-time limit of 50 s" in out and "RULESCORPUS_PARSE_CPU_S" in out, out
    assert not session_processes(caller.pid)


def test_a_directly_forked_child_past_its_wall_time_is_killed_and_named() -> None:
    # A wall limit of 0 s: no child answers before the first look.
    lines = run_caller(MTG_TXT, "txt", wall_s="0")
    assert lines[0] == "fork"
    assert "the wall-time limit of 0 s" in lines[1] and "RULESCORPUS_PARSE_WALL_S" in lines[1]
    assert lines[-1] == "exit 40"


@pytest.mark.slow  # waits out a time bound
def test_a_pdf_bomb_stops_at_the_memory_limit_in_a_directly_forked_child(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(materials.pdf_bomb(1 << 30))
    lines = run_caller(bomb, "pdf", memory_mb="512")
    assert lines[0] == "fork"
    assert "the address-space limit of 512 MiB" in lines[1], lines
    assert "RULESCORPUS_PARSE_MEMORY_MB" in lines[1] and str(bomb) in lines[1]
    assert lines[-1] == "exit 40"


@pytest.mark.slow  # reads the real documents
def test_both_ways_give_the_same_document_json() -> None:
    # Also as the parse command asks: the child replying with a partial, which the fork
    # server's child gets pickled and a forked one as it is.
    forked = run_caller(MTG_TXT, "txt", "none", 0, "file")
    served = run_caller(MTG_TXT, "txt", "thread", 0, "file")
    assert forked[0] == "fork" and served[0] == "forkserver"
    assert forked[1].startswith("ok ") and forked[2].startswith("file ")
    assert forked[1:] == served[1:]


def test_a_caller_too_large_for_its_limit_uses_the_fork_server() -> None:
    # A caller holding 64 MiB is over a quarter of a 200 MiB limit, whatever it imported:
    # a fork would leave its child too little.
    lines = run_caller(MTG_TXT, "txt", ballast_mb=64, memory_mb="200")
    assert lines[0] == "forkserver" and lines[1].startswith("ok ")


def test_ctrl_c_on_a_parse_prints_no_traceback_and_leaves_no_process() -> None:
    command = [sys.executable, "-m", "pipeline", "parse", str(MTG_PDF), "--family", "mtg-cr"]
    run = subprocess.Popen(
        [*command, "--engine", "pdfplumber"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=environment(),
        start_new_session=True,
    )
    try:
        parse_child(run)
        os.killpg(run.pid, signal.SIGINT)  # what a terminal sends the whole group
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert run.returncode != 0
    assert wait_for("the run's processes to end", lambda: not session_processes(run.pid))
