"""Every command that opens a file a user gave, or an archive lists, reads it through one
reader: regular files only, opened without blocking, capped before reading. A FIFO, a
device (a link to /dev/zero) or a folder where a file is expected is refused at once,
naming the file; nothing hangs and nothing reads without end. Each case runs the real
command line in a child process with a timeout, against real FIFOs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.errors import EXIT_FETCH, EXIT_USAGE, UnreadableInput
from pipeline.store.files import read_input
from tests.support.helpers import SHARED, special_file

FAB = "fab/comprehensive-rules/2.14.0/en-fab-cr.txt"
HANG = 60  # seconds: any of these commands answers in a few


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        capture_output=True,
        text=True,
        timeout=HANG,
        cwd=cwd,
    )
    assert time.monotonic() - started < HANG
    assert "Traceback" not in done.stderr, done.stderr
    return done


def fab_entry(path: str) -> dict[str, object]:
    (entry,) = [e for e in json.loads((SHARED / "manifest.json").read_text()) if e["path"] == FAB]
    return {**entry, "path": path}


def archive_with_fifo(folder: Path) -> Path:
    """An archive whose manifest lists the FAB rules text, where a FIFO stands instead."""
    (folder / "fab").mkdir(parents=True)
    os.mkfifo(folder / "fab" / "en-fab-cr.txt")
    (folder / "manifest.json").write_text(json.dumps([fab_entry("fab/en-fab-cr.txt")]))
    return folder


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_the_reader_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    path = special_file(tmp_path / "input.txt", kind)
    started = time.monotonic()
    with pytest.raises(UnreadableInput) as caught:
        read_input(path, 1024)
    assert time.monotonic() - started < 5
    assert str(path) in str(caught.value) and "not a regular file" in str(caught.value)


def test_the_reader_refuses_a_file_over_its_cap_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 2048)
    with pytest.raises(UnreadableInput, match="2048 bytes, over the limit of 1024"):
        read_input(path, 1024)
    assert read_input(path, 2048) == b"x" * 2048


def test_import_hangs_on_a_fifo_in_the_archive(tmp_path: Path) -> None:
    archive = archive_with_fifo(tmp_path / "archive")
    done = run("--corpus", str(tmp_path / "corpus"), "--cache", str(tmp_path / "cache"),
               "import", str(archive))  # fmt: skip
    assert done.returncode == EXIT_FETCH, done.stderr
    assert "en-fab-cr.txt" in done.stdout and "FIFO" in done.stdout


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_import_hangs_on_a_fifo_as_manifest_json(tmp_path: Path, kind: str) -> None:
    archive = tmp_path / "archive"
    archive.mkdir()
    special_file(archive / "manifest.json", kind)
    done = run("--corpus", str(tmp_path / "corpus"), "--cache", str(tmp_path / "cache"),
               "import", str(archive))  # fmt: skip
    assert done.returncode == EXIT_USAGE, done.stderr
    assert "manifest.json" in done.stderr and "not a regular file" in done.stderr


def test_update_mirror_hangs_on_a_fifo_past_the_deadline(tmp_path: Path) -> None:
    mirror = archive_with_fifo(tmp_path / "mirror")
    done = run("--corpus", str(tmp_path / "corpus"), "--cache", str(tmp_path / "cache"),
               "update", "fab-cr-txt", "--mirror", str(mirror), "--deadline", "20")  # fmt: skip
    assert done.returncode == EXIT_FETCH, done.stderr
    assert "FIFO" in done.stdout + done.stderr


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_export_hangs_on_a_fifo_at_the_metadata_file(
    mtg_pair_corpus: Path, tmp_path: Path, kind: str
) -> None:
    # A FIFO there hung the export; a link to /dev/zero there read 23 GB.
    database = tmp_path / "corpus.sqlite"
    special_file(tmp_path / "corpus.metadata.json", kind)
    done = run("--corpus", str(mtg_pair_corpus), "export", "sqlite", str(database))
    assert done.returncode == EXIT_USAGE, done.stderr
    assert "corpus.metadata.json" in done.stderr and "not a regular file" in done.stderr
    assert not database.exists()


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_scheme_and_parse_hang_on_a_fifo(tmp_path: Path, kind: str) -> None:
    path = special_file(tmp_path / "rules.txt", kind)
    for args in (["scheme", str(path)], ["parse", str(path), "--family", "mtg-cr"]):
        done = run(*args)
        assert done.returncode == EXIT_USAGE, done.stderr
        assert str(path) in done.stderr and "not a regular file" in done.stderr


def test_a_registry_given_as_a_fifo_hangs_every_command(tmp_path: Path) -> None:
    registry = tmp_path / "sources.toml"
    os.mkfifo(registry)
    done = run("--sources", str(registry), "sources")
    assert done.returncode == EXIT_USAGE, done.stderr
    assert "sources.toml" in done.stderr and "not a regular file" in done.stderr
