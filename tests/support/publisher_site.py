"""A publisher's site on 127.0.0.1 for `update`: a landing page linking the MTG text
export, the file itself, and a corpus whose registry discovers it there."""

from __future__ import annotations

from pathlib import Path

from pipeline.cli.shared import diff_renderers
from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs.context import Context
from tests.support.helpers import registry_file
from tests.support.mtg_sources import mtg_source
from tests.support.server import Reply, ScriptedServer

# Short timeouts and no real back-off: the server is local, and failures are scripted.
FAST = FetchPolicy(
    connect_timeout=2, read_timeout=3, deadline=4, retries=2, backoff=0.01, max_retry_after=0.2
)


def landing(file_name: str) -> Reply:
    """The rules page: a link to the text export among other links."""
    href = "/downloads/" + file_name.replace(" ", "%20")
    html = (
        f'<html><body><nav><a href="/">Home</a></nav><h1>Rules</h1>'
        f'<a href="{href}">Comprehensive Rules (TXT)</a>'
        f'<a href="/downloads/rules.docx">DOCX</a></body></html>'
    )
    return Reply(200, html.encode(), {"Content-Type": "text/html"})


def serve_version(
    server: ScriptedServer, path: Path, body: bytes | None = None, etag: str = '"v1"'
) -> None:
    """Publish `path` (or `body` under its name) behind the landing page."""
    server.serve("/en/rules", landing(path.name))
    server.serve(
        "/downloads/" + path.name.replace(" ", "%20"),
        Reply(
            200,
            body if body is not None else path.read_bytes(),
            {"ETag": etag, "Content-Type": "text/plain"},
        ),
    )


def discovering_context(tmp_path: Path, server: ScriptedServer) -> Context:
    """A corpus in tmp_path whose one source, the MTG text export, is found on the
    server's landing page."""
    discovery = {"page": server.url("/en/rules"), "link_pattern": r"MagicCompRules.*\.txt$"}
    registry = registry_file(tmp_path, [mtg_source(discovery=discovery)])
    return Context(
        corpus_dir=tmp_path / "corpus",
        cache_dir=tmp_path / "cache",
        sources_file=registry,
        policy=FAST,
        renderers=diff_renderers(),
    )
