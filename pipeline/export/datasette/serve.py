"""Run Datasette over an exported corpus with the packaged plugin, template and metadata.

    python -m pipeline.export.datasette DATABASE [--host 127.0.0.1] [--port 8001]

Needs the `serve` extra (pip install 'rulescorpus[serve]'); `make serve` exports
./corpus first and runs this."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.export.datasette.metadata import metadata_path

PACKAGE = Path(__file__).resolve().parent
TEMPLATES = PACKAGE / "templates"
PLUGINS = PACKAGE / "plugins"


def datasette_command(
    database: Path, *, host: str = "127.0.0.1", port: int = 8001, python: str = sys.executable
) -> list[str]:
    """The command line that serves `database` (and the metadata.json beside it)."""
    command = [
        python,
        "-m",
        "datasette",
        "serve",
        str(database),
        "--host",
        host,
        "--port",
        str(port),
        "--template-dir",
        str(TEMPLATES),
        "--plugins-dir",
        str(PLUGINS),
    ]
    meta = metadata_path(database)
    if meta.exists():
        command += ["--metadata", str(meta)]
    return command
