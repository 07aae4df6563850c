"""The command line. Each command lives in a module of this package, builds a Context, makes
one library call, and turns the library's errors into a clean message and exit code.
Importing a command module registers its commands on the one typer app.

`main` first offers the request to `cli.quick`, which answers a plain `show` without
loading typer, rich or the models; everything else goes to the typer app, loaded then.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from pipeline.errors import EXIT_BUG, EXIT_USAGE, shorten

if TYPE_CHECKING:
    import typer

__all__ = ["load_app", "main"]


def load_app() -> typer.Typer:
    """The typer app with every command registered."""
    from pipeline.cli import (  # noqa: F401  (registers commands)
        export_commands,
        job_commands,
        read_commands,
        renumbering_commands,
        scheme_command,
        site_commands,
    )
    from pipeline.cli.common import app

    return app


def __getattr__(name: str) -> Any:
    # `from pipeline.cli.app import app` (tests, docs) loads the app only when asked.
    if name == "app":
        return load_app()
    raise AttributeError(name)


def main() -> None:
    from pipeline.cli.quick import try_quick
    from pipeline.runner.collector import tune_collector

    tune_collector()
    code = try_quick(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    try:
        load_app()()
    except KeyboardInterrupt:
        sys.exit(EXIT_USAGE)
    except Exception as exc:
        # Every error the pipeline means is a RulesCorpusError with its own message and
        # exit code (cli.common.run_job); anything else is a bug. The user gets one line
        # and exit 70, never a traceback; RULESCORPUS_DEBUG=1 shows it to a developer.
        if os.environ.get("RULESCORPUS_DEBUG"):
            raise
        print(
            f"error: internal error ({type(exc).__name__}: {shorten(str(exc))}). This is a bug in "
            "rulescorpus: please report it with the command you ran (RULESCORPUS_DEBUG=1 "
            "shows the traceback).",
            file=sys.stderr,
        )
        sys.exit(EXIT_BUG)
