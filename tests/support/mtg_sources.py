"""The real MTG text exports as the tests pick them: manifest entries by version, the
registry entry of the text export, and a corpus folder copied whole."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.support.helpers import SHARED, registry_file

MTG = "mtg/comprehensive-rules/{0}/MagicCompRules {0}.txt"


def mtg_entries(*versions: str) -> list[dict[str, object]]:
    """The manifest entries of the MTG text exports of these versions (YYYYMMDD)."""
    wanted = {MTG.format(v) for v in versions}
    manifest = json.loads((SHARED / "manifest.json").read_text())
    return [e for e in manifest if e["path"] in wanted]


def mtg_registry(tmp_path: Path, **extra: object) -> Path:
    """A registry holding the MTG text export's source, with `extra` fields."""
    source = {
        "id": "mtg-cr-txt",
        "game": "mtg",
        "document": "mtg/cr",
        "title": "Magic: The Gathering Comprehensive Rules",
        "family": "mtg-cr",
        "rendition": "txt",
        "url": "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt",
        "primary": True,
        "manifest": {"game": "mtg", "document": "comprehensive-rules", "format": "txt"},
        **extra,
    }
    return registry_file(tmp_path, [source])


def copy_tree(src: Path, dst: Path) -> None:
    """Copy a folder with its hard links, modes and symlinks (cp -a)."""
    subprocess.run(["cp", "-a", str(src), str(dst)], check=True)
