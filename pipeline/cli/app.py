"""The command line. Each command lives in a module of this package, builds a Context, makes
one library call, and turns the library's errors into a clean message and exit code.
Importing a command module registers its commands on the one typer app."""

from __future__ import annotations

import sys

from pipeline.cli import (  # noqa: F401  (registers commands)
    export_commands,
    job_commands,
    read_commands,
    renumbering_commands,
)
from pipeline.cli.common import app
from pipeline.errors import EXIT_USAGE

__all__ = ["app", "main"]


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(EXIT_USAGE)
