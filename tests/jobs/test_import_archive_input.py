"""What `import` reads from an archive folder and refuses: two files of one version with
different bytes, a manifest that is no list, a path holding NUL, a `bytes` field that
does not describe its file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.errors import EXIT_USAGE, EXIT_VERIFY
from tests.support.helpers import corpus_digest, registry_file

SCHEME = {
    "prefix": "lt",
    "levels": [
        {"kind": "chapter", "dot": "required", "title": "always"},
        {"kind": "rule", "dot": "required"},
    ],
    "title": "Lantern Rules",
    "statement_forms": ["version"],
}
SOURCE = {
    "id": "lantern-cr-txt",
    "game": "lantern",
    "document": "lantern/cr",
    "title": "Lantern Rules",
    "family": "numbered",
    "rendition": "txt",
    "primary": True,
    "options": {"archive_only": "true"},
    "manifest": {"game": "lantern", "document": "cr", "format": "txt"},
    "scheme": SCHEME,
}


def lantern(extra: str = "") -> bytes:
    return (
        "Lantern Rules\nVersion 3.1\n1. Light\n1.1. A lantern lights its row.\n"
        f"1.2. A lit lantern stays lit.{extra}\n2. Dark\n2.1. An unlit row is dark.\n"
    ).encode()


def entry(path: str, data: bytes, **extra: object) -> dict[str, object]:
    return {
        "game": "lantern", "document": "cr", "version": "3.1", "format": "txt",
        "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "path": path, **extra,
    }  # fmt: skip


def archive(folder: Path, files: dict[str, bytes], manifest: object = None) -> Path:
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    listed = manifest if manifest is not None else [entry(n, d) for n, d in files.items()]
    (folder / "manifest.json").write_text(json.dumps(listed))
    return folder


def run_import(tmp_path: Path, folder: Path) -> tuple[int, str]:
    registry = registry_file(tmp_path, [SOURCE])
    result = CliRunner().invoke(app, [
        "--sources", str(registry), "--corpus", str(tmp_path / "corpus"),
        "--cache", str(tmp_path / "cache"), "import", str(folder),
    ])  # fmt: skip
    out = result.output + result.stderr
    assert "Traceback" not in out and "internal error" not in out, out
    return result.exit_code, " ".join(out.split())


@pytest.mark.parametrize("order", ["plain first", "amended first"])
def test_two_archive_files_of_one_version_with_different_bytes(tmp_path: Path, order: str) -> None:
    """Two files both stating "Version 3.1" with different bytes: one was stored silently
    and the run exited 0, which one depending on the manifest's order. Both are refused,
    exit 20, whatever the order, and nothing of that version is stored."""
    files = {"a.txt": lantern(), "b.txt": lantern(" Always.")}
    if order == "amended first":
        files = dict(reversed(files.items()))
    code, out = run_import(tmp_path, archive(tmp_path / "archive", files))
    assert code == EXIT_VERIFY, out
    assert "a.txt" in out and "b.txt" in out and "all state version 3.1" in out
    index = tmp_path / "corpus" / "index.json"
    stored = json.loads(index.read_text())["documents"] if index.exists() else {}
    assert "lantern/cr" not in stored


def test_the_same_file_listed_twice_is_one_version(tmp_path: Path) -> None:
    data = lantern()
    folder = archive(tmp_path / "archive", {"a.txt": data, "b.txt": data})
    code, out = run_import(tmp_path, folder)
    assert code == 0, out
    assert json.loads((tmp_path / "corpus" / "index.json").read_text())["documents"]["lantern/cr"]


def test_a_manifest_that_is_an_object_is_treated_as_an_empty_archive(tmp_path: Path) -> None:
    folder = archive(tmp_path / "archive", {"a.txt": lantern()}, {"a.txt": {"version": "3.1"}})
    code, out = run_import(tmp_path, folder)
    assert code == EXIT_USAGE, out
    assert "manifest.json" in out and "JSON object, not a list" in out


def test_a_nul_in_a_manifest_path_is_an_internal_error(tmp_path: Path) -> None:
    data = lantern()
    folder = archive(tmp_path / "archive", {"a.txt": data}, [entry("a.txt\0.pdf", data)])
    code, out = run_import(tmp_path, folder)
    assert code == EXIT_USAGE, out
    assert "entry 1" in out and "path" in out and "control character" in out


def test_the_manifest_bytes_field_is_unchecked(tmp_path: Path) -> None:
    data = lantern()
    wrong = entry("a.txt", data, bytes=len(data) + 7)
    folder = archive(tmp_path / "archive", {"a.txt": data}, [wrong])
    code, out = run_import(tmp_path, folder)
    assert code == EXIT_VERIFY, out
    assert f"the manifest says {len(data) + 7} bytes, the file has {len(data)}" in out
    assert (
        corpus_digest(tmp_path / "corpus") == {}
        or "lantern/cr"
        not in json.loads((tmp_path / "corpus" / "index.json").read_text())["documents"]
    )
