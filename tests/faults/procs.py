"""Run the real command line in its own session and watch it: exit code, output, time,
peak memory of every process it starts, whether it hung, whether it left processes.

Each run gets a new session (`start_new_session`), so the run, its parse fork
server and every parse child share one session id: that is how their memory is
measured (VmHWM, the kernel's high-water mark of each process's resident set,
polled from /proc) and how a process that outlived its run is found.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CLI = Path(__file__).parent / "cli_under_test.py"
FROZEN_CLOCK = "2026-01-01T00:00:00Z"
TRACEBACK = "Traceback (most recent call last)"
MiB = 1024 * 1024


@dataclass
class Run:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    hung: bool = False
    peak_rss: int = 0  # bytes, the largest single process of the run
    orphans: list[int] = field(default_factory=list)  # processes alive after the run ended

    @property
    def output(self) -> str:
        return self.stdout + "\n" + self.stderr

    @property
    def traceback(self) -> bool:
        return TRACEBACK in self.output


def base_env(extra: Mapping[str, str] | None = None, *, fast_fetch: bool = True) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("RULESCORPUS_CRASH_AT", None)
    env.update(
        {
            # Wide enough that rich never wraps a URL or a path inside a message.
            "COLUMNS": "400",
            "NO_COLOR": "1",
            "FAULTS_FROZEN_CLOCK": FROZEN_CLOCK,
            "FAULTS_FAST_FETCH": "1" if fast_fetch else "0",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    env.update(extra or {})
    return env


def _live_where(field: int, value: int) -> list[int]:
    """Live (not zombie) processes whose /proc stat field `field` (counted after the
    name: 0 the state, 1 the parent, 3 the session) is `value`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[field]) == value:
            found.append(int(entry))
    return found


def session_processes(sid: int) -> list[int]:
    """Live (not zombie) processes of session `sid`."""
    return _live_where(3, sid)


def child_processes(pid: int) -> list[int]:
    """Live (not zombie) children of `pid`."""
    return _live_where(1, pid)


def _hwm(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class _MemoryWatch(threading.Thread):
    """Polls the high-water mark of every process of a session until told to stop."""

    def __init__(self, sid: int, interval: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.sid = sid
        self.interval = interval
        self.peak = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            for pid in session_processes(self.sid):
                self.peak = max(self.peak, _hwm(pid))
            self.done.wait(self.interval)


def start(
    args: Sequence[str],
    env: Mapping[str, str] | None = None,
    fsize: int | None = None,
    keep_stdout: bool = True,
) -> subprocess.Popen[str]:
    environment = dict(env or base_env())
    if fsize is not None:
        # cli_under_test sets RLIMIT_FSIZE on itself (a full disk, as the program sees it).
        environment["FAULTS_FSIZE"] = str(fsize)
    return subprocess.Popen(
        [sys.executable, str(CLI), *args],
        env=environment,
        stdout=subprocess.PIPE if keep_stdout else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def reap(proc: subprocess.Popen[str], timeout: float, watch: _MemoryWatch | None = None) -> Run:
    """Wait for a started run (killing its whole session after `timeout`)."""
    began = time.monotonic()
    hung = False
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        hung = True
        kill_session(proc.pid)
        stdout, stderr = proc.communicate()
    seconds = time.monotonic() - began
    if watch is not None:
        watch.done.set()
        watch.join()
    orphans = wait_session_empty(proc.pid)
    return Run(
        list(map(str, proc.args))[2:],  # type: ignore[arg-type]
        proc.returncode,
        stdout or "",
        stderr,
        seconds,
        hung,
        watch.peak if watch is not None else 0,
        orphans,
    )


def run(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 120.0,
    fsize: int | None = None,
    measure: bool = False,
    keep_stdout: bool = True,
) -> Run:
    """Run the command line to its end (or `timeout`, then it counts as a hang)."""
    began = time.monotonic()
    proc = start(args, env, fsize, keep_stdout)
    watch = None
    if measure:
        watch = _MemoryWatch(proc.pid)
        watch.start()
    result = reap(proc, timeout, watch)
    result.seconds = time.monotonic() - began
    return result


def kill_session(sid: int) -> None:
    """SIGKILL every process of a session this suite started (by its id)."""
    for pid in session_processes(sid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def wait_session_empty(sid: int, grace: float = 3.0) -> list[int]:
    """Give a run's processes `grace` seconds to die with it; kill and return the rest."""
    deadline = time.monotonic() + grace
    while True:
        alive = session_processes(sid)
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if alive:
        kill_session(sid)
    return alive
