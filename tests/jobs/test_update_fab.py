"""FaB end to end: the text export (which states no version) and a PDF rendition served on
127.0.0.1. The version comes from the PDF's title page when the two agree; a disagreement
fails verification; a version with warnings is staged until a maintainer accepts it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.corpus import open_corpus
from pipeline.errors import EXIT_CHANGED, EXIT_FETCH, EXIT_OK, EXIT_PARSE, EXIT_VERIFY
from pipeline.extract.poppler import pdftotext
from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs import update as jobs
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context
from pipeline.store.corpus import Corpus
from tests.support.fab_typeset import content, typeset
from tests.support.helpers import corpus_digest, registry_file
from tests.support.server import Reply, ScriptedServer

FAST = FetchPolicy(connect_timeout=2, read_timeout=5, deadline=30, retries=1, backoff=0.01)


def text_bytes() -> bytes:
    return ("\n".join(content()[1]) + "\n").encode("utf-8")


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer() as srv:
        srv.serve("/txt/latest/en-fab-cr.txt", Reply(200, text_bytes(), {"ETag": '"t1"'}))
        srv.serve("/pdf/en-fab-cr.pdf", Reply(200, typeset().pdf, {"ETag": '"p1"'}))
        yield srv


@pytest.fixture
def ctx(tmp_path: Path, server: ScriptedServer) -> Context:
    common = {
        "game": "fab",
        "document": "fab/cr",
        "title": "Flesh and Blood Comprehensive Rules",
        "family": "fab-cr",
    }
    registry = registry_file(
        tmp_path,
        [
            {
                "id": "fab-cr-txt",
                **common,
                "rendition": "txt",
                "primary": True,
                "url": server.url("/txt/latest/en-fab-cr.txt"),
            },
            {
                "id": "fab-cr-pdf",
                **common,
                "rendition": "pdf",
                "url": server.url("/pdf/en-fab-cr.pdf"),
            },
        ],
    )
    return Context(
        corpus_dir=tmp_path / "corpus",
        cache_dir=tmp_path / "cache",
        sources_file=registry,
        policy=FAST,
        renderers=diff_renderers(),
    )


def test_text_takes_its_version_from_the_agreeing_pdf(ctx: Context) -> None:
    summary = jobs.update(ctx, [], accept=True)
    assert summary.exit_code == EXIT_CHANGED, summary.outcomes
    outcome = summary.outcomes[0]
    assert (outcome.outcome, outcome.version) == ("new", "2.14.0")
    corpus = Corpus(ctx.corpus_dir)
    doc = corpus.load_document("fab/cr", "2.14.0")
    assert doc.source is not None and doc.source.rendition == "txt"
    assert sorted(r.rendition for r in doc.renditions) == ["pdf", "txt"]
    assert {(p.rendition, p.version) for p in corpus.lock().pins} == {
        ("txt", "2.14.0"),
        ("pdf", "2.14.0"),
    }


def test_version_with_warnings_is_staged_then_accepted(ctx: Context) -> None:
    summary = jobs.update(ctx, [])
    outcome = summary.outcomes[0]
    # the slice ends before FaB's glossary and back matter, so the rules outside it that
    # it cites may be rules the parser lost: each citation is a warning, not a note
    assert outcome.warnings > 1 and outcome.notes == []
    assert (outcome.outcome, summary.exit_code) == ("staged", EXIT_PARSE)
    assert "rulescorpus accept fab/cr 2.14.0" in outcome.message
    corpus = Corpus(ctx.corpus_dir)
    assert corpus.index().documents["fab/cr"].current is None
    assert corpus.lock().pins == []

    accepted = audit.accept(ctx, "fab/cr", "2.14.0")
    assert accepted.outcomes[0].outcome == "accepted"
    assert corpus.index().documents["fab/cr"].current == "2.14.0"
    assert not list((ctx.corpus_dir / "staged/fab/cr").glob("2.14.0.*.json"))
    shown = open_corpus(corpus.root).show("cr:1.0.1", "fab/cr")
    assert shown.record.text.startswith("The rules in this document apply")
    assert [c.id for c in shown.children] == ["cr:1.0.1a", "cr:1.0.1b"]
    assert shown.fetches and shown.fetches[0]["source"] in ("fab-cr-txt", "fab-cr-pdf")

    again = jobs.update(ctx, [])
    assert again.exit_code == EXIT_OK
    assert [o.outcome for o in again.outcomes] == ["unchanged"]


def test_renditions_that_disagree_fail_verification(ctx: Context, server: ScriptedServer) -> None:
    changed = text_bytes().replace(
        b"apply to any game of Flesh and Blood.", b"apply to every game of Flesh and Blood.", 1
    )
    assert changed != text_bytes()
    server.serve("/txt/latest/en-fab-cr.txt", Reply(200, changed))
    before = corpus_digest(ctx.corpus_dir)
    summary = jobs.update(ctx, [], accept=True)
    # The text states no version, and the PDF that does disagrees with it: nothing is stored.
    assert summary.exit_code in (EXIT_PARSE, EXIT_VERIFY)
    assert summary.outcomes[0].outcome in ("parse-failed", "verify-failed")
    assert corpus_digest(ctx.corpus_dir) == before


def test_new_text_bytes_claiming_the_pinned_version_fail(
    ctx: Context, server: ScriptedServer
) -> None:
    assert jobs.update(ctx, [], accept=True).exit_code == EXIT_CHANGED
    before = corpus_digest(ctx.corpus_dir)
    # Same words, different bytes (a trailing newline more): the PDF still says 2.14.0,
    # so these bytes claim a version already pinned to other bytes.
    server.serve("/txt/latest/en-fab-cr.txt", Reply(200, text_bytes() + b"\n"))
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_VERIFY, summary.outcomes
    assert "already pinned" in summary.outcomes[0].message
    assert corpus_digest(ctx.corpus_dir) == before


def test_verify_reproduces_and_cross_checks_with_a_second_pdf_engine(ctx: Context) -> None:
    assert jobs.update(ctx, [], accept=True).exit_code == EXIT_CHANGED
    summary = audit.verify(ctx, ["fab/cr"], reproduce_json=True, cross_engine=True)
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes]
    doc = Corpus(ctx.corpus_dir).load_document("fab/cr", "2.14.0")
    text = pdftotext(typeset().pdf)
    assert audit.cross_check_text(doc, text) == []
    first = doc.records[3]
    problems = audit.cross_check_text(doc, text.replace(first.text[:30], "", 1))
    assert problems and first.id in problems[0]


def test_an_html_page_served_for_the_pdf_exits_30(ctx: Context, server: ScriptedServer) -> None:
    assert jobs.update(ctx, [], accept=True).exit_code == EXIT_CHANGED
    before = corpus_digest(ctx.corpus_dir)
    server.serve(
        "/pdf/en-fab-cr.pdf",
        Reply(
            200, b"<!DOCTYPE html><html><body>Moved</body></html>", {"Content-Type": "text/html"}
        ),
    )
    summary = jobs.update(ctx, [])
    failed = [o for o in summary.outcomes if o.outcome == "fetch-failed"]
    assert summary.exit_code == EXIT_FETCH and failed
    assert "HTML page" in failed[0].message and "en-fab-cr.pdf" in failed[0].message
    assert corpus_digest(ctx.corpus_dir) == before
