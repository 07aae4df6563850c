"""`update`, the scheduled job, against real servers on 127.0.0.1 and the real MTG texts.

Every failure case ends with its documented exit code and a clear message, and
leaves the corpus folder byte-identical.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.errors import (
    EXIT_CHANGED,
    EXIT_FETCH,
    EXIT_LOCKED,
    EXIT_OK,
    EXIT_PARSE,
    EXIT_VERIFY,
    LockHeld,
)
from pipeline.jobs import update as jobs
from pipeline.jobs.context import Context
from pipeline.store.corpus import Corpus
from tests.support.helpers import SHARED, corpus_digest, registry_file
from tests.support.mtg_sources import mtg_source
from tests.support.publisher_site import FAST, discovering_context, serve_version
from tests.support.server import Reply, ScriptedServer, redirect

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

OLD = SHARED / "mtg/comprehensive-rules/20250725/MagicCompRules 20250725.txt"
NEW = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"


@pytest.fixture
def ctx(tmp_path: Path, server: ScriptedServer) -> Context:
    messages: list[str] = []
    context = discovering_context(tmp_path, server)
    context.progress = messages.append
    context.messages = messages  # type: ignore[attr-defined]
    return context


def stored(ctx: Context) -> Corpus:
    return Corpus(ctx.corpus_dir)


def test_new_version_is_stored_then_nothing_changes(ctx: Context, server: ScriptedServer) -> None:
    serve_version(server, OLD)
    first = jobs.update(ctx, [])
    assert first.exit_code == EXIT_CHANGED, first.outcomes
    assert [o.outcome for o in first.outcomes] == ["new"]
    assert stored(ctx).index().documents["mtg/cr"].current == "2025-07-25"
    assert (ctx.corpus_dir / stored(ctx).version_entry("mtg/cr", "2025-07-25").file).exists()
    before = corpus_digest(ctx.corpus_dir)
    ctx.messages.clear()  # type: ignore[attr-defined]

    file_path = "/downloads/MagicCompRules%2020250725.txt"
    server.serve(
        file_path,
        lambda r: (
            Reply(304)
            if r.headers.get("if-none-match") == '"v1"'
            else Reply(200, OLD.read_bytes(), {"ETag": '"v1"'})
        ),
    )
    second = jobs.update(ctx, [])
    assert second.exit_code == EXIT_OK
    assert [o.outcome for o in second.outcomes] == ["unchanged"]
    assert server.requests_for(file_path)[-1].headers.get("if-none-match") == '"v1"'
    assert not [m for m in ctx.messages if m.startswith("parsing")]  # type: ignore[attr-defined]
    assert corpus_digest(ctx.corpus_dir) == before


def test_next_version_is_diffed_against_the_current_one(
    ctx: Context, server: ScriptedServer
) -> None:
    serve_version(server, OLD)
    assert jobs.update(ctx, []).exit_code == EXIT_CHANGED
    serve_version(server, NEW, etag='"v2"')
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_CHANGED
    outcome = summary.outcomes[0]
    assert (outcome.version, outcome.previous) == ("2025-11-14", "2025-07-25")
    assert outcome.changes["added"] > 0 and outcome.changes["reworded"] > 0
    entry = stored(ctx).index().documents["mtg/cr"]
    assert entry.current == "2025-11-14"
    assert [(d.old, d.new) for d in entry.diffs] == [("2025-07-25", "2025-11-14")]
    assert (ctx.corpus_dir / entry.diffs[0].markdown).read_text().startswith("#")


def test_an_older_version_served_again_is_stored_but_never_current(
    ctx: Context, server: ScriptedServer
) -> None:
    """A publisher serving last year's file again: the version is stored beside the others,
    the current one stays current, and the report says why."""
    serve_version(server, NEW)
    assert jobs.update(ctx, []).exit_code == EXIT_CHANGED
    serve_version(server, OLD, etag='"v0"')
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_CHANGED
    (outcome,) = summary.outcomes
    assert outcome.version == "2025-07-25"
    assert "older than the current version 2025-11-14" in outcome.message
    entry = stored(ctx).index().documents["mtg/cr"]
    assert entry.current == "2025-11-14"
    assert [v.version for v in entry.versions] == ["2025-07-25", "2025-11-14"]
    assert entry.diffs == []


def test_new_bytes_under_a_pinned_version_fail_verification(
    ctx: Context, server: ScriptedServer
) -> None:
    serve_version(server, OLD)
    assert jobs.update(ctx, []).exit_code == EXIT_CHANGED
    before = corpus_digest(ctx.corpus_dir)
    tampered = OLD.read_bytes().replace(b"each player", b"every player", 1)
    assert tampered != OLD.read_bytes()
    serve_version(server, OLD, body=tampered, etag='"v1-tampered"')
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_VERIFY
    message = summary.outcomes[0].message
    assert "Expected" in message and "Got" in message and "2025-07-25" in message
    assert corpus_digest(ctx.corpus_dir) == before


def test_server_error_then_success_is_retried(ctx: Context, server: ScriptedServer) -> None:
    serve_version(server, OLD)
    path = "/downloads/MagicCompRules%2020250725.txt"
    server.script(path, [Reply(500, b"oops"), Reply(200, OLD.read_bytes(), {"ETag": '"v1"'})])
    assert jobs.update(ctx, []).exit_code == EXIT_CHANGED
    assert len(server.requests_for(path)) == 2


FAILURES = {
    "html-error-page": Reply(
        200, b"<!DOCTYPE html><html><body>Maintenance</body></html>", {"Content-Type": "text/html"}
    ),
    "truncated": Reply(200, b"Magic: The Gathering Comprehensive Rules\n", declared_length=9000),
    "over-size-cap": Reply(200, b"x" * 4_100_000),
    "redirect-elsewhere": redirect("http://example.invalid/rules.txt"),
    "slow-drip": Reply(200, b"Magic: The Gathering Comprehensive Rules " * 4, delay=0.5),
    "not-found": Reply(404, b"gone"),
}


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_fetch_failures_exit_30_and_leave_the_corpus_alone(
    case: str, ctx: Context, server: ScriptedServer
) -> None:
    serve_version(server, OLD)
    assert jobs.update(ctx, []).exit_code == EXIT_CHANGED
    before = corpus_digest(ctx.corpus_dir)
    serve_version(server, NEW)
    server.serve("/downloads/MagicCompRules%2020251114.txt", FAILURES[case])
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_FETCH, summary.outcomes
    message = summary.outcomes[0].message
    assert "mtg-cr-txt" in message and "MagicCompRules%2020251114.txt" in message
    assert corpus_digest(ctx.corpus_dir) == before


def test_a_document_that_does_not_decode_is_a_parse_failure(
    ctx: Context, server: ScriptedServer
) -> None:
    serve_version(server, OLD, body="Some other document\r\n1. Rules\r\n".encode("utf-16"))
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_PARSE
    assert "Magic: The Gathering Comprehensive Rules" in summary.outcomes[0].message
    assert not (ctx.corpus_dir / "index.json").exists()


def test_a_second_run_while_one_holds_the_lock_exits_75(ctx: Context) -> None:
    corpus = stored(ctx)
    with corpus.locked(), pytest.raises(LockHeld) as caught:
        jobs.update(ctx, [])
    assert caught.value.exit_code == EXIT_LOCKED
    assert ".lock" in str(caught.value)


def test_one_failing_document_does_not_hide_the_others(
    tmp_path: Path, server: ScriptedServer
) -> None:
    ok = mtg_source(url=server.url("/ok/MagicCompRules.txt"))
    broken = mtg_source(
        url=server.url("/broken.txt"), id="other-cr-txt", document="mtg/other", title="Broken"
    )
    registry = registry_file(tmp_path, [ok, broken])
    server.serve("/ok/MagicCompRules.txt", Reply(200, OLD.read_bytes()))
    server.serve("/broken.txt", Reply(503, b"down"))
    ctx = Context(
        corpus_dir=tmp_path / "corpus",
        cache_dir=tmp_path / "cache",
        sources_file=registry,
        policy=FAST,
        renderers=diff_renderers(),
    )
    summary = jobs.update(ctx, [])
    by_doc = {o.document: o for o in summary.outcomes}
    assert by_doc["mtg/cr"].outcome == "new"
    assert by_doc["mtg/other"].outcome == "fetch-failed"
    assert re.search(r"503", by_doc["mtg/other"].message)
    assert summary.exit_code == EXIT_FETCH
    assert Corpus(ctx.corpus_dir).index().documents["mtg/cr"].current == "2025-07-25"
