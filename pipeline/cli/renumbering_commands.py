"""The renumbering commands: `renumbering` (the map between two stored versions) and
`cite-check` (stale rule citations in files, or in the corpus's own rulings)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import CacheOpt, CorpusOpt, JsonOpt, SourcesOpt, app, run_job
from pipeline.cli.read_arguments import check_read_arguments
from pipeline.cli.shared import err, make_context
from pipeline.cli.shared import out as console


class MapFormat(StrEnum):
    json = "json"
    csv = "csv"
    md = "md"


@app.command("renumbering")
def renumbering_cmd(
    document: str,
    old: str,
    new: Annotated[str | None, typer.Argument(help="default: the current version")] = None,
    format: Annotated[
        MapFormat, typer.Option("--format", help="a Markdown table, CSV or JSON")
    ] = MapFormat.md,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Where every rule of OLD lives in NEW (default: the current version).

    Each old id that did not stay the same: renumbered, moved, split, merged, removed or
    changed at the same number; each record followed along the stored versions between."""
    from pipeline.report.output import render_renumbering

    ctx = make_context(corpus, cache, sources)
    reader = run_job(lambda: check_read_arguments(ctx, document, old, new))
    rmap = run_job(lambda: reader.renumbering(document, old, new))
    shown = run_job(lambda: render_renumbering(rmap, format=format.value))
    sys.stdout.buffer.write(shown)


@app.command("cite-check")
def cite_check_cmd(
    paths: Annotated[list[Path] | None, typer.Argument(help="files or folders to check")] = None,
    doc: Annotated[str, typer.Option("--doc", help="the rules document cited, e.g. mtg/cr")] = "",
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            help="the version the files were written for (default: the "
            "oldest stored version with every number they cite)",
        ),
    ] = None,
    rulings: Annotated[
        str | None,
        typer.Option("--rulings", help="also check the current rulings of this document"),
    ] = None,
    fix: Annotated[bool, typer.Option("--fix", help="rewrite renumbered citations")] = False,
    yes: Annotated[bool, typer.Option("--yes", help="with --fix: write the files")] = False,
    break_hard_links: Annotated[
        bool,
        typer.Option(
            "--break-hard-links",
            help="with --fix --yes: also rewrite a file that has other hard links (they keep "
            "the old text)",
        ),
    ] = False,
    as_json: JsonOpt = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Find stale rule citations in files: exit 0 when all are current, 1 otherwise.

    Each citation is reported as current, renumbered (with the new id), changed, removed or
    never existed. --fix prints the rewrite as a unified diff; --fix --yes writes it:
    each file is reported changed, skipped or failed, and a fix that could not write every
    file exits 74. The corpus, the cache and Python environments are never read or written."""
    from pipeline.cite.run import CiteCheck
    from pipeline.errors import UsageError

    ctx = make_context(corpus, cache, sources, quiet=True)

    def check() -> int:
        if not doc:
            raise UsageError("cite-check needs --doc DOC (the rules document the files cite)")
        reader = check_read_arguments(ctx, doc, as_of)
        run = CiteCheck(
            reader.stored,
            doc,
            list(paths or []),
            as_of=as_of,
            rulings=rulings,
            fix=fix,
            write=yes,
            break_hard_links=break_hard_links,
            as_json=as_json,
            protected=[(ctx.cache_dir, "the cache")],
        )
        return run.run(TerminalSpeaker())

    raise typer.Exit(run_job(check))


class TerminalSpeaker:
    """The run's lines through the command line's consoles; stdout is flushed before a
    note, so a terminal shows them in the order they were said."""

    def line(self, text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)

    def raw(self, text: str) -> None:
        sys.stdout.write(text)

    def note(self, text: str) -> None:
        sys.stdout.flush()
        err.print(text, markup=False, highlight=False, soft_wrap=True)
