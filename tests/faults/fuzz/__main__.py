"""`python -m tests.faults.fuzz [HARNESS ...]`: every harness (or the named ones) for FUZZ_SECONDS
each (default 600), one process per harness, restarted when libFuzzer stops at a hang
or a crash until its time is spent. Prints executions and findings per harness; exits 1
when anything was found. Work (corpora, findings, inputs) goes to FUZZ_WORK (default a
folder under the system's temporary directory), never into the repository."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from tests.support.measured import rich_table_markdown, write_page

ROOT = Path(__file__).resolve().parents[3]
MAX_RESTARTS = 8
# A harness is (re)started only while this many seconds are left: less would be spent
# instrumenting and seeding, not fuzzing.
MIN_SECONDS = 5


@dataclass
class Result:
    name: str
    seconds: float = 0.0
    execs: int = 0
    coverage: str = ""
    restarts: int = 0
    findings: list[str] = field(default_factory=list)


def headroom() -> int:
    """The parse sandbox's memory budget above what its child holds when it starts (a
    fork of a server that has imported the parsers)."""
    code = (
        "import pipeline.runner.families\n"
        "from pipeline.runner.limits import ParseLimits\n"
        "size = next(int(l.split()[1]) * 1024 for l in open('/proc/self/status')"
        " if l.startswith('VmSize:'))\n"
        "print(ParseLimits.from_env().memory_bytes - size)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def run_harness(name: str, seconds: int, work: Path, room: int, console: Console) -> Result:
    result = Result(name)
    folder = work / name
    findings = folder / "findings"
    began = time.monotonic()
    env = {**os.environ, "FUZZ_HEADROOM": str(room), "PYTHONDONTWRITEBYTECODE": "1"}
    _set_aside_earlier(findings)
    while True:
        # Whole seconds spent, not the rest rounded down: FUZZ_SECONDS=5, the least
        # allowed, must still start its harness with 5 s.
        left = seconds - math.floor(time.monotonic() - began)
        if left < MIN_SECONDS or result.restarts > MAX_RESTARTS:
            break
        before = set(findings.glob("*-*")) if findings.exists() else set()
        proc = subprocess.run(
            [sys.executable, "-m", "tests.faults.fuzz.run_one", name, str(left), str(folder)],
            cwd=Path.cwd(),
            env=env,
            capture_output=True,
            text=True,
            timeout=left + 600,  # instrumenting and seeding take a while; a hang is killed
        )
        executed = re.findall(r"stat::number_of_executed_units:\s*(\d+)", proc.stderr)
        counted = [int(p.read_text() or 0) for p in findings.glob("execs-*")]
        result.execs += int(executed[-1]) if executed else sum(counted)
        for path in findings.glob("execs-*"):
            path.unlink()
        coverage = re.findall(r"cov: (\d+) ft: (\d+)", proc.stderr)
        if coverage:
            result.coverage = f"{coverage[-1][0]} edges, {coverage[-1][1]} features"
        stopped = [p for p in set(findings.glob("*-*")) - before if _artifact(p)]
        for artifact in stopped:
            kind = artifact.name.split("-", 1)[0]
            result.findings.append(f"{kind} (libFuzzer): input {artifact.name}")
        if proc.returncode != 0 and not stopped and "Done" not in proc.stderr[-3000:]:
            result.findings.append(f"the harness exited {proc.returncode}: {proc.stderr[-400:]}")
            break
        if proc.returncode == 0 or not stopped:
            break
        result.restarts += 1
    log = findings / "findings.jsonl"
    for line in log.read_text().splitlines() if log.exists() else []:
        record = json.loads(line)
        result.findings.append(f"{record['signature']}: {record['message'][:160]}")
    result.seconds = time.monotonic() - began
    console.print(
        f"{name}: {result.execs} executions in {result.seconds:.0f} s, "
        f"{len(result.findings)} findings",
        markup=False,
    )
    return result


def _set_aside_earlier(findings: Path) -> None:
    """An earlier run's findings are not this run's: their records move to earlier.jsonl
    and their inputs into the corpus, which libFuzzer runs first. One still failing is
    found, and reported, again; a fixed one is not."""
    log = findings / "findings.jsonl"
    if not log.exists():
        return
    corpus = findings.parent / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    text = log.read_text(encoding="utf-8")
    for line in text.splitlines():
        found = findings / str(json.loads(line).get("input", ""))
        if found.is_file() and found.parent == findings:
            (corpus / found.name).write_bytes(found.read_bytes())
    with (findings / "earlier.jsonl").open("a", encoding="utf-8") as earlier:
        earlier.write(text)
    log.unlink()


def _artifact(path: Path) -> bool:
    return path.name.split("-", 1)[0] in ("crash", "timeout", "oom", "leak", "slow")


def main(argv: list[str]) -> int:
    from .harnesses import HARNESSES

    console = Console(highlight=False, width=140)
    try:
        seconds = int(os.environ.get("FUZZ_SECONDS", "600"))
    except ValueError:
        seconds = -1
    if seconds < MIN_SECONDS:
        # Fewer seconds would start no harness, and a run that fuzzed nothing must not
        # pass for a clean one.
        console.print(
            f"FUZZ_SECONDS={os.environ.get('FUZZ_SECONDS')!r}: give a whole number of "
            f"seconds per harness, at least {MIN_SECONDS} (`make fuzz FUZZ_SECONDS=30`)",
            markup=False,
        )
        return 2
    work = Path(os.environ.get("FUZZ_WORK", Path(tempfile.gettempdir()) / "rulescorpus-fuzz"))
    names = argv or list(HARNESSES)
    unknown = [n for n in names if n not in HARNESSES]
    if unknown:
        console.print(f"unknown harness {unknown}; known: {', '.join(HARNESSES)}")
        return 2
    room = headroom()
    console.print(
        f"{len(names)} harnesses × {seconds} s; memory headroom {room // 2**20} MiB; "
        f"work in {work}",
        markup=False,
    )
    results = [run_harness(n, seconds, work, room, console) for n in names]
    table = Table(title=f"rulescorpus fuzzing ({seconds} s per harness)")
    for column in ("harness", "seconds", "executions", "exec/s", "coverage", "findings"):
        table.add_column(column)
    for r in results:
        table.add_row(
            r.name,
            f"{r.seconds:.0f}",
            str(r.execs),
            f"{r.execs / r.seconds:.0f}" if r.seconds else "-",
            r.coverage,
            str(len(r.findings)),
        )
    console.print(table)
    for r in results:
        for finding in r.findings:
            console.print(f"  - {r.name}: {finding}", markup=False)
    page = os.environ.get("FUZZ_PAGE")
    if page:
        findings = [f"- `{r.name}`: {f}" for r in results for f in r.findings]
        body = rich_table_markdown(table) + ("\n" + "\n".join(findings) if findings else "")
        command = f"FUZZ_SECONDS={seconds} python -m tests.faults.fuzz {' '.join(argv)}"
        write_page(Path(page), "Fuzzing", command.strip(), body)
    work.mkdir(parents=True, exist_ok=True)
    (work / "summary.json").write_text(
        json.dumps([r.__dict__ for r in results], indent=2, default=str)
    )
    return 1 if any(r.findings for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
