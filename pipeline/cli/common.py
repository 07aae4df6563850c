"""What every command shares: the typer app, the global options, the Context it builds, and
the one place a library error becomes a clean message and the documented exit code."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from pipeline.cli.console import print_summary
from pipeline.cli.shared import GLOBALS, out, print_error
from pipeline.errors import RulesCorpusError, StorageIOError
from pipeline.jobs.outcomes import RunSummary

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Verified, versioned, diffable corpus of trading-card-game rules.",
)
T = TypeVar("T")

CorpusOpt = Annotated[
    Path | None,
    typer.Option("--corpus", help="corpus folder [env RULESCORPUS_CORPUS; default ./corpus]"),
]
CacheOpt = Annotated[
    Path | None,
    typer.Option(
        "--cache", help="blob store [env RULESCORPUS_CACHE; default ~/.cache/rulescorpus]"
    ),
]
SourcesOpt = Annotated[
    Path | None,
    typer.Option("--sources", help="registry file [default: the packaged sources.toml]"),
]


def run_job(call: Callable[[], T]) -> T:
    try:
        return call()
    except RulesCorpusError as exc:
        raise typer.Exit(print_error(exc)) from exc
    except OSError as exc:
        # A path the system refuses outright (a name too long, a loop of links) before any
        # job could name it: exit 74 naming it, never an internal error.
        error = StorageIOError(
            str(exc.filename or "a path given"),
            exc.strerror or str(exc),
            "nothing was written. Check the paths given and their permissions",
        )
        raise typer.Exit(print_error(error)) from exc


def finish(summary: RunSummary, report: Path | None = None, as_json: bool = False) -> None:
    if report is not None:
        report.write_text(json.dumps(summary.as_json(), indent=2, sort_keys=True) + "\n")
    if as_json:
        print(json.dumps(summary.as_json(), indent=2, sort_keys=True))
    else:
        print_summary(out, summary)
    raise typer.Exit(summary.exit_code)


@app.callback()
def main_options(
    corpus: CorpusOpt = None, cache: CacheOpt = None, sources: SourcesOpt = None
) -> None:
    GLOBALS.update(corpus=corpus, cache=cache, sources=sources)
