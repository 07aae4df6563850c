"""The command line: each command builds a Context, makes one library call, and turns the
library's errors into a clean message and the documented exit code."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from pipeline.cli.console import print_history, print_shown, print_summary
from pipeline.errors import EXIT_PARSE, EXIT_USAGE, EXIT_VERIFY, RulesCorpusError
from pipeline.jobs import import_archive as archive
from pipeline.jobs import show as lookup
from pipeline.jobs import update as jobs
from pipeline.jobs import verify as audit
from pipeline.jobs.outcomes import RunSummary

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Verified, versioned, diffable corpus of trading-card-game rules.",
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
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
_globals: dict[str, Path | None] = {}


def _context(
    corpus: Path | None, cache: Path | None, sources: Path | None, quiet: bool = False
) -> jobs.Context:
    corpus = (
        corpus or _globals.get("corpus") or Path(os.environ.get("RULESCORPUS_CORPUS", "corpus"))
    )
    default_cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rulescorpus"
    cache = (
        cache or _globals.get("cache") or Path(os.environ.get("RULESCORPUS_CACHE", default_cache))
    )
    sources = sources or _globals.get("sources")
    progress: jobs.Progress = (
        (lambda message: None) if quiet else (lambda message: err.print(f"[dim]{message}[/dim]"))
    )
    return jobs.Context(corpus_dir=corpus, cache_dir=cache, sources_file=sources, progress=progress)


def _run(call: Callable[[], T]) -> T:
    try:
        return call()
    except RulesCorpusError as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(exc.exit_code) from exc


def _finish(summary: RunSummary, report: Path | None = None, as_json: bool = False) -> None:
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
    _globals.update(corpus=corpus, cache=cache, sources=sources)


@app.command("sources")
def sources_cmd(
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """List the registry."""
    ctx = _context(corpus, cache, sources)
    registry = _run(ctx.registry)
    if as_json:
        print(json.dumps([s.model_dump(mode="json") for s in registry], indent=2))
        return
    from rich.table import Table

    table = Table(title="registry")
    for column in ("id", "document", "family", "rendition", "url or discovery page"):
        table.add_column(column)
    for s in registry:
        where = s.url or (f"discover on {s.discovery.page}" if s.discovery else "archive only")
        table.add_row(s.id, s.document, s.family, s.rendition + (" *" if s.primary else ""), where)
    out.print(table)
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
    ctx = _context(corpus, cache, sources)
    _finish(_run(lambda: jobs.fetch(ctx, source or [], mirror=mirror)))


class Rendition(StrEnum):
    txt = "txt"
    pdf = "pdf"
    html = "html"
    tar = "tar.gz"


@app.command("parse")
def parse_cmd(
    file: Path,
    family: Annotated[str, typer.Option(help="parser family, e.g. fab-cr")],
    version: Annotated[
        str | None, typer.Option(help="assert the version (text exports state none)")
    ] = None,
    document: Annotated[str | None, typer.Option(help="document id, e.g. fab/cr")] = None,
    rendition: Annotated[Rendition | None, typer.Option(help="default: from the file name")] = None,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Parse a local file; print its Document JSON on stdout, warnings on stderr."""
    from pipeline.jobs.parse_file import parse_file

    doc = _run(
        lambda: parse_file(
            file,
            family,
            version=version,
            document=document,
            rendition=rendition.value if rendition else None,
            registry=_context(corpus, cache, sources).registry(),
        )
    )
    sys.stdout.buffer.write(_canonical(doc))
    for warning in doc.warnings:
        where = f" line {warning.location.line}" if warning.location else ""
        err.print(f"warning [{warning.code}]{where}: {warning.message}", markup=False)
    for erratum in doc.publisher_errata:
        err.print(
            f"note: publisher erratum: {erratum.record} cites {erratum.cites}: {erratum.reason}",
            markup=False,
        )
    raise typer.Exit(EXIT_PARSE if doc.warnings else 0)


