"""Link discovery on landing pages served over real HTTP and fetched with the Fetcher."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.errors import DiscoveryError
from pipeline.extract.html import list_links
from pipeline.fetch.discover import find_link
from pipeline.fetch.http import Fetcher
from pipeline.fetch.policy import FetchPolicy
from pipeline.store.blobs import BlobStore
from tests.support.server import Reply, ScriptedServer

MTG_PATTERN = r"MagicCompRules.*\.txt$"
MEDIA = "https://media.wizards.com/2025/downloads"

# The shape of magic.wizards.com/en/rules: one release offered as TXT, PDF and DOCX,
# file names carrying the date (spaces percent-encoded), plus site navigation.
MTG_RULES_PAGE = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Rules | Magic: The Gathering</title></head>
<body>
<nav><a href="/en">Home</a> <a href="/en/news">News</a> <a href="#main">Skip</a></nav>
<main id="main">
  <h1>Magic: The Gathering Comprehensive Rules</h1>
  <p>These rules are effective as of April 4, 2025.</p>
  <ul>
    <li><a class="btn" href="{MEDIA}/MagicCompRules%2020250404.pdf">PDF</a></li>
    <li><a class="btn" href="{MEDIA}/MagicCompRules%2020250404.txt">TXT</a></li>
    <li><a class="btn" href="{MEDIA}/MagicCompRules%2020250404.docx">DOCX</a></li>
  </ul>
  <h2>Magic Tournament Rules</h2>
  <a href="{MEDIA}/MTG_MTR_2025_Feb3.pdf">MTR PDF</a>
</main>
<footer><a href="{MEDIA}/MagicCompRules%2020250404.txt">Download the rules (TXT)</a>
<a href="mailto:rules@example.com">Contact</a></footer>
</body></html>
""".encode()


@pytest.fixture
def fetcher(tmp_path: Path) -> Iterator[Fetcher]:
    policy = FetchPolicy(connect_timeout=2, read_timeout=5, deadline=20, retries=1, backoff=0.01)
    with Fetcher(BlobStore(tmp_path / "cache"), policy) as f:
        yield f


def fetch_landing(server: ScriptedServer, fetcher: Fetcher, path: str, page: bytes) -> bytes:
    server.serve(path, Reply(200, page, {"Content-Type": "text/html; charset=utf-8"}))
    result, body = fetcher.fetch_page("mtg-cr-txt", server.url(path))
    assert result.sha256 == hashlib.sha256(page).hexdigest(), "the landing page is a stored blob"
    return body


def test_mtg_rules_page_gives_the_one_txt_link(server: ScriptedServer, fetcher: Fetcher) -> None:
    page = fetch_landing(server, fetcher, "/en/rules", MTG_RULES_PAGE)
    url = find_link(
        page, server.url("/en/rules"), MTG_PATTERN, source="mtg-cr-txt", list_links=list_links
    )
    # The footer repeats the TXT link: one distinct URL, so no ambiguity.
    assert url == f"{MEDIA}/MagicCompRules%2020250404.txt"
    pdf = find_link(
        page,
        server.url("/en/rules"),
        r"MagicCompRules.*\.pdf$",
        source="mtg-cr-pdf",
        list_links=list_links,
    )
    assert pdf == f"{MEDIA}/MagicCompRules%2020250404.pdf"


def test_no_matching_link_is_an_error(server: ScriptedServer, fetcher: Fetcher) -> None:
    moved = MTG_RULES_PAGE.replace(b".txt", b".html")
    page = fetch_landing(server, fetcher, "/en/rules", moved)
    with pytest.raises(DiscoveryError) as info:
        find_link(
            page, server.url("/en/rules"), MTG_PATTERN, source="mtg-cr-txt", list_links=list_links
        )
    err = info.value
    assert (err.source, err.page, err.pattern, err.found) == (
        "mtg-cr-txt",
        server.url("/en/rules"),
        MTG_PATTERN,
        [],
    )
    assert "found no link" in str(err)
    assert "update the discovery rule in the registry" in str(err)


def test_two_distinct_matching_links_is_an_error(server: ScriptedServer, fetcher: Fetcher) -> None:
    older = f'<a href="{MEDIA}/MagicCompRules%2020250207.txt">previous rules</a></body>'
    page = fetch_landing(
        server, fetcher, "/en/rules", MTG_RULES_PAGE.replace(b"</body>", older.encode())
    )
    with pytest.raises(DiscoveryError) as info:
        find_link(
            page, server.url("/en/rules"), MTG_PATTERN, source="mtg-cr-txt", list_links=list_links
        )
    assert info.value.found == [
        f"{MEDIA}/MagicCompRules%2020250404.txt",
        f"{MEDIA}/MagicCompRules%2020250207.txt",
    ]
    assert "2 links" in str(info.value)


def test_relative_link_resolves_against_the_page_and_can_be_fetched(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    landing = b"""<html><body>
    <a href="../">Up</a>
    <a href="txt/latest/en-fab-cr.txt#top">Comprehensive Rules (text)</a>
    <a href="/pdf/latest/en-fab-cr.pdf">Comprehensive Rules (PDF)</a>
    </body></html>"""
    page = fetch_landing(server, fetcher, "/en/rules/", landing)
    url = find_link(
        page,
        server.url("/en/rules/"),
        r"/en-fab-cr\.txt$",
        source="fab-cr-txt",
        list_links=list_links,
    )
    assert url == server.url("/en/rules/txt/latest/en-fab-cr.txt")
    pdf = find_link(
        page, server.url("/en/rules/"), r"\.pdf$", source="fab-cr-pdf", list_links=list_links
    )
    assert pdf == server.url("/pdf/latest/en-fab-cr.pdf")

    server.serve("/en/rules/txt/latest/en-fab-cr.txt", Reply(200, b"Flesh and Blood CR"))
    result = fetcher.fetch("fab-cr-txt", url, expect="txt")
    assert fetcher.blobs.read(result.sha256) == b"Flesh and Blood CR"


def test_base_href_moves_the_base_like_a_browser() -> None:
    page = (
        b'<html><head><base href="https://cdn.example/files/"></head>'
        b'<body><a href="cr-1.4.pdf">CR</a></body></html>'
    )
    assert list_links(page, "https://site.example/rules") == [
        "https://cdn.example/files/cr-1.4.pdf"
    ]


def test_list_links_keeps_page_order_and_skips_non_links() -> None:
    page = (
        b'<a href="b.txt">b</a><a>no href</a><a href="">empty</a>'
        b'<a href="javascript:void(0)">js</a>'
        b'<a href="a.txt">a</a><a href="b.txt#again">b again</a>'
    )
    assert list_links(page, "http://h.example/d/") == [
        "http://h.example/d/b.txt",
        "http://h.example/d/a.txt",
    ]
