"""Third-party hash attestations: the page reader pairs each digest with the URL in its
block, and `verify --published` checks a stored version against pages and checksum
files served on 127.0.0.1 (a match, a mismatch, a page listing several documents'
hashes, a page with none), saying what each check guards against."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_FETCH, EXIT_OK, EXIT_VERIFY
from pipeline.extract.web_page import read_web_page
from pipeline.jobs import import_archive as archive
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context
from pipeline.models.content import WebPage
from pipeline.models.outcomes import Outcome
from pipeline.verify.attestations import (
    Verdict,
    check_attestation,
    normalise_url,
    read_attestations,
    same_site,
)
from tests.support.helpers import SHARED, link_archive, registry_file
from tests.support.server import Reply, ScriptedServer

FAB_URL = "https://rules.fabtcg.com/txt/latest/en-fab-cr.txt"
FAB_SHA = "10e3fb55eb0dd3c1fb22b4f415db6d14e5e329d118a2a9204355fda4d8c98a05"
MTG_URL = "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt"
MTG_SHA = "d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85"
OTHER = "ab" * 32


def read(data: bytes | str) -> WebPage:
    return read_web_page(data, what="a test page")


def source_block(url: str, sha: str, kind: str = "TXT") -> str:
    """A rules-reference page's Source block, as such sites print one under each rule."""
    return (
        f'<section class="source"><h3>Source</h3><p>Retrieved from <a href="{url}">{url}</a>'
        f"</p><p>{kind} SHA-256 <code>{sha}</code></p></section>"
    )


def page(*blocks: str) -> bytes:
    body = "".join(blocks)
    return (
        "<!doctype html><html><head><title>rules</title></head><body>"
        '<nav><a href="https://rules.example/">home</a></nav>'
        f"<main>{body}</main></body></html>"
    ).encode()


# --------------------------------------------------------------------------- the page reader


def test_each_digest_is_paired_with_the_url_of_its_own_block() -> None:
    html = page(
        "<article><h2>702.19c</h2><p>Trample over planeswalkers ...</p>"
        + source_block(MTG_URL, MTG_SHA)
        + "</article>",
        "<article><h2>1.0.1</h2>" + source_block(FAB_URL, FAB_SHA) + "</article>",
    )
    found = read_attestations(read(html), "https://rules.example/702.19c")
    assert [(f.sha256, f.url, f.label) for f in found] == [
        (MTG_SHA, MTG_URL, "TXT SHA-256"),
        (FAB_SHA, FAB_URL, "TXT SHA-256"),
    ]
    # Never just the first hex string: the FaB URL gets the FaB digest.
    check = check_attestation(
        read(html), "https://rules.example/x", FAB_URL, FAB_SHA, rendition="txt"
    )
    assert check.verdict is Verdict.MATCH and check.published == (FAB_SHA,)


def test_a_table_of_several_documents_and_a_text_page() -> None:
    rows = "".join(
        f'<tr><td><a href="{u}">{n}</a></td><td>PDF SHA-256</td><td>{s}</td></tr>'
        for n, u, s in (
            ("NISEI 1.4", "https://nisei.net/files/Comprehensive_Rules.pdf", "11" * 32),
            (
                "MTG",
                "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.pdf",
                "22" * 32,
            ),
        )
    )
    html = page(f"<table>{rows}</table>")
    pairs = {f.url: f.sha256 for f in read_attestations(read(html))}
    assert pairs["https://nisei.net/files/Comprehensive_Rules.pdf"] == "11" * 32
    text = (
        f"Retrieved from {FAB_URL}\nTXT SHA-256 {FAB_SHA}\n\nRetrieved from {MTG_URL}.\n"
        f"TXT SHA-256 {MTG_SHA}\n"
    )
    assert [(f.url, f.sha256) for f in read_attestations(read(text.encode()))] == [
        (FAB_URL, FAB_SHA),
        (MTG_URL, MTG_SHA),  # the full stop after the URL is not part of it
    ]


