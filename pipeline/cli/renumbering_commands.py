"""The renumbering commands: `renumbering` (the map between two stored versions) and
`cite-check` (stale rule citations in files, or in the corpus's own rulings)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import CacheOpt, CorpusOpt, JsonOpt, SourcesOpt, app, run_job
from pipeline.cli.read_arguments import check_document, check_version
from pipeline.cli.shared import err, make_context
from pipeline.cli.shared import out as console
from pipeline.errors import NAME_LENGTH, shorten
from pipeline.jobs.context import Context


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
    changed at the same number; the maps of consecutive versions composed along the chain."""
    from pipeline.corpus.renumbering import renumbering
    from pipeline.corpus.stored import StoredCorpus
    from pipeline.report.output import render_renumbering

    ctx = make_context(corpus, cache, sources)
    run_job(lambda: check_versions(ctx, document, old, new))
    rmap = run_job(lambda: renumbering(StoredCorpus(ctx.corpus_dir), document, old, new))
    shown = run_job(lambda: render_renumbering(rmap, format=format.value))
    sys.stdout.buffer.write(shown)


def check_versions(ctx: Context, document: str, *versions: str | None) -> None:
    check_document(ctx, document)
    for version in versions:
        if version is not None:
            check_version(ctx, document, version)


def _describe(c: object) -> str:
    from pipeline.jobs.cite_check import Cited

    assert isinstance(c, Cited)
    if c.status == "renumbered":
        ids = " + ".join(c.new_ids) if len(c.new_ids) > 1 else (c.new_id or "")
        how = c.change or "renumbered"
        if c.text_change:
            how += f", text {c.text_change}"
        text = f"renumbered → {ids} ({how}{'; weak pairing, check it' if c.weak else ''})"
    elif c.status == "changed":
        text = f"changed: {c.change}"
    elif c.status == "removed":
        text = "removed"
    elif c.status == "never-existed":
        text = "never existed"
    else:
        text = "current"
    return text + (f" [{c.note}]" if c.note else "")


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
    from pipeline.errors import EXIT_IO, UsageError
    from pipeline.jobs import cite_check as cc
    from pipeline.jobs import cite_fixes

    ctx = make_context(corpus, cache, sources, quiet=True)
    files = list(paths or [])

    def check() -> cc.CiteReport:
        if not doc:
            raise UsageError("cite-check needs --doc DOC (the rules document the files cite)")
        check_versions(ctx, doc, as_of)
        cc.check_args(files, rulings)
        protected = [(ctx.cache_dir, "the cache")]
        report = cc.cite_check(ctx.corpus, doc, files, as_of, protected) if files else None
        if rulings is not None:
            extra = cc.check_rulings(ctx.corpus, doc, rulings)
            if report is None:
                return extra
            report.citations += extra.citations
            report.as_of.update(extra.as_of)
        assert report is not None
        return report

    report = run_job(check)
    for note in report.notes:
        err.print(
            f"note: {shorten(note, one_line=True)}", markup=False, highlight=False, soft_wrap=True
        )
    if as_json:
        print(json.dumps(report.as_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        for c in report.citations:
            console.print(
                shorten(
                    f"{c.file}:{c.line}:{c.column}  {c.written}  {_describe(c)}", one_line=True
                ),
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        sys.stdout.flush()
        counts = ", ".join(f"{n} {s}" for s, n in report.counts().items() if n)
        written_for = sorted({v for v in report.as_of.values() if v})
        err.print(
            f"{len(report.citations)} citations of {report.document} "
            f"(written for {', '.join(written_for) or 'no stored version'}; current "
            f"{report.current}): {counts or 'none found'}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if fix:
        fixes = cc.plan_fixes(report)
        if yes:
            results = cite_fixes.write_fixes(fixes, break_hard_links=break_hard_links)
            for result in results:
                said = shorten(result.line(), one_line=True)
                err.print(said, markup=False, highlight=False, soft_wrap=True)
            if not fixes:
                err.print("nothing to fix", markup=False)
            for file, version in sorted(cc.left_for_a_person(report, fixes).items()):
                err.print(
                    f"{shorten(str(file), NAME_LENGTH, one_line=True)} keeps citations for a "
                    f"person to check; check it again with "
                    f"--as-of {version} (it now mixes old and new numbers)",
                    markup=False,
                    highlight=False,
                    soft_wrap=True,
                )
            if cite_fixes.partial(results):
                done = sum(r.state == "changed" for r in results)
                err.print(
                    f"the fix was partial: {done} of {len(results)} files written",
                    markup=False,
                )
                raise typer.Exit(EXIT_IO)
            raise typer.Exit(cc.exit_after_fixes(report, fixes))
        else:
            for f in fixes:
                sys.stdout.write(f.unified_diff())
            if fixes:
                err.print("(a dry run: add --yes to write these changes)", markup=False)
                # A check in CI that would rewrite something has found stale citations.
                raise typer.Exit(max(report.exit_code, 1))
    raise typer.Exit(report.exit_code)
