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

# Plain click help, not typer's rich panels: those print a boolean flag as `--json <bool>`,
# as if it took a value, and read badly in a log.
app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
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
# The document and version arguments of every read command, with the same defaults.
DocOpt = Annotated[
    str | None,
    typer.Option("--doc", help="document id, e.g. mtg/cr [default: the one that has CITATION]"),
]
VersionOpt = Annotated[
    str | None, typer.Option("--version", help="a stored version [default: the current one]")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON instead of text")]
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


def print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        out.print(f"rulescorpus {version('rulescorpus')}", markup=False, highlight=False)
        raise typer.Exit(0)


@app.callback()
def main_options(
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=print_version,
            is_eager=True,
            help="print the package's version and exit",
        ),
    ] = False,
) -> None:
    GLOBALS.update(corpus=corpus, cache=cache, sources=sources)
