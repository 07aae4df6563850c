"""`rulescorpus scheme FILE`: print the registry entry inferred for a numbered document."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import CacheOpt, CorpusOpt, SourcesOpt, app, run_job
from pipeline.cli.shared import err
from pipeline.errors import shorten


@app.command("scheme")
def scheme_cmd(
    file: Path,
    game: Annotated[str | None, typer.Option(help="game id (default: from the file name)")] = None,
    document: Annotated[
        str | None, typer.Option(help="document id, e.g. gundam/cr (default: GAME/cr)")
    ] = None,
    corpus: CorpusOpt = None,
    cache: CacheOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Infer a registry entry (TOML) for a numbered rules document; what was found on stderr."""
    from pipeline.runner.scheme_entry import infer_entry

    entry = run_job(lambda: infer_entry(file, game, document))
    for line in entry.report:
        err.print(shorten(line, one_line=True), markup=False, highlight=False, soft_wrap=True)
    print(entry.toml, end="")