def test_a_digest_labelled_for_another_rendition_is_not_about_these_bytes() -> None:
    html = page(
        f'<div><p>Retrieved from <a href="{FAB_URL}">{FAB_URL}</a></p>'
        f"<p>JSON SHA-256 <code>{OTHER}</code></p><p>TXT SHA-256 <code>{FAB_SHA}</code></p>"
        "</div>"
    )
    check = check_attestation(read(html), "https://x.example/", FAB_URL, FAB_SHA, rendition="txt")
    assert check.verdict is Verdict.MATCH and check.published == (FAB_SHA,)
    wrong = check_attestation(read(html), "https://x.example/", FAB_URL, "cd" * 32, rendition="txt")
    assert wrong.verdict is Verdict.MISMATCH and wrong.published == (FAB_SHA,)
    assert "cd" * 32 in wrong.message and FAB_SHA in wrong.message


def test_a_page_with_no_digest_for_the_url_publishes_none() -> None:
    html = page("<p>Rules are at " + FAB_URL + "</p>", source_block(MTG_URL, MTG_SHA))
    check = check_attestation(read(html), "https://x.example/", FAB_URL, FAB_SHA)
    assert check.verdict is Verdict.NONE and check.published == ()
    assert check.message.startswith("none published")


def test_urls_compare_as_the_same_file_and_sites_by_their_domain() -> None:
    assert normalise_url("HTTPS://Media.Wizards.com:443/a%20b.txt#x") == normalise_url(
        "http://media.wizards.com/a b.txt"
    )
    assert normalise_url("https://a.example/x?v=1") != normalise_url("https://a.example/x?v=2")
    assert same_site("https://rules.fabtcg.com/txt/x", "https://fabtcg.com/page")
    assert same_site("https://www.bbc.co.uk/a", "https://news.bbc.co.uk/b")
    assert not same_site("https://example.com/a", "https://example.org/a")
    assert not same_site("http://127.0.0.1:80/a", "http://127.0.0.2/a")
    assert same_site("http://127.0.0.1:8000/a", "http://127.0.0.1:9000/b")


# --------------------------------------------------------------------------- verify --published


def fab_source(**extra: Any) -> dict[str, Any]:
    return {
        "id": "fab-cr-txt",
        "game": "fab",
        "document": "fab/cr",
        "title": "Flesh and Blood Comprehensive Rules",
        "family": "fab-cr",
        "rendition": "txt",
        "url": FAB_URL,
        "allowed_hosts": ["rules.fabtcg.com"],
        "primary": True,
        "manifest": {
            "game": "fab",
            "document": "comprehensive-rules",
            "format": "txt",
            "path_pattern": "/en-fab-cr[^/]*\\.txt$",
        },
        **extra,
    }


def import_fab(root: Path, url: str) -> Context:
    """FaB 2.14.0's text export imported as if downloaded from `url`."""
    entry = next(
        e
        for e in json.loads((SHARED / "manifest.json").read_text())
        if e["path"] == "fab/comprehensive-rules/2.14.0/en-fab-cr.txt"
    )
    root.mkdir(parents=True, exist_ok=True)
    folder = link_archive(root / "archive", [{**entry, "url": url}])
    registry = registry_file(root, [fab_source(url=url)])
    ctx = Context(
        corpus_dir=root / "corpus",
        cache_dir=root / "cache",
        sources_file=registry,
        renderers=diff_renderers(),
    )
    assert archive.import_archive(ctx, folder).exit_code == EXIT_OK
    return ctx


@pytest.fixture(scope="module")
def srv() -> Any:
    with ScriptedServer() as server:
        yield server


@pytest.fixture(scope="module")
def fab(tmp_path_factory: pytest.TempPathFactory) -> Context:
    return import_fab(tmp_path_factory.mktemp("attest"), FAB_URL)


def verify_with(ctx: Context, folder: Path, **extra: Any) -> tuple[int, list[Outcome]]:
    folder.mkdir(parents=True, exist_ok=True)
    registry = registry_file(folder, [fab_source(url=ctx.registry()[0].url, **extra)])
    checked = Context(
        corpus_dir=ctx.corpus_dir,
        cache_dir=ctx.cache_dir,
        sources_file=registry,
        renderers=diff_renderers(),
    )
    summary = audit.verify(checked, ["fab/cr"], published=True)
    return summary.exit_code, [o for o in summary.outcomes if o.sources == ["fab-cr-txt"]]


