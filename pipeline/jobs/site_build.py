"""`rulescorpus site OUT` and `update`/`import --site OUT`: the corpus as a static website.

The job holds no corpus lock: the site reads the corpus through `pipeline.corpus`, which
sees only what `index.json` has committed, and writes nothing inside the corpus or the
cache (the site refuses an OUT inside or around either). The site's folder has a lock of
its own."""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import (
    EXIT_BUG,
    EXIT_CHANGED,
    EXIT_IO,
    EXIT_OK,
    RulesCorpusError,
    shorten,
)
from pipeline.jobs.context import Context
from pipeline.jobs.outcomes import Outcome, RunSummary
from pipeline.site import SiteBuilt, build_site


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
