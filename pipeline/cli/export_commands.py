"""`rulescorpus export sqlite PATH`: the corpus as a SQLite database for Datasette."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import CacheOpt, CorpusOpt, SourcesOpt, app, run_job
from pipeline.cli.shared import err, make_context, out
from pipeline.errors import EXIT_CHANGED, EXIT_OK, RulesCorpusError, shorten
from pipeline.jobs.context import Context
from pipeline.jobs.outcomes import RunSummary
from pipeline.models.outcomes import Outcome

export_app = typer.Typer(no_args_is_help=True, help="Write the corpus in another format.")
app.add_typer(export_app, name="export")


@export_app.command("sqlite")
def export_sqlite_cmd(
    path: Path,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="replace PATH even when it is not a database this command made"
        ),
    ] = False,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Write the corpus to the SQLite database PATH, with full-text indexes, and Datasette's
    metadata beside it (PATH's stem + .metadata.json). PATH is replaced whole when it is
    absent or a database this command made; anything else needs --force; never a file
    inside the corpus."""
    from pipeline.export.sqlite import export_sqlite

    ctx = make_context(corpus, cache, sources)
    done = run_job(lambda: export_sqlite(ctx.corpus_dir, path, force=force))
    rows = ", ".join(f"{name} {count}" for name, count in done.rows.items() if count)
    for line in (f"wrote {done.path} ({rows})", f"wrote {done.metadata}"):
        out.print(shorten(line, one_line=True), markup=False, highlight=False, soft_wrap=True)


SqliteOpt = Annotated[
    Path | None,
    typer.Option("--sqlite", help="then re-export the corpus to this SQLite database (exit 0/10)"),
]


def refresh_sqlite(ctx: Context, path: Path | None, summary: RunSummary) -> None:
    """`update`/`import --sqlite PATH`: keep the database current after a run that ended
    well (0 or 10). A failed export is one more outcome, so its exit code is the run's."""
    if path is None or summary.exit_code not in (EXIT_OK, EXIT_CHANGED):
        return
    from pipeline.export.sqlite import export_sqlite

    try:
        done = export_sqlite(ctx.corpus_dir, path)
    except RulesCorpusError as exc:
        summary.outcomes.append(
            Outcome(
                document=f"sqlite {path}",
                outcome="export-failed",
                exit_code=exc.exit_code,
                message=str(exc),
            )
        )
        return
    said = shorten(f"exported the corpus to {done.path}", one_line=True)
    err.print(said, markup=False, highlight=False, soft_wrap=True)
