"""The search index: Pagefind (the `pagefind[bin]` package ships its binary) reads copies
of the pages the build wrote (never the site's folder, which may hold a person's own pages)
and writes a static index the search page queries in the browser.

One index per document (`pagefind/<game>/<doc>/`): the search page merges them, each
with the game and document its results come from as a filter of its own, so a reader
chooses them. (Pagefind's own filter index is written in an order that differs from run
to run; an index per document keeps the same corpus giving the same bytes.)

It writes into a folder of its own first; the site then takes each file through the
same rewrite-only-if-changed path as its pages."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pipeline.errors import UsageError

INDEX_DIR = "pagefind"
# A document's pages that carry text to find: contents, rules, changes, rulings. Older
# versions' pages are not read at all: a search finds the rule as it stands.
INDEXED = "{index.html,*/index.html,changes/*/index.html,rulings/*/index.html}"
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


def index_folder(document: str) -> str:
    return f"{INDEX_DIR}/{document}"


def build_index(site_root: Path, documents: list[str]) -> Iterator[tuple[str, bytes]]:
    """(path under the site, bytes) of every file of the search indexes of these
    documents' pages under site_root."""
    binary = pagefind_binary()
    for document in documents:
        yield from _document_index(binary, site_root, document)


def _document_index(binary: Path, site_root: Path, document: str) -> Iterator[tuple[str, bytes]]:
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
                    "--glob",
                    f"{document}/{INDEXED}",
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
                name = path.relative_to(output).as_posix()
                yield f"{index_folder(document)}/{name}", path.read_bytes()
