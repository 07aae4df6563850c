"""What the read-side tests share: a corpus of a few real documents, and `rulescorpus` run
against it in a process of its own, as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from tests.support.helpers import ROOT, SHARED, link_archive


def import_real(
    root: Path, wanted: Callable[[dict[str, Any]], bool], parse_cache_dir: Path
) -> Path:
    """root/corpus: the manifest's entries `wanted` picks, imported from ../shared/sources
    through the session's parse cache (each real file is parsed once per run)."""
    manifest = json.loads((SHARED / "manifest.json").read_text())
    entries = [entry for entry in manifest if wanted(entry)]
    ctx = Context(
        root / "corpus",
        root / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )
    assert import_archive(ctx, link_archive(root / "archive", entries)).exit_code == EXIT_OK
    return root / "corpus"


def rulescorpus(
    corpus: Path, *args: str, full: bool = False, columns: int = 100
) -> subprocess.CompletedProcess[str]:
    """`rulescorpus --corpus CORPUS ARGS` on a terminal `columns` wide: through `main`,
    which answers the plain read requests itself, or (`full`) the typer app alone, as the
    plain path would fall back."""
    code = (
        "from pipeline.cli.commands import app; app()"
        if full
        else "from pipeline.cli.app import main; main()"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": str(columns)}
    return subprocess.run(
        [sys.executable, "-c", code, "--corpus", str(corpus), *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def modules_loaded(argv: list[str], modules: Sequence[str]) -> str:
    """`CODE [LOADED]`: the plain path's exit code for `argv`, and which of `modules` it
    loaded on the way."""
    code = (
        "import sys; from pipeline.cli.quick import try_quick; "
        f"code = try_quick({argv!r}); "
        f"print(code, [m for m in {list(modules)!r} if m in sys.modules])"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    return done.stdout.strip() + done.stderr
