"""Shared test helpers: where the real documents are, tree digests, registry files."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "sources"


def corpus_digest(root: Path) -> dict[str, str]:
    """Every file under root (the lock file of a run aside) with its SHA-256."""
    if not root.exists():
        return {}
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(value)


def registry_text(sources: Iterable[Mapping[str, Any]]) -> str:
    """A registry's TOML: one [[source]] table per mapping, its values as given (a test may
    write what the loader must refuse)."""
    lines = []
    for source in sources:
        lines.append("[[source]]")
        lines.extend(f"{key} = {_toml_value(value)}" for key, value in source.items())
        lines.append("")
    return "\n".join(lines)


def registry_file(folder: Path, sources: list[dict[str, Any]]) -> Path:
    """Write a sources.toml with the given [[source]] tables."""
    path = folder / "sources.toml"
    path.write_text(registry_text(sources), encoding="utf-8")
    return path


def link_archive(folder: Path, entries: list[dict[str, Any]]) -> Path:
    """An archive folder of real documents plus a manifest.json. Hard links, not symbolic
    ones: a mirror refuses a symbolic link that leads out of its folder."""
    for entry in entries:
        target = folder / str(entry["path"])
        target.parent.mkdir(parents=True, exist_ok=True)
        source = SHARED / str(entry["path"])
        try:
            os.link(source, target)
        except OSError:  # another file system: a copy is the only way
            shutil.copyfile(source, target)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps(entries))
    return folder


EXAMPLE_REGISTRIES = ROOT / "examples" / "registries"
# The numbered games the packaged registry reads through the engine alone, by game.
NUMBERED_GAMES = {"gundam": "gundam-cr-pdf", "digimon": "digimon-cr-zh-pdf", "fow": "fow-cr-txt"}


def special_file(path: Path, kind: str) -> Path:
    """`path` made what a reader must refuse where it expects a file: a FIFO (`fifo`), a
    link to /dev/zero (`device`) or a folder (`folder`)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        assert kind == "folder", kind
        path.mkdir()
    return path


def parse_example(name: str) -> tuple[Any, bytes]:
    """The real document of a numbered game (a key of NUMBERED_GAMES, read through its
    packaged entry, or the name of a file of examples/registries/), parsed through that entry
    alone: (Document, the document's bytes)."""
    from pipeline.fetch.manifest import parse_manifest, versions_of
    from pipeline.jobs.context import load_sources
    from pipeline.runner.families import parse_bytes
    from pipeline.runner.family_names import NAMES
    from pipeline.runner.request import request_for

    if name in NUMBERED_GAMES:
        (entry,) = [s for s in load_sources(None) if s.id == NUMBERED_GAMES[name]]
    else:
        (entry,) = load_sources(EXAMPLE_REGISTRIES / f"{name}.toml", NAMES)
    entries = parse_manifest((SHARED / "manifest.json").read_bytes(), "manifest.json")
    ((file,),) = versions_of(entry, entries)
    data = (SHARED / file.path).read_bytes()
    return parse_bytes(data, request_for(entry, what=file.path)), data


def scheme_then_parse(path: Path, tmp_path: Path, game: str = "lantern") -> tuple[str, Any]:
    """The entry `rulescorpus scheme` writes for the file, and the Document JSON that
    `rulescorpus parse` gives with that entry pasted unedited (both run as the CLI)."""
    from typer.testing import CliRunner

    from pipeline.cli.commands import app

    runner = CliRunner()
    result = runner.invoke(app, ["scheme", str(path), "--game", game])
    assert result.exit_code == 0, result.stderr
    registry = tmp_path / "sources.toml"
    registry.write_text(result.stdout, encoding="utf-8")
    args = ["parse", str(path), "--family", "numbered", "--sources", str(registry)]
    parsed = runner.invoke(app, args)
    assert parsed.exit_code == 0, parsed.stderr
    return result.stdout, json.loads(parsed.stdout)
