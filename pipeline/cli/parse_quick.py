"""`parse` without loading typer: the plain case parsed with argparse, run by the very code
the typer command runs (`cli.parse_run`), with the exit codes typer would give.

Loading the typer app (typer and the other commands' modules) costs 0.04 s of the
parse command's 1 s, and this path needs none of it. It takes `[--corpus|--cache|
--sources V]... parse FILE --family F` with the command's own options (`--version`,
`--document`, `--rendition`, `--engine`, `--corpus`, `--cache`, `--sources`), as
typer reads them (an option's last value counts; a command option over a global one).
Anything else (help, an option or value it does not know, a missing --family, `--`,
shell completion, RULESCORPUS_DEBUG, which shows typer's tracebacks) returns None, and
the typer app answers with its own messages and exit codes. tests/test_parse_quick.py
runs both side by side.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path
from typing import Any

from pipeline.cli.shared import PdfEngine, Rendition

GLOBAL = ("--corpus", "--cache", "--sources")
OPTIONS = ("--family", "--version", "--document", "--rendition", "--engine", *GLOBAL)
# typer's exit code for Ctrl-C during a command (its KeyboardInterrupt handler).
EXIT_INTERRUPTED = 130


class _Fallback(Exception):
    """Not the plain case: typer answers."""


class _Arguments(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # never print: typer will
        raise _Fallback(message)


def _command_parser() -> argparse.ArgumentParser:
    parser = _Arguments(add_help=False, allow_abbrev=False)
    parser.add_argument("file")
    parser.add_argument("--family", required=True)
    parser.add_argument("--version")
    parser.add_argument("--document")
    parser.add_argument("--rendition", choices=[r.value for r in Rendition])
    parser.add_argument("--engine", choices=[e.value for e in PdfEngine])
    for name in GLOBAL:
        parser.add_argument(name)
    return parser


def _split_globals(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """The global options before `parse` (last value counts), and the command's arguments."""
    given: dict[str, str] = {}
    index = 0
    while index < len(argv):
        token = argv[index]
        if token == "parse":
            return given, argv[index + 1 :]
        name, equals, value = token.partition("=")
        if name not in GLOBAL:
            raise _Fallback(token)
        if not equals:
            if index + 1 >= len(argv):
                raise _Fallback(token)
            index += 1
            value = argv[index]
        given[name[2:]] = value
        index += 1
    raise _Fallback("no command")


class _Pacified:
    """A stream whose flush ignores a closed pipe (click's PacifyFlushWrapper, which typer
    puts on stdout and stderr when the reader of the output has gone)."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def try_quick_parse(argv: list[str]) -> int | None:
    """Run a plain `parse` and return its exit code, or None for typer to answer."""
    if "parse" not in argv or os.environ.get("RULESCORPUS_DEBUG"):
        return None
    if any(a == "--" or a in ("-h", "--help") for a in argv):
        return None
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None  # shell completion: typer's
    try:
        given, rest = _split_globals(argv)
        if any(a.startswith("-") and a.partition("=")[0] not in OPTIONS for a in rest):
            return None  # a value or file that starts with a dash: click reads those its way
        args = _command_parser().parse_args(rest)
    except _Fallback:
        return None
    if "" in (*given.values(), *(v for v in vars(args).values() if v is not None)):
        return None
    from pipeline.cli.parse_run import run_parse

    def option(name: str) -> Path | None:
        command = getattr(args, name)
        value = command if command is not None else given.get(name)
        return Path(value) if value is not None else None

    try:
        return run_parse(
            Path(args.file),
            args.family,
            version=args.version,
            document=args.document,
            rendition=args.rendition,
            engine=args.engine,
            corpus=option("corpus"),
            cache=option("cache"),
            sources=option("sources"),
        )
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout = _Pacified(sys.stdout)
        sys.stderr = _Pacified(sys.stderr)
        return 1
