"""The real MTG text exports as the tests pick them: manifest entries by version, the
registry entries of MTG's rules (one builder for every test's registry), and a corpus
folder copied whole."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.support.helpers import SHARED, registry_file

MTG = "mtg/comprehensive-rules/{0}/MagicCompRules {0}.txt"


def mtg_entries(*versions: str) -> list[dict[str, object]]:
    """The manifest entries of the MTG text exports of these versions (YYYYMMDD)."""
    wanted = {MTG.format(v) for v in versions}
    manifest = json.loads((SHARED / "manifest.json").read_text())
    return [e for e in manifest if e["path"] in wanted]


def mtg_source(rendition: str = "txt", url: str | None = None, **fields: Any) -> dict[str, Any]:
    """The registry entry of MTG's Comprehensive Rules in `rendition`, `fields` added or
    replacing. Without `url` or a `discovery` field it names the publisher's https URL,
    which a test never reaches: a mirror or an archive answers for it."""
    source: dict[str, Any] = {
        "id": f"mtg-cr-{rendition}",
        "game": "mtg",
        "document": "mtg/cr",
        "title": "Magic: The Gathering Comprehensive Rules",
        "family": "mtg-cr",
        "rendition": rendition,
        "primary": rendition == "txt",
        "max_bytes": 4_000_000,
        "manifest": {"game": "mtg", "document": "comprehensive-rules", "format": rendition},
    }
    # A source with a URL is fetched from it and matched to a mirror's entries by it: one
    # that discovers its link has none.
    if url is not None or "discovery" not in fields:
        source["url"] = url or f"https://media.wizards.com/mtg/MagicCompRules.{rendition}"
    return {**source, **fields}


def mtg_registry(tmp_path: Path, **fields: Any) -> Path:
    """A registry holding the MTG text export's source, with `fields` added or replacing."""
    return registry_file(tmp_path, [mtg_source(**fields)])


def copy_tree(src: Path, dst: Path) -> None:
    """Copy a folder with its hard links, modes and symlinks (cp -a)."""
    subprocess.run(["cp", "-a", str(src), str(dst)], check=True)
