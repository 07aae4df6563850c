"""The parse command's work, shared by its typer command (`cli.job_commands`) and its
quick path (`cli.parse_quick`), so both print the same bytes and return the same code."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from pipeline.cli.read_arguments import check_family
from pipeline.cli.shared import err, make_context, print_error
from pipeline.errors import EXIT_PARSE, RulesCorpusError


def run_parse(
    file: Path,
    family: str,
    *,
    version: str | None,
    document: str | None,
    rendition: str | None,
    engine: str | None,
    corpus: Path | None,
    cache: Path | None,
    sources: Path | None,
) -> int:
    """Parse a local file; print its Document JSON on stdout, warnings on stderr; the exit
    code (a library error printed as every command prints it, `cli.shared.print_error`)."""
    from pipeline.runner.local_file import parse_file

    # The modules are imported for good: frozen, the collector's passes skip them, here
    # and in the parse child forked from this process.
    gc.freeze()
    try:
        check_family(family)
        parsed = parse_file(
            file,
            family,
            version=version,
            document=document,
            rendition=rendition,
            registry=make_context(corpus, cache, sources).registry(),
            engine=engine,
        )
    except RulesCorpusError as exc:
        return print_error(exc)
    sys.stdout.buffer.write(parsed.json)
    for warning in parsed.warnings:
        where = f" line {warning.location.line}" if warning.location else ""
        err.print(f"warning [{warning.code}]{where}: {warning.message}", markup=False)
    for erratum in parsed.publisher_errata:
        # A reviewed lint finding names the offending text; any other erratum, what it cites.
        what = (
            f"[{erratum.code}] {erratum.field or 'text'} has {erratum.cites!r}"
            if erratum.code
            else f"cites {erratum.cites}"
        )
        err.print(
            f"note: reviewed publisher defect: {erratum.record} {what}: {erratum.reason}",
            markup=False,
        )
    for note in parsed.publisher_notes:
        where = f" line {note.location.line}" if note.location else ""
        err.print(f"publisher note [{note.code}]{where}: {note.message}", markup=False)
    # Everything is written. Frozen, the heap is skipped by the collector's passes at
    # the interpreter's exit.
    gc.freeze()
    return EXIT_PARSE if parsed.warnings else 0
