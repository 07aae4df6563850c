"""`make bench`'s own arguments (its figures are measured by running it, never by tests)."""

from __future__ import annotations

import subprocess
import sys

from helpers import ROOT


def test_regression_bench_with_no_runs_says_so_instead_of_a_traceback() -> None:
    # `--runs 0` took the median of no runs: a StatisticsError traceback after the start.
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--runs", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--runs 0: a median needs at least one run" in done.stderr
    assert "Traceback" not in done.stderr
