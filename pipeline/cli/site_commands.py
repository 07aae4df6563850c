"""`rulescorpus site OUT [DOC...]`: the corpus as a static website."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import CacheOpt, CorpusOpt, SourcesOpt, app, run_job
from pipeline.cli.shared import err, make_context, out
from pipeline.errors import shorten
from pipeline.jobs.context import Context
from pipeline.jobs.outcomes import RunSummary

SiteOpt = Annotated[
    Path | None,
    typer.Option(
        "--site", help="then rewrite the changed pages of the static website in this folder"
    ),
]


@app.command("site")
def site_cmd(
    out_dir: Annotated[Path, typer.Argument(metavar="OUT", help="the site's folder")],
    document: Annotated[
        list[str] | None, typer.Argument(metavar="[DOC]...", help="only these documents")
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", help="where the site will be hosted (absolute feed links)"),
    ] = None,
    force: Annotated[
        bool, typer.Option(help="write into a non-empty folder rulescorpus did not make")
    ] = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Write the corpus as a static website: a page per rule, old numbers, changes, feeds,
    search. Open OUT/index.html or host the folder anywhere."""
    from pipeline.jobs.site_build import write_site

    ctx = make_context(corpus, cache, sources)
    built = run_job(
        lambda: write_site(ctx, out_dir, document or [], base_url=base_url, force=force)
    )
    out.print(
        shorten(
            f"wrote {built.root}: {built.pages} pages of {', '.join(built.documents)}; "
            f"{len(built.written)} files changed, {len(built.removed)} removed, "
            f"{built.bytes:,} bytes",
            one_line=True,
        ),
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


def refresh_site_after(ctx: Context, path: Path | None, summary: RunSummary) -> None:
    """`update`/`import --site OUT`, after a run that ended 0 or 10."""
    from pipeline.jobs.site_build import refresh_site

    built = refresh_site(ctx, path, summary)
    if built is not None:
        err.print(
            shorten(
                f"site {built.root}: {len(built.written)} files changed, "
                f"{len(built.removed)} removed",
                one_line=True,
            ),
            markup=False,
            highlight=False,
        )
