"""The reading commands: diff, show, history, schema."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from pipeline.cli.common import (
    CacheOpt,
    CorpusOpt,
    SourcesOpt,
    app,
    canonical,
    err,
    make_context,
    out,
    run_job,
)
from pipeline.cli.console import print_history, print_shown
from pipeline.errors import EXIT_VERIFY
from pipeline.jobs import show as lookup


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

    ctx = make_context(corpus, cache, sources)
    store = ctx.corpus

    def build() -> tuple[Any, Any, Any]:
        entry = store.document_entry(document)
        return (
            lookup.pair_diff(store, entry, document, old, new),
            store.load_document(document, old),
            store.load_document(document, new),
        )

    result, old_doc, new_doc = run_job(build)
    if format is DiffFormat.json:
        sys.stdout.buffer.write(canonical(result))
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
    provenance: Annotated[
        bool, typer.Option("--provenance", help="also the record's full provenance and digests")
    ] = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Print a rule (and its subrules) or a ruling, with where its bytes came from."""
    ctx = make_context(corpus, cache, sources)
    shown = run_job(lambda: lookup.show(ctx.corpus, citation, doc, version))
    details = run_job(lambda: lookup.record_provenance(ctx.corpus, shown)) if provenance else None
    if as_json:
        data = shown.as_json() | ({"record_provenance": details} if details else {})
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print_shown(out, shown)
        if details:
            print_record_provenance(details)


def print_record_provenance(p: dict[str, Any]) -> None:
    """The `--provenance` block: every fact that ties the record to its bytes."""
    where = ", ".join(f"{k} {v}" for k, v in p["location"].items() if v is not None)
    engine = " ".join(x for x in (p["engine"], p["engine_version"]) if x)
    lines = [
        ("Document", f"{p['title']} ({p['document']}), version {p['version']}"),
        ("Source URL", p["url"] or "none known"),
        ("SHA-256", f"{p['sha256']} ({p['bytes']} bytes)"),
        ("Retrieved", f"{p['retrieved'] or 'not recorded'} from {p['retrieved_from'] or '-'}"),
        ("Rendition", p["rendition"] or "-"),
        ("Parser", f"{p['parser_family']} {p['parser_version']}"),
        ("Extraction", engine or "the document records no extraction engine"),
        ("Location", where or "not recorded"),
        ("Record JSON", f"SHA-256 {p['record_sha256']} (canonical JSON of the record)"),
        ("Document JSON", f"SHA-256 {p['document_sha256']} (canonical JSON of the version)"),
    ]
    out.print("")
    out.print("Provenance", style="bold")
    for label, value in lines:
        out.print(f"  {label + ':':<15}{value}", markup=False, highlight=False, soft_wrap=True)


@app.command("history")
def history_cmd(
    citation: str,
    doc: Annotated[str, typer.Option("--doc")],
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """The record's text in every stored version, following renumbering."""
    ctx = make_context(corpus, cache, sources)
    steps = run_job(lambda: lookup.history(ctx.corpus, citation, doc))
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
