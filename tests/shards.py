"""`make test`: the suite as two pytest processes at once, one per core.

pytest-xdist would do this, but its workers run threads (execnet), and a process with
threads must not fork: the page-worker pool of the PDF engine and the parse sandbox
fall back to spawning there, so their fork paths would go untested. Two plain pytest
processes have no threads of their own, and each runs every test it is given exactly as
`pytest` alone would.

Test files are dealt whole (module and session fixtures stay within one process) to
the process with the least work so far, heaviest first, by the seconds each file took
when measured (WEIGHTS: seconds per file from `python -m tests.shards --durations=0` at
1ff9fc3 on this machine; a file not listed counts as DEFAULT). Files that use the
real documents' session fixtures go to the same process, so the import and the parse
cache behind them are built once (SHARING). A weight that is out of date costs only
balance, never a test. Output is streamed line by line, each line prefixed with its
process's number; the exit code is the first failing process's.

    python -m tests.shards [--jobs N] [PYTEST ARGS...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
from pathlib import Path

TESTS = Path(__file__).parent
DEFAULT = 1.0
WEIGHTS: dict[str, float] = {
    "test_pdf_engines.py": 105,
    "test_robustness.py": 43,
    "test_fault_findings.py": 42,
    "test_diff_properties.py": 23,
    "test_export_sqlite.py": 23,
    "test_cite_check.py": 23,
    "test_fault_smoke.py": 20,
    "test_datasette_chromium.py": 18,
    "test_diff_agreement.py": 16,
    "test_nsg_yaml.py": 14,
    "test_provenance_spans.py": 13,
    "test_swu.py": 12,
    "test_update.py": 12,
    "test_contract.py": 10,
    "test_fetch.py": 10,
    "test_nsg_html.py": 10,
    "test_read_side.py": 15,
    "test_show_quick.py": 8,
    "test_id_index.py": 7,
    "test_import.py": 7,
    "test_lint.py": 6,
    "test_sandbox_fork.py": 6,
    "test_policy_pdfs.py": 6,
    "test_corpus_api.py": 6,
    "test_mtg_pdf.py": 6,
    "test_netrunner.py": 5,
    "test_nsg_keyed.py": 5,
    "test_diff_regressions.py": 3,
    "test_renumbering.py": 3,
    "test_canonical_json.py": 3,
    "test_mtg.py": 3,
    "test_show_provenance.py": 3,
    "test_errata.py": 2,
    "test_parse_imports.py": 2,
    "test_fab_html.py": 2,
    "test_parse_cache.py": 2,
    "test_mirror.py": 2,
    "test_report_html_chromium.py": 2,
    "test_report.py": 2,
}
# Session fixtures over the real documents (tests/conftest.py): an import of all of
# ../shared/sources, and each real file parsed once, both through one parse cache.
SHARING = ("imported_corpus", "parse_real", "small_corpus", "parse_cache_dir")


def _uses(path: Path) -> str | None:
    text = path.read_text(encoding="utf-8")
    return "real documents" if any(name in text for name in SHARING) else None


def plan(files: list[Path], jobs: int) -> list[list[Path]]:
    """Files dealt to `jobs` processes: whole groups and files, heaviest first, each to
    the process with the least work so far (longest-processing-time-first)."""
    units: dict[str, list[Path]] = {}
    for path in files:
        units.setdefault(_uses(path) or path.name, []).append(path)

    def weight(unit: list[Path]) -> float:
        return sum(WEIGHTS.get(p.name, DEFAULT) for p in unit)

    shards: list[list[Path]] = [[] for _ in range(jobs)]
    loads = [0.0] * jobs
    for unit in sorted(units.values(), key=lambda u: (-weight(u), u[0].name)):
        least = loads.index(min(loads))
        shards[least].extend(unit)
        loads[least] += weight(unit)
    return [sorted(shard) for shard in shards if shard]


def _stream(number: int, process: subprocess.Popen[str], lock: threading.Lock) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        with lock:
            sys.stdout.write(f"[{number}] {line}")
            sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args, pytest_args = parser.parse_known_args(argv)
    files = sorted(TESTS.glob("test_*.py"))
    shards = plan(files, max(1, args.jobs))
    lock = threading.Lock()
    processes, readers = [], []
    for number, shard in enumerate(shards, 1):
        command = [sys.executable, "-m", "pytest", "-q", *pytest_args, *map(str, shard)]
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        )
        reader = threading.Thread(target=_stream, args=(number, process, lock), daemon=True)
        reader.start()
        processes.append(process)
        readers.append(reader)
    codes = [process.wait() for process in processes]
    for reader in readers:
        reader.join()
    for number, (shard, code) in enumerate(zip(shards, codes, strict=True), 1):
        names = ", ".join(p.stem.removeprefix("test_") for p in shard)
        print(f"[{number}] exit {code}: {len(shard)} files ({names})")
    return next((code for code in codes if code != 0), 0)


if __name__ == "__main__":
    sys.exit(main())