def _canonical(value: Any) -> bytes:
    from pipeline.store.corpus import canonical_json

    return canonical_json(value)


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
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """The scheduled job: fetch, verify, parse, store and diff. Exit 0/10/20/30/40/75."""
    ctx = _context(corpus, cache, sources, quiet=as_json)
    summary = _run(lambda: jobs.update(ctx, source or [], mirror=mirror, accept=accept))
    if notify and summary.exit_code != 0:
        from pipeline.jobs.notify import send_summary

        problem = send_summary(notify, summary, ctx.policy)
        if problem:
            err.print(f"warning: {problem}", markup=False)
    _finish(summary, report, as_json)


@app.command("import")
def import_cmd(
    archive_dir: Path,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
    report: Annotated[Path | None, typer.Option(help="also write the JSON summary here")] = None,
) -> None:
    """Backfill every version listed in ARCHIVE_DIR/manifest.json, oldest first."""
    ctx = _context(corpus, cache, sources, quiet=True)
    _finish(_run(lambda: archive.import_archive(ctx, archive_dir)), report)


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
    ctx = _context(corpus, cache, sources)
    _finish(
        _run(
            lambda: audit.verify(
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
    ctx = _context(corpus, cache, sources)
    _finish(_run(lambda: audit.accept(ctx, document, version)))


class DiffFormat(StrEnum):
    json = "json"
    md = "md"
    html = "html"


@app.command("diff")
def diff_cmd(
    document: str,
    old: str,
    new: str,
    format: Annotated[DiffFormat, typer.Option("--format")] = DiffFormat.md,
    hide_renumbering: bool = False,
    hide_reference_only: bool = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Changes between two stored versions (any two, not only adjacent ones)."""
    from pipeline.report.render import render_html, render_markdown

    ctx = _context(corpus, cache, sources)
    store = ctx.corpus

    def build() -> tuple[Any, Any, Any]:
        entry = store.document_entry(document)
        return (
            lookup.pair_diff(store, entry, document, old, new),
            store.load_document(document, old),
            store.load_document(document, new),
        )

    result, old_doc, new_doc = _run(build)
    if format is DiffFormat.json:
        sys.stdout.buffer.write(_canonical(result))
    elif format is DiffFormat.md:
        print(
            render_markdown(
                result,
                old_doc,
                new_doc,
                hide_renumbering=hide_renumbering,
                hide_reference_only=hide_reference_only,
            ),
            end="",
        )
    else:
        print(
            render_html(
                result,
                old_doc,
                new_doc,
                hide_renumbering=hide_renumbering,
                hide_reference_only=hide_reference_only,
            ),
            end="",
        )


@app.command("show")
def show_cmd(
    citation: str,
    doc: Annotated[str | None, typer.Option("--doc")] = None,
    version: str | None = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Print a rule (and its subrules) or a ruling, with where its bytes came from."""
    ctx = _context(corpus, cache, sources)
    shown = _run(lambda: lookup.show(ctx.corpus, citation, doc, version))
    if as_json:
        print(json.dumps(shown.as_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print_shown(out, shown)


@app.command("history")
def history_cmd(
    citation: str,
    doc: Annotated[str, typer.Option("--doc")],
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """The record's text in every stored version, following renumbering."""
    ctx = _context(corpus, cache, sources)
    steps = _run(lambda: lookup.history(ctx.corpus, citation, doc))
    print_history(out, citation, doc, steps)


@app.command("schema")
def schema_cmd(
    check: Annotated[bool, typer.Option(help="fail if schemas/ differs from the models")] = False,
    folder: Annotated[Path, typer.Option("--dir")] = Path("schemas"),
) -> None:
    """Write (or --check) the JSON Schemas of the corpus files."""
    from pipeline.jobs.schemas import stale_schemas, write_schemas

    if check:
        stale = stale_schemas(folder)
        if stale:
            err.print(
                f"schemas out of date in {folder}: {', '.join(stale)}; run `rulescorpus schema`"
            )
            raise typer.Exit(EXIT_VERIFY)
        out.print(f"schemas in {folder} match the models")
        return
    for name in write_schemas(folder):
        out.print(f"wrote {folder / name}")


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(EXIT_USAGE)
