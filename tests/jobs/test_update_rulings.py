"""Rulings documents through the real update job, served on 127.0.0.1: the NetrunnerDB
tarball at a pinned ref, an HTML FAQ page with registry selectors, and a MediaWiki page
whose wikitext is checked against the SHA-1 the wiki publishes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.cli.console import print_shown
from pipeline.cli.shared import diff_renderers
from pipeline.corpus import open_corpus
from pipeline.errors import EXIT_CHANGED, EXIT_OK, EXIT_VERIFY
from pipeline.fetch import mediawiki
from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs import update as jobs
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context
from pipeline.store.corpus import Corpus
from tests.support.helpers import ROOT, SHARED, corpus_digest, registry_file
from tests.support.server import Reply, ScriptedServer

RULINGS = SHARED / "netrunner/rulings-netrunnerdb"
NEW_TAR = RULINGS / "2024-01-15/netrunnerdb-v2-rulings-2024-01-15.tar.gz"
OLD_TAR = RULINGS / "2023-03-12/netrunnerdb-v2-rulings-2023-03-12.tar.gz"
COMMIT = "028e08701c9938e9124cdde387e599c8e78fe7a5"
FAQ_PAGES = ROOT / "tests" / "parse" / "fixtures" / "faq"
WIKI_ANSWERS = ROOT / "tests" / "fetch" / "fixtures" / "wiki"
FAST = FetchPolicy(connect_timeout=2, read_timeout=5, deadline=20, retries=1, backoff=0.01)


def context(tmp_path: Path, sources: list[dict[str, object]]) -> Context:
    return Context(
        corpus_dir=tmp_path / "corpus",
        cache_dir=tmp_path / "cache",
        sources_file=registry_file(tmp_path, sources),
        policy=FAST,
        renderers=diff_renderers(),
    )


def rulings_source(server: ScriptedServer) -> dict[str, object]:
    return {
        "id": "netrunner-rulings",
        "game": "netrunner",
        "document": "netrunner/rulings",
        "title": "NetrunnerDB rulings",
        "family": "nrdb-rulings",
        "rendition": "tar.gz",
        "primary": True,
        "url": server.url(f"/archive/{COMMIT}.tar.gz"),
        "options": {"ref": COMMIT, "asserted_version": "2024-01-15"},
    }


def test_rulings_at_the_pinned_ref_are_stored_and_shown(
    tmp_path: Path, server: ScriptedServer, capsys: pytest.CaptureFixture[str]
) -> None:
    server.serve(f"/archive/{COMMIT}.tar.gz", Reply(200, NEW_TAR.read_bytes()))
    ctx = context(tmp_path, [rulings_source(server)])
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_CHANGED, summary.outcomes
    assert (summary.outcomes[0].version, summary.outcomes[0].records) == ("2024-01-15", 812)
    corpus = Corpus(ctx.corpus_dir)
    doc = corpus.load_document("netrunner/rulings")
    shared = next(r for r in doc.rulings if len(r.cards) > 1)
    shown = open_corpus(corpus.root).show(shared.id, "netrunner/rulings")
    from rich.console import Console

    print_shown(Console(width=200), shown.as_json())
    out = capsys.readouterr().out
    assert shared.id in out and "2024-01-15" in out
    assert doc.source is not None and doc.source.sha256 in out
    assert all(title in out for title in shared.card_titles or shared.cards)


def test_an_archive_from_another_commit_fails_verification(
    tmp_path: Path, server: ScriptedServer
) -> None:
    server.serve(f"/archive/{COMMIT}.tar.gz", Reply(200, OLD_TAR.read_bytes()))
    ctx = context(tmp_path, [rulings_source(server)])
    before = corpus_digest(ctx.corpus_dir)
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_VERIFY
    assert "4b1cf24b" in summary.outcomes[0].message and COMMIT in summary.outcomes[0].message
    assert corpus_digest(ctx.corpus_dir) == before


def test_faq_page_with_registry_selectors(tmp_path: Path, server: ScriptedServer) -> None:
    page = (FAQ_PAGES / "release-notes-headings.html").read_bytes()
    server.serve("/release-notes/", Reply(200, page, {"Content-Type": "text/html"}))
    ctx = context(
        tmp_path,
        [
            {
                "id": "nsg-release-notes",
                "game": "netrunner",
                "document": "netrunner/faq",
                "title": "Release notes",
                "family": "faq-html",
                "rendition": "html",
                "primary": True,
                "url": server.url("/release-notes/"),
                "options": {
                    "scope": "article.release-notes",
                    "card": "h2.card",
                    "question": "h3",
                    "answer": "p, ul",
                    "version": "p.updated",
                },
            }
        ],
    )
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_CHANGED, summary.outcomes
    doc = Corpus(ctx.corpus_dir).load_document("netrunner/faq")
    assert doc.version == "2024-03-15" and doc.rulings
    assert jobs.update(ctx, []).exit_code == EXIT_OK


WIKI_QUERY = WIKI_ANSWERS / "query-Conditional_ability.json"
WIKI_PAGE = WIKI_ANSWERS / "parse-15873.json"


def serve_wiki(server: ScriptedServer, query: bytes) -> tuple[str, str, int]:
    """Serve the MediaWiki query and parse replies; (api URL, query path, revision id)."""
    api = server.url("/api.php")
    revid = int(json.loads(query)["query"]["pages"][0]["revisions"][0]["revid"])
    path = mediawiki.revision_query_url(api, title="Conditional_ability").removeprefix(server.base)
    server.serve(path, Reply(200, query, {"Content-Type": "application/json"}))
    parse_path = mediawiki.parse_url(api, revid).removeprefix(server.base)
    server.serve(
        parse_path, Reply(200, WIKI_PAGE.read_bytes(), {"Content-Type": "application/json"})
    )
    return api, path, revid


def wiki_context(tmp_path: Path, api: str) -> Context:
    return context(
        tmp_path,
        [
            {
                "id": "wiki-conditional-ability",
                "game": "netrunner",
                "document": "netrunner/wiki-conditional-ability",
                "title": "Conditional ability",
                "family": "fandom-wiki",
                "rendition": "wiki",
                "primary": True,
                "url": api,
                "options": {"title": "Conditional_ability"},
            }
        ],
    )


def test_wiki_page_is_fetched_through_the_api_and_its_sha1_checked(
    tmp_path: Path, server: ScriptedServer
) -> None:
    query = WIKI_QUERY.read_bytes()
    api, path, revid = serve_wiki(server, query)
    ctx = wiki_context(tmp_path, api)
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_CHANGED, summary.outcomes
    doc = Corpus(ctx.corpus_dir).load_document("netrunner/wiki-conditional-ability")
    assert doc.version == str(revid)
    assert any(r.citations for r in doc.rulings)

    body = json.loads(query)
    revision = body["query"]["pages"][0]["revisions"][0]
    revision["slots"]["main"]["content"] += " (edited, hash not updated)"
    tampered = json.dumps(body).encode()
    server.serve(path, Reply(200, tampered, {"Content-Type": "application/json"}))
    before = corpus_digest(ctx.corpus_dir)
    again = jobs.update(ctx, [])
    assert again.exit_code == EXIT_VERIFY, again.outcomes
    assert "SHA-1" in again.outcomes[0].message
    assert corpus_digest(ctx.corpus_dir) == before


def test_verify_published_rechecks_a_stored_wiki_revision(
    tmp_path: Path, server: ScriptedServer
) -> None:
    api, _path, _revid = serve_wiki(server, WIKI_QUERY.read_bytes())
    ctx = wiki_context(tmp_path, api)
    assert jobs.update(ctx, []).exit_code == EXIT_CHANGED
    ok = audit.verify(ctx, [], published=True, reproduce_json=True)
    assert ok.exit_code == EXIT_OK, [o.message for o in ok.outcomes]
    sha = (
        Corpus(ctx.corpus_dir)
        .index()
        .documents["netrunner/wiki-conditional-ability"]
        .versions[0]
        .sources["wiki"]
    )
    blob = ctx.blobs.path_for(sha)
    bundle = json.loads(blob.read_bytes())
    bundle["wikitext"] += " (edited)"
    blob.chmod(0o644)
    blob.write_bytes(json.dumps(bundle).encode())
    bad = audit.verify(ctx, [], published=True)
    assert bad.exit_code == EXIT_VERIFY
    assert any("SHA" in o.message for o in bad.outcomes)
