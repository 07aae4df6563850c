"""`rulescorpus site OUT [DOC...]` and `update`/`import --site OUT`: the corpus as a static
website. The site is a reader of the corpus, so the command line runs it after the job.

The site step holds no corpus lock: the site reads the corpus through `pipeline.corpus`,
which sees only what `index.json` has committed, and writes nothing inside the corpus or
the cache (the site refuses an OUT inside or around either). The site's folder has a lock
of its own."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.cli.common import CacheOpt, CorpusOpt, SourcesOpt, app, run_job
from pipeline.cli.shared import err, make_context, out
from pipeline.errors import (
    EXIT_BUG,
    EXIT_CHANGED,
    EXIT_IO,
    EXIT_OK,
    RulesCorpusError,
    shorten,
)
from pipeline.jobs.context import Context
from pipeline.jobs.outcomes import RunSummary
from pipeline.models.outcomes import Outcome

if TYPE_CHECKING:
    from pipeline.site.build import SiteBuilt

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


def guarded_folders(ctx: Context) -> list[tuple[Path, str]]:
    """Folders the site never writes into, beside the corpus."""
    found = [(ctx.cache_dir, "the cache")]
    if ctx.parse_cache_dir is not None:
        found.append((ctx.parse_cache_dir, "the parse cache"))
    return found


def write_site(
    ctx: Context,
    out: Path,
    documents: list[str] | None = None,
    *,
    base_url: str | None = None,
    force: bool = False,
) -> SiteBuilt:
    from pipeline.site.build import build_site

    return build_site(
        ctx.corpus_dir, out, documents, base_url=base_url, force=force,
        guarded=guarded_folders(ctx),
    )  # fmt: skip


def refresh_site(ctx: Context, out: Path | None, summary: RunSummary) -> SiteBuilt | None:
    """After a run that ended well (0 or 10), bring the site at `out` up to date, rewriting
    only the pages whose content changed. A failed build is one more outcome of the run,
    so its exit code is the run's, and the run's report (and `--report` file) is still
    written: the corpus has been committed whatever the site does."""
    if out is None or summary.exit_code not in (EXIT_OK, EXIT_CHANGED):
        return None
    try:
        return write_site(ctx, out)
    except RulesCorpusError as exc:
        code, message = exc.exit_code, str(exc)
    except OSError as exc:
        code, message = EXIT_IO, f"{out}: {exc.strerror or exc}"
    except Exception as exc:  # a bug of the site's: the committed run still reports
        code, message = EXIT_BUG, f"internal error while building the site: {exc!r}"
    summary.outcomes.append(
        Outcome(
            document=f"site {shorten(str(out), 200)}",
            outcome="site-failed",
            exit_code=code,
            message=shorten(
                f"{message} (the run's changes to the corpus are committed; only the site "
                "was not brought up to date)"
            ),
        )
    )
    return None
