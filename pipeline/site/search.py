"""The search index: Pagefind (the `pagefind[bin]` package ships its binary) reads copies
of the pages the build wrote (never the site's folder, which may hold a person's own pages)
and writes a static index the search page queries in the browser.

It writes into a folder of its own first; the site then takes each file through the
same rewrite-only-if-changed path as its pages."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pipeline.errors import UsageError

INDEX_DIR = "pagefind"
INDEXED = "{index.html,*/*/index.html,*/*/*/index.html,*/*/changes/*/index.html}"
_TIMEOUT = 600.0


def pagefind_binary() -> Path:
    try:
        from pagefind_bin import get_executable
    except ImportError as exc:
        raise UsageError(
            "the site's search index needs Pagefind; install it with "
            "`pip install 'pagefind[bin]'` (a dependency of rulescorpus)"
        ) from exc
    return Path(get_executable())


def build_index(site_root: Path) -> Iterator[tuple[str, bytes]]:
    """(path under the site, bytes) of every file of the search index for the pages
    under site_root."""
    binary = pagefind_binary()
    with tempfile.TemporaryDirectory(prefix="rulescorpus-pagefind-") as temp:
        output = Path(temp) / INDEX_DIR
        try:
            done = subprocess.run(
                [
                    str(binary),
                    "--site",
                    str(site_root),
                    "--output-path",
                    str(output),
                    # results link to .../index.html, which opens from disk as well
                    "--keep-index-url",
                    # the pages that carry text to find (home, contents, rules, changes);
                    # old numbers' pages, often the most numerous, are not read at all
                    "--glob",
                    INDEXED,
                ],
                capture_output=True,
                text=True,
                timeout=_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UsageError(f"the search index could not be built: {exc}") from exc
        if done.returncode != 0:
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
            raise UsageError(f"the search index could not be built: pagefind said {last[0]}")
        for path in sorted(output.rglob("*")):
            if path.is_file():
                yield f"{INDEX_DIR}/{path.relative_to(output).as_posix()}", path.read_bytes()
