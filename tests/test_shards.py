"""`make test`'s two processes (tests/shards.py): every test file runs exactly once, the
files over the real documents' session fixtures share one process, and the work is
dealt evenly."""

from __future__ import annotations

from pathlib import Path

from shards import SHARING, TESTS, WEIGHTS, plan


def test_every_file_is_dealt_once_and_the_real_document_files_together() -> None:
    files = sorted(TESTS.glob("test_*.py"))
    shards = plan(files, 2)
    dealt = [path for shard in shards for path in shard]
    assert sorted(dealt) == files and len(dealt) == len(set(dealt))
    sharing = {p for p in files if any(name in p.read_text() for name in SHARING)}
    assert len(sharing) >= 5
    assert sum(1 for shard in shards if sharing & set(shard)) == 1


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
