"""`make bench`'s own arguments and the archive it builds (its figures are measured by running
it, never by tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.helpers import ROOT, SHARED


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


def test_the_synthetic_archive_is_the_same_bytes_each_time_and_parses_cleanly(
    tmp_path: Path, parse_real: Any
) -> None:
    import hashlib
    import random

    from pipeline.runner.cache import ParseCache
    from pipeline.runner.limits import ParseLimits
    from pipeline.runner.request import ParseRequest
    from tests.bench.archive import BASE, build_archive, edit_once

    first = build_archive(SHARED, tmp_path / "a", 6)
    again = build_archive(SHARED, tmp_path / "b", 6)
    assert [e["sha256"] for e in first] == [e["sha256"] for e in again]
    assert len({e["sha256"] for e in first}) == 6  # each version an edit of the one before
    assert [e["date"] for e in first][:2] == ["2026-01-07", "2026-01-14"]
    lines = (SHARED / BASE).read_bytes().decode("utf-8-sig").split("\r\n")
    kinds = {edit_once(lines, random.Random(seed)) for seed in range(40)}
    assert kinds == {"reword", "insert", "remove", "merge"}
    # The last version reads as a person would read it: its stated date, and no warning
    # the first (the publisher's text with its date moved on) does not give too.
    cache = ParseCache(tmp_path / "parsed")
    docs = []
    for entry in (first[0], first[-1]):
        data = (tmp_path / "a" / entry["path"]).read_bytes()
        request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="txt", what="v")
        docs.append(cache.parse(data, hashlib.sha256(data).hexdigest(), request, ParseLimits()))
    assert [d.effective for d in docs] == [first[0]["date"], first[-1]["date"]]
    assert [w.message for w in docs[1].warnings] == [w.message for w in docs[0].warnings]
    base = parse_real(BASE, "mtg-cr", document="mtg/cr")
    assert len(docs[0].records) == len(base.records)
    assert 0 < abs(len(docs[1].records) - len(base.records)) <= 15
