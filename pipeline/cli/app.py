"""The command line's entry point. Each command lives in a module of this package, builds a
Context, makes one library call, and turns the library's errors into a clean message and
exit code; `cli.commands` is the typer app with all of them.

`main` first offers the request to `cli.quick`, which answers a plain `show` without
loading typer, rich or the models; everything else goes to the typer app, loaded then.
"""

from __future__ import annotations

import os
import sys

from pipeline.errors import EXIT_BUG, EXIT_USAGE, shorten

__all__ = ["main"]


def main() -> None:
    from pipeline.cli.quick import try_quick
    from pipeline.runner.collector import tune_collector

    tune_collector()
    code = try_quick(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    try:
        from pipeline.cli.commands import app

        app()
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
