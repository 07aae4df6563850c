"""How `make bench` measures a command: its wall time and the memory of all its processes.

A command's processes include some it does not wait for: `rulescorpus parse`
forks its parse from a fork server, whose children are reaped by the server
(which nobody waits for), so `ru_maxrss` of the command's children misses the
parse itself. A sampler therefore walks the command's process tree every
10 ms (`/proc/PID/task/*/children`) and keeps each process's own high-water
mark of resident memory (`VmHWM`, kept by the kernel), and the figures are:

- `largest`: the largest of those peaks;
- `total`: their sum, an upper bound on what the command held at once (forked
  workers share their parent's pages, and peaks need not coincide).

A process that lives less than one sampling interval may be missed, and growth
in a process's last 10 ms before it exits is not seen.

`measure_memory` gives the figure in between, in a run of its own (reading
proportional set sizes costs the kernel a page-table walk, a few milliseconds a
process, which would slow a timed run): the largest sum of the processes' PSS
(`/proc/PID/smaps_rollup`; shared pages split between their sharers) seen at
any sample, i.e. the physical memory the whole command held at its peak.

`Warm` is a process that has imported everything, asked for one cold parse or
extraction at a time; `Figures` keeps the runs of one step and gives medians.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SAMPLE_SECONDS = 0.01
KIB_PER_MIB = 1024


@dataclass(frozen=True)
class Measured:
    wall: float  # seconds
    largest: float  # MiB, the largest process's peak resident memory
    total: float  # MiB, the sum of every process's peak: an upper bound
    code: int
    stdout: str
    stderr: str


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(p) for p in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def _peak_kib(pid: int) -> int | None:
    """The process's VmHWM in KiB, or None once it is gone (or a zombie without one)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return 0


def _tree(root: int) -> list[int]:
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending += _children(pid)
    return found


class TreeSampler(threading.Thread):
    """Samples a process tree every SAMPLE_SECONDS between `start()` and `stop()`: each
    process's VmHWM, or (with `pss`) the tree's summed PSS."""

    def __init__(self, root: int, pss: bool = False) -> None:
        super().__init__(daemon=True)
        self.root, self.pss = root, pss
        self.peaks: dict[int, int] = {}  # KiB
        self.pss_peak = 0  # KiB
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            self.sample()
            self._done.wait(SAMPLE_SECONDS)

    def stop(self) -> None:
        self._done.set()
        self.join()

    def sample(self) -> None:
        pids = _tree(self.root)
        if self.pss:
            self.pss_peak = max(self.pss_peak, sum(_pss_kib(pid) for pid in pids))
            return
        for pid in pids:
            peak = _peak_kib(pid)
            if peak is not None:
                self.peaks[pid] = max(peak, self.peaks.get(pid, 0))

    @property
    def largest(self) -> float:
        """MiB: the largest process's peak."""
        return max(self.peaks.values(), default=0) / KIB_PER_MIB

    @property
    def total(self) -> float:
        """MiB: the sum of every process's peak (an upper bound)."""
        return sum(self.peaks.values()) / KIB_PER_MIB


def measure_once(command: list[str], ok: tuple[int, ...] = (0,)) -> Measured:
    """Run `command` once (output captured) and measure it; a code not in `ok` stops the bench.

    Peaks come from the sampler alone: the `ru_maxrss` that waiting for the
    command reports would include the bench's own memory, which the command's
    process held between fork and exec.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    sampler = TreeSampler(proc.pid)  # Popen returns after the exec: no sample sees the bench
    sampler.start()
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - start
    sampler.stop()
    if proc.returncode not in ok:
        raise SystemExit(
            f"benchmark step failed ({proc.returncode}): {' '.join(command)}\n{stderr[-2000:]}"
        )
    return Measured(
        wall=wall,
        largest=sampler.largest,
        total=sampler.total,
        code=proc.returncode,
        stdout=stdout,
        stderr=stderr,
    )


def measure_memory(command: list[str], ok: tuple[int, ...] = (0,)) -> float:
    """MiB: the largest summed PSS of the command's processes, in an untimed run."""
    proc = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    sampler = TreeSampler(proc.pid, pss=True)
    sampler.start()
    code = proc.wait()
    sampler.stop()
    if code not in ok:
        raise SystemExit(f"benchmark step failed ({code}): {' '.join(command)}")
    return sampler.pss_peak / KIB_PER_MIB


# A warm process: imports done once, then one cold parse (or extraction) per request line.
WARM = """
import json, sys, time
from pipeline.extract import pdf as extract
from pipeline.extract.pdfium import load_pdf_pages_pdfium
from pipeline.runner.families import family_of, parse_bytes, parse_extracted
from pipeline.runner.request import ParseRequest
recent = getattr(extract, "_RECENT", None)
if recent is None:
    sys.exit("pipeline.extract.pdf._RECENT moved: the bench cannot empty the extraction cache")
data = open(sys.argv[1], "rb").read()
request = ParseRequest(family=sys.argv[2], document=sys.argv[3], rendition="pdf", what=sys.argv[1])
extracted = family_of(sys.argv[2]).extract(data, request)  # for "lines"
print("ready", flush=True)
for line in sys.stdin:
    recent.clear()  # a cold extraction every time
    start = time.perf_counter()
    if line.strip() == "extract":
        lines = len(extract.extract_pdf_lines(data, what=sys.argv[1]).lines)
        answer = {"lines": lines}
    elif line.strip() == "floor":  # PDFium's own part of the extraction
        answer = {"pages": load_pdf_pages_pdfium(data, what=sys.argv[1])}
    elif line.strip() == "lines":  # the parse after the extraction, lines given
        answer = {"records": len(parse_extracted(extracted, request).records)}
    else:
        doc = parse_bytes(data, request)
        answer = {"records": len(doc.records), "warnings": len(doc.warnings)}
    answer["wall"] = time.perf_counter() - start
    print(json.dumps(answer), flush=True)
"""


@dataclass
class Figures:
    """Several runs of one step: medians of wall time and of the largest process's peak."""

    walls: list[float] = field(default_factory=list)
    peaks: list[float] = field(default_factory=list)
    pss: float | None = None  # MiB, from an untimed run (measure.measure_memory)
    note: str = ""

    def add(self, wall: float, peak: float) -> None:
        self.walls.append(wall)
        self.peaks.append(peak)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def peak(self) -> float:
        return statistics.median(self.peaks)

    def memory(self) -> str:
        total = f", {self.pss:.0f} MiB in all" if self.pss is not None else ""
        return f"{self.peak:.0f} MiB largest process{total}"


class Warm:
    """The warm process of WARM, started once; `run` asks it for one cold parse or extraction."""

    def __init__(self, path: Path, family: str, document: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WARM, str(path), family, document],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        if self.stdout.readline().strip() != "ready":
            raise SystemExit("the bench's warm process did not start")

    def run(self, what: str, pss: bool = False) -> tuple[dict[str, float], TreeSampler]:
        sampler = TreeSampler(self.proc.pid, pss=pss)
        sampler.start()
        self.stdin.write(what + "\n")
        self.stdin.flush()
        line = self.stdout.readline()
        sampler.stop()
        if not line:
            raise SystemExit(f"the bench's warm process died during {what}")
        answer: dict[str, float] = json.loads(line)
        return answer, sampler

    def close(self) -> None:
        self.stdin.close()
        self.proc.wait()
