"""The reading commands: diff, show, history, search, schema, each answered by `corpus`."""

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
    DocOpt,
    JsonOpt,
    SourcesOpt,
    VersionOpt,
    app,
    run_job,
)
from pipeline.cli.console import print_history, print_hits, print_shown
from pipeline.cli.read_arguments import check_read_arguments, current_version
from pipeline.cli.shared import err, make_context, out
from pipeline.cli.show_text import provenance_lines
from pipeline.errors import EXIT_VERIFY, MESSAGE_LINE, shorten


class DiffFormat(StrEnum):
    json = "json"
    md = "md"
    html = "html"


@app.command("diff")
def diff_cmd(
    document: str,
    old: str,
    new: Annotated[str | None, typer.Argument(help="default: the current version")] = None,
    format: Annotated[
        DiffFormat, typer.Option("--format", help="a Markdown changelog, JSON or an HTML report")
    ] = DiffFormat.md,
    hide_renumbering: Annotated[
        bool, typer.Option("--hide-renumbering", help="leave renumbered records out")
    ] = False,
    hide_reference_only: Annotated[
        bool,
        typer.Option("--hide-reference-only", help="leave out changes of cited numbers only"),
    ] = False,
    min_similarity: Annotated[
        float | None,
        typer.Option(
            "--min-similarity",
            min=0.0,
            max=1.0,
            help="pair records on similarity or structure only at this share of words in "
            "common or more (defaults 0.7 and 0.5); re-diffs instead of reading the stored diff",
        ),
    ] = None,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Changes between two stored versions (any two, not only adjacent ones); NEW defaults to
    the current version."""
    from pipeline.corpus.diffs import diff_between
    from pipeline.report.output import render_diff

    ctx = make_context(corpus, cache, sources)
    stored = run_job(lambda: check_read_arguments(ctx, document, old, new)).stored
    newer = new or run_job(lambda: current_version(stored, document))
    diff, old_doc, new_doc = run_job(
        lambda: diff_between(stored, document, old, newer, min_similarity=min_similarity)
    )
    shown = run_job(
        lambda: render_diff(
            diff,
            old_doc,
            new_doc,
            format=format.value,
            hide_renumbering=hide_renumbering,
            hide_reference_only=hide_reference_only,
        )
    )
    sys.stdout.buffer.write(shown)


@app.command("show")
def show_cmd(
    citation: str,
    doc: DocOpt = None,
    version: VersionOpt = None,
    as_json: JsonOpt = False,
    provenance: Annotated[
        bool, typer.Option("--provenance", help="also the record's full provenance and digests")
    ] = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Print a rule (and its subrules), glossary term or ruling, with where its bytes came from.

    CITATION as people write it: cr:702.19c, 702.19c, CR 702.19c, rule 702.19c, 702.19C,
    glossary:Trample or Trample."""
    ctx = make_context(corpus, cache, sources)
    reader = run_job(lambda: check_read_arguments(ctx, doc, version))
    shown = run_job(lambda: reader.show(citation, doc, version))
    details = (
        run_job(lambda: reader.provenance(shown.document, shown.record.id, shown.version))
        if provenance
        else None
    )
    if as_json:
        data = shown.as_json() | ({"record_provenance": details.as_dict()} if details else {})
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print_shown(out, shown.as_json())
        if shown.now is not None:
            line = shorten(where_now_line(shown.record.id, shown.now), None, one_line=True)
            out.print(f"\n{line}", markup=False, highlight=False, soft_wrap=True)
        if details:
            print_record_provenance(details.as_dict())


def print_record_provenance(p: dict[str, Any]) -> None:
    """The `--provenance` block: every fact that ties the record to its bytes."""
    out.print("")
    out.print("Provenance", style="bold")
    for label, value in provenance_lines(p):
        line = f"  {label + ':':<15}{shorten(value, MESSAGE_LINE, one_line=True)}"
        out.print(line, markup=False, highlight=False, soft_wrap=True)


def where_now_line(citation: str, now: dict[str, Any]) -> str:
    """`show --version OLD`: one sentence saying where that rule lives in the current version."""
    version, status, ident = now["version"], now["status"], now["id"]
    check = " (a weak pairing: check it)" if now.get("weak") else ""
    if status == "removed":
        return f"Now: {citation} is no longer in {version}: the rule was removed{check}."
    if status == "renumbered":
        ids = ", ".join(now.get("ids") or [ident])
        how = f"{now['class']}" + (f", text {now['text_change']}" if now.get("text_change") else "")
        return f"Now: in {version} this rule lives at {ids} ({how}){check}."
    if status == "changed":
        return f"Now: in {version} this rule is still {ident}, {now['class']}{check}."
    return f"Now: in {version} this rule is still {ident}, unchanged in substance."


@app.command("history")
def history_cmd(
    citation: str,
    doc: DocOpt = None,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """The record's text in every stored version, following renumbering."""
    ctx = make_context(corpus, cache, sources)
    reader = run_job(lambda: check_read_arguments(ctx, doc))
    # Without --doc, the document is the one `show` would answer from.
    document = doc or run_job(lambda: reader.show(citation).document)
    steps = run_job(lambda: reader.history(document, citation))
    print_history(out, citation, document, steps)


@app.command("search")
def search_cmd(
    words: Annotated[list[str], typer.Argument(help="the words to find (every one)")],
    doc: Annotated[
        str | None, typer.Option("--doc", help="only this document [default: every document]")
    ] = None,
    version: VersionOpt = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="at most this many hits")] = 20,
    as_json: JsonOpt = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Rules, glossary terms and rulings holding every word, best first, with citations.

    Searches the current version of every document (or --doc, at --version); no export
    needed. Exit 0 with hits, 1 with none."""
    ctx = make_context(corpus, cache, sources)
    reader = run_job(lambda: check_read_arguments(ctx, doc, version))
    query = " ".join(words)
    hits = run_job(lambda: reader.search(query, document=doc, version=version, limit=limit))
    if as_json:
        data = {"query": query, "hits": [h.as_dict() for h in hits]}
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print_hits(out, query, hits)
    if not hits:
        raise typer.Exit(1)


@app.command("schema")
def schema_cmd(
    check: Annotated[bool, typer.Option(help="fail if schemas/ differs from the models")] = False,
    folder: Annotated[Path, typer.Option("--dir", help="the folder of the JSON Schemas")] = Path(
        "schemas"
    ),
) -> None:
    """Write (or --check) the JSON Schemas of the corpus files."""
    if check:
        stale = stale_schemas(folder)
        if stale:
            said = f"schemas out of date in {folder}: {', '.join(stale)}; run `rulescorpus schema`"
            err.print(shorten(said, one_line=True), markup=False, highlight=False)
            raise typer.Exit(EXIT_VERIFY)
        said = shorten(f"schemas in {folder} match the models", one_line=True)
        out.print(said, markup=False, highlight=False)
        return
    for name in write_schemas(folder):
        out.print(shorten(f"wrote {folder / name}", one_line=True), markup=False, highlight=False)


def write_schemas(folder: Path) -> list[str]:
    from pipeline.models.schemas import render_schemas

    folder.mkdir(parents=True, exist_ok=True)
    for name, data in render_schemas().items():
        (folder / name).write_bytes(data)
    return sorted(render_schemas())


def stale_schemas(folder: Path) -> list[str]:
    """Schema files that differ from what the models generate (missing ones included)."""
    from pipeline.models.schemas import render_schemas

    stale = []
    for name, data in render_schemas().items():
        path = folder / name
        if not path.exists() or path.read_bytes() != data:
            stale.append(name)
    return stale