def test_a_page_that_attests_the_stored_bytes(fab: Context, srv: Any, tmp_path: Path) -> None:
    srv.serve(
        "/cr/1.0.1",
        Reply(
            200, page(source_block(FAB_URL, FAB_SHA)), {"Content-Type": "text/html; charset=utf-8"}
        ),
    )
    code, outcomes = verify_with(fab, tmp_path, attestation_pages=[srv.url("/cr/1.0.1")])
    assert code == EXIT_OK
    [outcome] = outcomes
    assert (outcome.version, outcome.outcome, outcome.exit_code) == ("2.14.0", "verified", 0)
    assert outcome.message.startswith(f"match: {srv.url('/cr/1.0.1')} publishes {FAB_SHA}")
    assert "guards against corruption and tampering (the page is on an independent host)" in (
        outcome.message
    )


def test_a_page_that_publishes_another_digest_is_exit_20(
    fab: Context, srv: Any, tmp_path: Path
) -> None:
    srv.serve("/bad", Reply(200, page(source_block(FAB_URL, OTHER))))
    code, outcomes = verify_with(fab, tmp_path, attestation_pages=[srv.url("/bad")])
    assert code == EXIT_VERIFY
    [outcome] = outcomes
    assert (outcome.outcome, outcome.exit_code) == ("verify-failed", EXIT_VERIFY)
    assert f"publishes {OTHER} for {FAB_URL}, the stored bytes hash to {FAB_SHA}" in (
        outcome.message
    )


def test_a_page_listing_several_documents_and_one_listing_none(
    fab: Context, srv: Any, tmp_path: Path
) -> None:
    several = page(
        source_block(MTG_URL, MTG_SHA),
        source_block("https://nisei.net/files/Comprehensive_Rules.pdf", "11" * 32, "PDF"),
        source_block(FAB_URL, FAB_SHA),
    )
    srv.serve("/all", Reply(200, several))
    srv.serve("/none", Reply(200, page(source_block(MTG_URL, MTG_SHA), f"<p>{FAB_URL}</p>")))
    code, outcomes = verify_with(
        fab, tmp_path, attestation_pages=[srv.url("/all"), srv.url("/none")]
    )
    assert code == EXIT_OK
    assert [(o.outcome, o.message.split(":")[0]) for o in outcomes] == [
        ("verified", "match"),
        ("skipped", "none published"),
    ]
    assert (
        outcomes[1].message == f"none published: {srv.url('/none')} gives no SHA-256 for {FAB_URL}"
    )


def test_a_page_on_the_documents_own_host_guards_against_corruption_only(
    srv: Any, tmp_path: Path
) -> None:
    own = import_fab(tmp_path / "own", srv.url("/txt/en-fab-cr.txt"))
    srv.serve("/rules", Reply(200, page(source_block(srv.url("/txt/en-fab-cr.txt"), FAB_SHA))))
    code, outcomes = verify_with(own, tmp_path / "check", attestation_pages=[srv.url("/rules")])
    assert code == EXIT_OK
    assert outcomes[0].message.endswith(
        "guards against corruption only (the page is on the document's own host)"
    )


def test_checksum_files_and_an_unreachable_page(fab: Context, srv: Any, tmp_path: Path) -> None:
    srv.serve(
        "/SHA256SUMS", Reply(200, f"{OTHER}  en-fab-ppg.txt\n{FAB_SHA}  en-fab-cr.txt\n".encode())
    )
    srv.serve("/WRONG", Reply(200, f"{OTHER}  en-fab-cr.txt\n".encode()))
    code, _ = verify_with(fab, tmp_path / "a", published_sha256_url=srv.url("/SHA256SUMS"))
    assert code == EXIT_OK
    code, _ = verify_with(fab, tmp_path / "b", published_sha256_url=srv.url("/WRONG"))
    assert code == EXIT_VERIFY
    code, outcomes = verify_with(fab, tmp_path / "c", attestation_pages=[srv.url("/gone")])
    assert code == EXIT_FETCH
    assert outcomes[0].outcome == "fetch-failed" and "HTTP 404" in outcomes[0].message
