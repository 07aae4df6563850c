"""`rulescorpus site OUT` and `update`/`import --site OUT`: the corpus as a static website.

The job holds no lock: the site reads the corpus through `pipeline.corpus`, which sees
only what `index.json` has committed, and writes nothing inside the corpus."""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import EXIT_CHANGED, EXIT_OK, RulesCorpusError
from pipeline.jobs.context import Context
from pipeline.jobs.outcomes import Outcome, RunSummary
from pipeline.site import SiteBuilt, build_site


def write_site(
    ctx: Context,
    out: Path,
    documents: list[str] | None = None,
    *,
    base_url: str | None = None,
    force: bool = False,
) -> SiteBuilt:
    return build_site(ctx.corpus_dir, out, documents, base_url=base_url, force=force)


def refresh_site(ctx: Context, out: Path | None, summary: RunSummary) -> SiteBuilt | None:
    """After a run that ended well (0 or 10), bring the site at `out` up to date, rewriting
    only the pages whose content changed. A failed build is one more outcome of the run,
    so its exit code is the run's."""
    if out is None or summary.exit_code not in (EXIT_OK, EXIT_CHANGED):
        return None
    try:
        return write_site(ctx, out)
    except RulesCorpusError as exc:
        summary.outcomes.append(
            Outcome(
                document=f"site {out}",
                outcome="site-failed",
                exit_code=exc.exit_code,
                message=str(exc),
            )
        )
        return None
