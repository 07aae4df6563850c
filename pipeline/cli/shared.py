"""What every command's process shares, without typer: the two consoles, the global
options, the Context they build, and the parse command's choices."""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path

from rich.console import Console

from pipeline.cli.progress import TerminalProgress, quiet_progress
from pipeline.errors import RulesCorpusError
from pipeline.jobs.context import Context, DiffRenderers, Progress

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
# The global options given before the command (`rulescorpus --corpus DIR show ...`).
GLOBALS: dict[str, Path | None] = {}


class Rendition(StrEnum):
    txt = "txt"
    pdf = "pdf"
    md = "md"
    html = "html"
    tar = "tar.gz"


class PdfEngine(StrEnum):
    pdfium = "pdfium"
    pdfplumber = "pdfplumber"


def make_context(
    corpus: Path | None,
    cache: Path | None,
    sources: Path | None,
    quiet: bool = False,
    renderers: DiffRenderers | None = None,
) -> Context:
    corpus = corpus or GLOBALS.get("corpus") or Path(os.environ.get("RULESCORPUS_CORPUS", "corpus"))
    default_cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rulescorpus"
    cache = (
        cache or GLOBALS.get("cache") or Path(os.environ.get("RULESCORPUS_CACHE", default_cache))
    )
    sources = sources or GLOBALS.get("sources")
    progress: Progress = quiet_progress if quiet else TerminalProgress(err)
    return Context(
        corpus_dir=corpus,
        cache_dir=cache,
        sources_file=sources,
        progress=progress,
        renderers=renderers,
    )


def diff_renderers() -> DiffRenderers:
    """report/'s Markdown and HTML of a diff, which a publishing job stores beside its JSON.
    Loaded by the commands that publish alone: the others never render a diff."""
    from pipeline.report.html import render_html
    from pipeline.report.markdown import render_markdown

    return DiffRenderers(markdown=render_markdown, html=render_html)


def print_error(exc: RulesCorpusError) -> int:
    """A library error as every command prints it (one line on stderr); its exit code."""
    # One line, however long: a log or a script reads it whole.
    err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
    return exc.exit_code
