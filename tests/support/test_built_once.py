"""The real documents' session fixtures are built once per run, whichever pytest-xdist
worker asks first (tests/support/built_once.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.built_once import build_once

ROOT = Path(__file__).parents[2]

CONFTEST = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})  # a suite outside the checkout imports its helpers
import pytest
from tests.support.built_once import build_once

@pytest.fixture(scope="session")
def built(tmp_path_factory):
    def build(folder):
        with open({{count!r}}, "a") as count:
            count.write("built\\n")
        (folder / "made").write_text("x")
    return build_once("corpus", tmp_path_factory, build)
"""

TEST = """
def test_reads_the_build(built):
    assert (built / "made").read_text() == "x"
"""


def test_a_fixture_asked_for_by_two_workers_is_built_once(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    count = tmp_path / "count"
    (suite / "conftest.py").write_text(CONFTEST.format(count=str(count)))
    for name in ("a", "b", "c", "d"):
        (suite / f"test_{name}.py").write_text(TEST)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider", str(suite)],
        cwd=suite,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout
    assert count.read_text() == "built\n"


class WorkerTemp:
    """What build_once asks of pytest's TempPathFactory inside a worker."""

    def __init__(self, base: Path) -> None:
        self.base = base

    def getbasetemp(self) -> Path:
        return self.base


def test_a_build_that_failed_half_way_is_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    factory = WorkerTemp(tmp_path / "popen-gw0")

    def fail(folder: Path) -> None:
        (folder / "half").write_text("x")
        raise RuntimeError("import failed")

    with pytest.raises(RuntimeError):
        build_once("corpus", factory, fail)  # type: ignore[arg-type]
    folder = build_once("corpus", factory, lambda folder: (folder / "whole").write_text("x"))  # type: ignore[arg-type]
    assert folder == tmp_path / "corpus"
    assert sorted(p.name for p in folder.iterdir()) == [".built", "whole"]
