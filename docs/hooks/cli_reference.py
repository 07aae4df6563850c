"""MkDocs hook: the command-line reference page, rendered from the typer app at build time
(pipeline.cli.reference), so no one edits it by hand and it cannot drift."""

from __future__ import annotations

from typing import Any

from mkdocs.structure.files import File, Files

from pipeline.cli.reference import render_cli_reference

PAGE = "reference/cli.md"


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, PAGE, content=render_cli_reference()))
    return files
