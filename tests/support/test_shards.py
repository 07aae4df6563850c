"""`make test`'s two processes (tests/support/shards.py): every test file runs exactly once, the
files over the real documents' session fixtures share one process, and the work is
dealt evenly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from built_once import BUILDS, build_once
from shards import TESTS, WEIGHTS, format_weights, plan, uses_shared_builds


def test_every_file_is_dealt_once_and_only_the_first_process_starts_with_the_shared_builds() -> (
    None
):
    files = sorted(TESTS.rglob("test_*.py"))
    shards = plan(files, 2)
    dealt = [path for shard in shards for path in shard]
    assert sorted(dealt) == files and len(dealt) == len(set(dealt))
    first, second = ([uses_shared_builds(p) for p in shard] for shard in shards)
    assert first == sorted(first, reverse=True) and first[0]
    assert second == sorted(second)


BUILD = """
import sys
from pathlib import Path
sys.path.insert(0, {support!r})
from built_once import build_once

def build(folder: Path) -> None:
    with open({count!r}, "a") as count:
        count.write("built\\n")
    (folder / "made").write_text("x")

print(build_once("corpus", None, build))
"""


def test_a_shared_build_is_made_once_for_two_processes(tmp_path: Path) -> None:
    count = tmp_path / "count"
    code = BUILD.format(support=str(TESTS / "support"), count=str(count))
    env = {**os.environ, BUILDS: str(tmp_path / "builds")}
    runs = [
        subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    folders = {run.communicate()[0].strip() for run in runs}
    assert [run.returncode for run in runs] == [0, 0]
    assert folders == {str(tmp_path / "builds" / "corpus")}
    assert count.read_text() == "built\n"


def test_a_build_that_failed_half_way_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(BUILDS, str(tmp_path))

    def fail(folder: Path) -> None:
        (folder / "half").write_text("x")
        raise RuntimeError("import failed")

    with pytest.raises(RuntimeError):
        build_once("corpus", None, fail)  # type: ignore[arg-type]
    folder = build_once("corpus", None, lambda folder: (folder / "whole").write_text("x"))  # type: ignore[arg-type]
    assert sorted(p.name for p in folder.iterdir()) == [".built", "whole"]


def test_the_heaviest_first_deal_is_even(tmp_path: Path) -> None:
    names = ["test_a.py", "test_b.py", "test_c.py", "test_d.py"]
    for name in names:
        (tmp_path / name).write_text("def test(): pass\n")
    weights = dict(zip(names, (5.0, 4.0, 3.0, 2.0), strict=True))
    WEIGHTS.update(weights)
    try:
        shards = plan(sorted(tmp_path.glob("test_*.py")), 2)
    finally:
        for name in names:
            del WEIGHTS[name]
    loads = sorted(sum(weights[p.name] for p in shard) for shard in shards)
    assert loads == [7.0, 7.0]


def test_timings_are_summed_per_file_into_weights(tmp_path: Path) -> None:
    timings = tmp_path / "timings.tsv"
    env = {**os.environ, "RULESCORPUS_TEST_TIMINGS": str(timings)}
    test = tmp_path / "test_timed.py"
    test.write_text("import time\n\ndef test_sleeps():\n    time.sleep(1.2)\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.conftest",
            str(test),
        ],
        env=env,
        cwd=TESTS.parent,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout
    # setup, call and teardown, each a line
    assert [line.split("\t")[0] for line in timings.read_text().splitlines()] == [
        "test_timed.py::test_sleeps"
    ] * 3
    assert format_weights(timings.read_text()) == "    'test_timed.py': 1,"
