"""`make test`: the suite as two pytest processes at once, one per core.

pytest-xdist would do this, but its workers run threads (execnet), and a process with
threads must not fork: the page-worker pool of the PDF engine and the parse sandbox
fall back to spawning there, so their fork paths would go untested. Two plain pytest
processes have no threads of their own, and each runs every test it is given exactly as
`pytest` alone would.

Test files are dealt whole (module fixtures stay within one process) to the process
with the least work so far, heaviest first, by the seconds each file took when measured
(WEIGHTS: seconds per file, summed by `--weigh` from a run with RULESCORPUS_TEST_TIMINGS
set; a file not listed counts as DEFAULT). A weight that is out of date costs only balance, never a
test. The real documents' session fixtures (an import of ../shared/sources, the parse
cache) are built once for both processes in a folder made for the run
(tests/support/built_once.py); the first process runs the files that use them first, the
others run them last, so the second process rarely waits for the build. Output is
streamed line by line, each line prefixed with its process's number; the exit code is
the first failing process's.

    python -m tests.support.shards [--jobs N] [PYTEST ARGS...]
    python -m tests.support.shards --weigh TIMINGS
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from tests.support.built_once import BUILDS

TESTS = Path(__file__).parents[1]
DEFAULT = 1.0
WEIGHTS: dict[str, float] = {
    "test_pdf_engines.py": 65,
    "test_store_regressions.py": 47,
    "test_import.py": 41,
    "test_site_build.py": 32,
    "test_fault_smoke.py": 31,
    "test_renumbering.py": 25,
    "test_diff_properties.py": 23,
    "test_diff_agreement.py": 21,
    "test_numbered_registry.py": 19,
    "test_jobs_regressions.py": 17,
    "test_provenance_spans.py": 17,
    "test_update.py": 17,
    "test_scheme_inference.py": 14,
    "test_site_chromium.py": 14,
    "test_swu.py": 13,
    "test_read_side.py": 12,
    "test_export_sqlite_safety.py": 11,
    "test_diff_regressions.py": 11,
    "test_sandbox_fork.py": 11,
    "test_export_sqlite.py": 10,
    "test_show_quick.py": 10,
    "test_cite_check_safety.py": 10,
    "test_runner_regressions.py": 10,
    "test_fetch.py": 10,
    "test_nsg_yaml.py": 9,
    "test_corpus_api.py": 8,
    "test_version_order.py": 6,
    "test_policy_pdfs.py": 6,
    "test_datasette_chromium.py": 5,
    "test_netrunner.py": 5,
    "test_nsg_html.py": 5,
    "test_mtg_pdf.py": 5,
    "test_nsg_keyed.py": 5,
    "test_scheme_examples.py": 5,
    "test_cite_check.py": 4,
    "test_lint.py": 4,
    "test_diff_containment.py": 4,
    "test_publisher_notes.py": 4,
    "test_cli_arguments.py": 3,
    "test_report.py": 3,
    "test_parse_imports.py": 3,
    "test_diff.py": 3,
    "test_export_streamed.py": 3,
    "test_docs.py": 3,
    "test_id_index.py": 3,
    "test_show_options.py": 3,
    "test_canonical_json.py": 2,
    "test_shards.py": 2,
    "test_report_html_chromium.py": 2,
    "test_parse_command.py": 2,
    "test_mtg.py": 2,
    "test_numbered_bad_input.py": 2,
    "test_swu_releases.py": 2,
    "test_layout_imports.py": 2,
    "test_parse_cache.py": 2,
    "test_fab_html.py": 2,
    "test_site_sources.py": 2,
    "test_update_fab.py": 2,
    "test_attestations.py": 2,
    "test_bench.py": 1,
    "test_mirror.py": 1,
    "test_internal_error.py": 1,
    "test_cli.py": 1,
    "test_contract.py": 1,
    "test_pdf_extract.py": 1,
    "test_show_provenance.py": 1,
}
# Session fixtures over the real documents (tests/conftest.py): an import of all of
# ../shared/sources, and each real file parsed once, both through one parse cache.
SHARING = ("imported_corpus", "parse_real", "small_corpus", "parse_cache_dir", "mtg_pair_corpus")


def uses_shared_builds(path: Path) -> bool:
    """Whether the file asks for a session fixture built once for both processes."""
    text = path.read_text(encoding="utf-8")
    return any(name in text for name in SHARING)


def plan(files: list[Path], jobs: int) -> list[list[Path]]:
    """Files dealt to `jobs` processes, heaviest first, each to the process with the least
    work so far (longest-processing-time-first). The first process runs the files over
    the shared builds first, the others last."""
    shards: list[list[Path]] = [[] for _ in range(jobs)]
    loads = [0.0] * jobs
    for path in sorted(files, key=lambda p: (-WEIGHTS.get(p.name, DEFAULT), p.name)):
        least = loads.index(min(loads))
        shards[least].append(path)
        loads[least] += WEIGHTS.get(path.name, DEFAULT)
    ordered = []
    for number, shard in enumerate(shards):
        first = number == 0
        ordered.append(sorted(shard, key=lambda p: (uses_shared_builds(p) != first, str(p))))
    return [shard for shard in ordered if shard]


def format_weights(timings: str) -> str:
    """WEIGHTS as Python, from lines `test id<TAB>seconds` (one per test phase), heaviest
    first."""
    seconds: dict[str, float] = {}
    for line in timings.splitlines():
        test_id, _, value = line.partition("\t")
        name = Path(test_id.split("::")[0]).name
        seconds[name] = seconds.get(name, 0.0) + float(value)
    rows = sorted(seconds.items(), key=lambda item: (-item[1], item[0]))
    return "\n".join(f"    {name!r}: {value:.0f}," for name, value in rows if value >= 1)


def _stream(number: int, process: subprocess.Popen[str], lock: threading.Lock) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        with lock:
            sys.stdout.write(f"[{number}] {line}")
            sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument(
        "--weigh",
        type=Path,
        metavar="TIMINGS",
        help="print WEIGHTS summed from a RULESCORPUS_TEST_TIMINGS file, and run nothing",
    )
    args, pytest_args = parser.parse_known_args(argv)
    if args.weigh:
        print(format_weights(args.weigh.read_text(encoding="utf-8")))
        return 0
    files = sorted(TESTS.rglob("test_*.py"))
    shards = plan(files, max(1, args.jobs))
    with tempfile.TemporaryDirectory(prefix="rulescorpus-tests-") as builds:
        return _run(shards, pytest_args, {**os.environ, BUILDS: builds})


def _run(shards: list[list[Path]], pytest_args: list[str], env: dict[str, str]) -> int:
    lock = threading.Lock()
    processes, readers = [], []
    for number, shard in enumerate(shards, 1):
        command = [sys.executable, "-m", "pytest", "-q", *pytest_args, *map(str, shard)]
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1, env=env
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
