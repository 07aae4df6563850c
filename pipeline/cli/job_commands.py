"""The pipeline's commands: sources, fetch, parse, update, import, verify, accept."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import CacheOpt, CorpusOpt, JsonOpt, SourcesOpt, app, finish, run_job
from pipeline.cli.console import print_table
from pipeline.cli.export_commands import SqliteOpt, refresh_sqlite
from pipeline.cli.read_arguments import check_family
from pipeline.cli.shared import PdfEngine, Rendition, diff_renderers, err, make_context, out
from pipeline.cli.site_commands import SiteOpt, refresh_site_after
from pipeline.errors import EXIT_PARSE, shorten
from pipeline.runner.limits import RUN_DEADLINE

# The jobs are imported inside each command: `--help`, `sources` and the read commands
# must not pay for the parsers, the PDF and HTML libraries and requests.


@app.command("sources")
def sources_cmd(
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the registry."""
    ctx = make_context(corpus, cache, sources)
    registry = run_job(ctx.registry)
    if as_json:
        print(json.dumps([s.model_dump(mode="json") for s in registry], indent=2))
        return
    rows = [
        (
            s.id,
            s.document,
            s.family,
            s.rendition + (" *" if s.primary else ""),
            s.url or (f"discover on {s.discovery.page}" if s.discovery else "archive only"),
        )
        for s in registry
    ]
    columns = ("id", "document", "family", "rendition", "url or discovery page")
    print_table(out, "registry", columns, rows)
    out.print("* primary rendition (its records are stored)")


@app.command("fetch")
def fetch_cmd(
    source: Annotated[list[str] | None, typer.Argument()] = None,
    mirror: Annotated[str | None, typer.Option(help="folder or URL of an offline mirror")] = None,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Conditional GET of sources into the blob store (the corpus is not touched)."""
    ctx = make_context(corpus, cache, sources)
    from pipeline.jobs import update as jobs

    finish(run_job(lambda: jobs.fetch(ctx, source or [], mirror=mirror)))


@app.command("parse")
def parse_cmd(
    file: Path,
    family: Annotated[str, typer.Option(help="parser family, e.g. fab-cr")],
    version: Annotated[
        str | None, typer.Option(help="assert the version (text exports state none)")
    ] = None,
    document: Annotated[str | None, typer.Option(help="document id, e.g. fab/cr")] = None,
    rendition: Annotated[Rendition | None, typer.Option(help="default: from the file name")] = None,
    engine: Annotated[PdfEngine | None, typer.Option(help="PDF engine [default: pdfium]")] = None,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Parse a local file; print its Document JSON on stdout, warnings on stderr."""
    from pipeline.runner.local_file import ParsedFile, parse_file

    def parse() -> ParsedFile:
        check_family(family)
        return parse_file(
            file,
            family,
            version=version,
            document=document,
            rendition=rendition.value if rendition else None,
            registry=make_context(corpus, cache, sources).registry(),
            engine=engine.value if engine else None,
        )

    parsed = run_job(parse)
    sys.stdout.buffer.write(parsed.json)
    for warning in parsed.warnings:
        where = f" line {warning.location.line}" if warning.location else ""
        said = shorten(f"warning [{warning.code}]{where}: {warning.message}", one_line=True)
        err.print(said, markup=False, highlight=False, soft_wrap=True)
    for erratum in parsed.publisher_errata:
        # A reviewed lint finding names the offending text; any other erratum, what it cites.
        what = (
            f"[{erratum.code}] {erratum.field or 'text'} has {erratum.cites!r}"
            if erratum.code
            else f"cites {erratum.cites}"
        )
        said = f"note: reviewed publisher defect: {erratum.record} {what}: {erratum.reason}"
        err.print(shorten(said, one_line=True), markup=False, highlight=False, soft_wrap=True)
    for note in parsed.publisher_notes:
        where = f" line {note.location.line}" if note.location else ""
        said = shorten(f"publisher note [{note.code}]{where}: {note.message}", one_line=True)
        err.print(said, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_PARSE if parsed.warnings else 0)


@app.command("update")
def update_cmd(
    source: Annotated[list[str] | None, typer.Argument()] = None,
    mirror: Annotated[
        str | None, typer.Option(help="folder or URL of an offline mirror (manifest.json)")
    ] = None,
    accept: Annotated[
        bool, typer.Option(help="publish new versions even when they have parse warnings")
    ] = False,
    notify: Annotated[
        str | None,
        typer.Option(help="POST the JSON summary to this URL when anything changed or failed"),
    ] = None,
    report: Annotated[Path | None, typer.Option(help="also write the JSON summary here")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the JSON summary")] = False,
    deadline: Annotated[
        float,
        typer.Option(help="seconds the whole run may take; documents not reached exit 30"),
    ] = RUN_DEADLINE,
    sqlite: SqliteOpt = None,
    site: SiteOpt = None,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """The scheduled job: fetch, verify, parse, store and diff. Exit 0/10/20/30/40/74/75."""
    from pipeline.jobs.update import update

    ctx = make_context(corpus, cache, sources, quiet=as_json, renderers=diff_renderers())
    summary = run_job(
        lambda: update(ctx, source or [], mirror=mirror, accept=accept, deadline=deadline)
    )
    refresh_sqlite(ctx, sqlite, summary)
    refresh_site_after(ctx, site, summary)
    if notify and summary.exit_code != 0:
        from pipeline.jobs.notify import send_summary

        problem = send_summary(notify, summary, ctx.policy)
        if problem:
            err.print(f"warning: {shorten(problem, one_line=True)}", markup=False, highlight=False)
    finish(summary, report, as_json)


@app.command("import")
def import_cmd(
    archive_dir: Path,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
    report: Annotated[Path | None, typer.Option(help="also write the JSON summary here")] = None,
    sqlite: SqliteOpt = None,
    site: SiteOpt = None,
) -> None:
    """Backfill every version listed in ARCHIVE_DIR/manifest.json, oldest first."""
    ctx = make_context(corpus, cache, sources, renderers=diff_renderers())
    from pipeline.jobs.import_archive import import_archive

    summary = run_job(lambda: import_archive(ctx, archive_dir))
    refresh_sqlite(ctx, sqlite, summary)
    refresh_site_after(ctx, site, summary)
    finish(summary, report)


@app.command("verify")
def verify_cmd(
    document: Annotated[list[str] | None, typer.Argument()] = None,
    reproduce: Annotated[
        bool, typer.Option(help="re-parse the blobs and compare the JSON byte for byte")
    ] = False,
    published: Annotated[bool, typer.Option(help="check publishers' posted checksums")] = False,
    cross_engine: Annotated[bool, typer.Option(help="check PDF texts against pdftotext")] = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Re-hash stored files and blobs, check pins; optionally re-parse and compare."""
    from pipeline.jobs.verify import verify

    ctx = make_context(corpus, cache, sources)
    finish(
        run_job(
            lambda: verify(
                ctx,
                document or [],
                reproduce_json=reproduce,
                published=published,
                cross_engine=cross_engine,
            )
        )
    )


@app.command("accept")
def accept_cmd(
    document: str,
    version: str,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Publish a version that update staged for review."""
    ctx = make_context(corpus, cache, sources, renderers=diff_renderers())
    from pipeline.jobs.verify import accept

    finish(run_job(lambda: accept(ctx, document, version)))
