"""One harness under atheris: `python -m tests.faults.fuzz.run_one NAME SECONDS WORK`.

Run in its own process by `python -m tests.faults.fuzz` (which restarts it when libFuzzer
stops at a hang or a crash). The target is wrapped so that a project error is an
ordinary outcome and any other exception is recorded as a finding (once per
signature: exception type and the innermost pipeline frame) without stopping the
fuzzer. The address space is limited like the parse sandbox's child: the same
headroom above what the process holds once everything is imported
(FUZZ_HEADROOM, computed by the driver from ParseLimits), so an input that needs
more than a real parse may use ends in MemoryError, a finding.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import sys
import time
import traceback
from pathlib import Path


def vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


class Recorder:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.seen: set[str] = set()
        self.execs = 0
        self.last_flush = 0.0
        self.log = folder / "findings.jsonl"
        for line in self.log.read_text().splitlines() if self.log.exists() else []:
            self.seen.add(json.loads(line)["signature"])

    def tick(self) -> None:
        self.execs += 1
        now = time.monotonic()
        if now - self.last_flush > 1.0:
            self.flush()
            self.last_flush = now

    def flush(self) -> None:
        counts = self.folder / f"execs-{os.getpid()}"
        counts.write_text(str(self.execs))

    def finding(self, kind: str, exc: BaseException, data: bytes) -> None:
        frames = traceback.extract_tb(exc.__traceback__)
        ours = [f for f in frames if "/pipeline/" in f.filename] or frames
        where = f"{Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else "?"
        signature = f"{kind}: {type(exc).__name__} at {where}"
        if signature in self.seen:
            return
        self.seen.add(signature)
        digest = hashlib.sha256(data).hexdigest()[:16]
        (self.folder / f"input-{digest}").write_bytes(data)
        record = {
            "signature": signature,
            "kind": kind,
            "message": str(exc)[:300],
            "input": f"input-{digest}",
            "trace": "".join(traceback.format_exception(exc, limit=-6))[-2000:],
        }
        with self.log.open("a") as handle:
            handle.write(json.dumps(record) + "\n")
        print(f"FINDING {signature}: {record['message']}", file=sys.stderr, flush=True)


def main() -> None:
    name, seconds, work = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    import atheris  # type: ignore[import-untyped]

    with atheris.instrument_imports(include=["pipeline"]):
        from pipeline.errors import RulesCorpusError

        from .harnesses import HARNESSES, Escaped

    harness = HARNESSES[name]
    corpus = work / "corpus"
    findings = work / "findings"
    corpus.mkdir(parents=True, exist_ok=True)
    for number, seed in enumerate(harness.seeds(work)):
        (corpus / f"seed-{number}").write_bytes(seed[: harness.max_len])
    recorder = Recorder(findings)

    def one_input(data: bytes) -> None:
        recorder.tick()
        try:
            harness.target(data)
        except RulesCorpusError:
            return  # the project's own error: bad input, reported as it should be
        except Escaped as exc:
            recorder.finding("escape", exc, data)
        except MemoryError as exc:
            recorder.finding("memory", exc, data)
        except RecursionError as exc:
            recorder.finding("recursion", exc, data)
        except Exception as exc:
            recorder.finding("exception", exc, data)

    headroom = int(os.environ.get("FUZZ_HEADROOM", str(1024 * 1024 * 1024)))
    limit = vm_size() + headroom
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    args = [
        sys.argv[0],
        str(corpus),
        f"-max_total_time={seconds}",
        f"-timeout={harness.timeout}",
        # A unit is slow (a finding) only past the harness's own timeout: libFuzzer's
        # default, 10 s, flags pdfplumber reading a 19-page PDF under instrumentation.
        f"-report_slow_units={harness.timeout}",
        f"-max_len={harness.max_len}",
        "-rss_limit_mb=0",  # memory is bounded by RLIMIT_AS, as in the parse sandbox
        "-print_final_stats=1",
        f"-artifact_prefix={findings}/",
    ]
    atheris.Setup(args, one_input)
    try:
        atheris.Fuzz()
    finally:
        recorder.flush()


if __name__ == "__main__":
    main()
