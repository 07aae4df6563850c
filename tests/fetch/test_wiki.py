"""Wiki rules pages (`fandom-wiki`): MediaWiki API answers (project-made fixtures, see
tests/fetch/fixtures/wiki/README.md) -> verified revision bundle -> sections and citations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.errors import FetchError, HashMismatch, ParseError, VerificationError
from pipeline.extract.html import read_wiki_bundle
from pipeline.fetch import mediawiki
from pipeline.fetch.http import Fetcher
from pipeline.fetch.policy import FetchPolicy
from pipeline.models.records import Citation, ParseOptions
from pipeline.parse import wiki
from pipeline.store.blobs import BlobStore
from tests.support.server import Reply, ScriptedServer

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "wiki"
API = "https://netrunner.fandom.com/api.php"
QUERY = (FIXTURES / "query-Conditional_ability.json").read_bytes()
PARSE = (FIXTURES / "parse-15873.json").read_bytes()


def responses(query: bytes = QUERY, parse: bytes = PARSE, api: str = API) -> dict[str, bytes]:
    return {
        mediawiki.revision_query_url(api, title="Conditional_ability"): query,
        mediawiki.revision_query_url(api, revid=15873): query,
        mediawiki.parse_url(api, 15873): parse,
    }


def bundle(query: bytes = QUERY, parse: bytes = PARSE) -> bytes:
    return mediawiki.fetch_revision_bundle(
        responses(query, parse).__getitem__, API, title="Conditional_ability"
    )


def tampered_query(edit: str = "resolves automatically", to: str = "resolves at once") -> bytes:
    body = json.loads(QUERY)
    slot = body["query"]["pages"][0]["revisions"][0]["slots"]["main"]
    assert edit in slot["content"]
    slot["content"] = slot["content"].replace(edit, to, 1)
    return json.dumps(body).encode()


def test_urls_are_the_documented_api_calls() -> None:
    assert mediawiki.revision_query_url(API, title="Conditional_ability") == (
        "https://netrunner.fandom.com/api.php?action=query&prop=revisions"
        "&rvprop=ids%7Csha1%7Ccontent&rvslots=main&format=json&formatversion=2"
        "&titles=Conditional_ability"
    )
    assert mediawiki.parse_url(API, 15873) == (
        "https://netrunner.fandom.com/api.php?action=parse&oldid=15873&prop=text"
        "&format=json&formatversion=2"
    )
    assert mediawiki.revision_query_url(API, revid=15873).endswith("&revids=15873")


def test_responses_are_read() -> None:
    rev = mediawiki.read_revision_response(QUERY, what="q")
    assert (rev.title, rev.pageid, rev.revid, rev.parentid) == (
        "Conditional ability",
        2417,
        15873,
        15208,
    )
    assert rev.sha1 == mediawiki.wikitext_sha1(rev.wikitext)
    assert rev.wikitext.startswith("{{Stub}}\nA '''conditional ability'''")
    page = mediawiki.read_parse_response(PARSE, what="p")
    assert (page.title, page.pageid, page.revid) == ("Conditional ability", 2417, 15873)
    assert page.html.startswith('<div class="mw-parser-output">')


def test_fixture_round_trip_gives_sections_and_citations() -> None:
    data = bundle()
    assert data == bundle()  # canonical bytes
    doc = wiki.parse(
        read_wiki_bundle(data, what="test"),
        {},
        ParseOptions("netrunner/wiki-conditional-ability", "wiki"),
    )
    assert doc.warnings == []
    assert (doc.title, doc.version, doc.parser.family) == (
        "Conditional ability",
        "15873",
        "fandom-wiki",
    )
    assert [r.section for r in doc.rulings] == [None, "Rules", "Timing", "Examples", "See also"]
    lead, rules, timing, examples, see_also = doc.rulings
    # The stub box, the table of contents and the edit links are not text.
    assert lead.text == (
        "A conditional ability is an ability that resolves automatically when its trigger "
        'condition is met. Most conditional abilities begin with "when", "whenever", "if" or '
        '"the first time".'
    )
    assert rules.citations == [
        Citation(
            document="Core Rule Book",
            page=21,
            column=2,
            paragraphs="1",
            quote="A conditional ability resolves automatically each time its trigger "
            "condition is met, as long as the card is active.",
        ),
        Citation(
            document="FAQ",
            page=3,
            column=2,
            paragraphs="1",
            quote="If several conditional abilities meet their trigger conditions at the "
            "same time, the player whose turn it is resolves theirs first.",
        ),
    ]
    assert timing.citations == [
        Citation(
            document="Core Rule Book",
            page=22,
            column=1,
            paragraphs="2-3",
            quote="Each conditional ability resolves once for each time its condition is met.",
        ),
    ]
    assert examples.citations == [] and see_also.text == "Paid ability\nStatic ability"
    assert "edit" not in (rules.text or "")
    # The section's wikitext as published, and the line its heading stands on.
    assert rules.text_md is not None and rules.text_md.startswith("<blockquote>")
    assert [r.location.line if r.location else None for r in doc.rulings] == [1, 4, 10, 15, 19]
    assert doc.counts == {"sections": 5, "citations": 3, "cited_documents": 2}


def test_tampered_wikitext_fails_the_published_sha1() -> None:
    with pytest.raises(HashMismatch) as err:
        bundle(query=tampered_query())
    assert "SHA-1 mismatch" in str(err.value)
    rev = mediawiki.read_revision_response(QUERY, what="q")
    assert err.value.expected == rev.sha1


def test_verify_revision_sha1_directly() -> None:
    rev = mediawiki.read_revision_response(QUERY, what="q")
    mediawiki.verify_revision_sha1(rev.wikitext, rev.sha1.upper())  # hex case is not content
    with pytest.raises(HashMismatch):
        mediawiki.verify_revision_sha1(rev.wikitext + "\n", rev.sha1)


def test_stored_bundle_is_reverified() -> None:
    data = bundle()
    assert mediawiki.read_bundle(data)["revid"] == 15873
    edited = data.replace(b"resolves automatically", b"resolves at once")
    with pytest.raises(HashMismatch):
        mediawiki.read_bundle(edited)


def test_rendering_of_another_revision_is_refused() -> None:
    body = json.loads(PARSE)
    body["parse"]["revid"] = 15874
    with pytest.raises(VerificationError, match="page changed between requests"):
        bundle(parse=json.dumps(body).encode())


def test_missing_page_and_api_error() -> None:
    missing = {
        "batchcomplete": True,
        "query": {"pages": [{"ns": 0, "title": "Conditional abilty", "missing": True}]},
    }
    with pytest.raises(FetchError, match="no page 'Conditional abilty'"):
        mediawiki.read_revision_response(json.dumps(missing).encode(), what="q")
    error = {"error": {"code": "nosuchrevid", "info": "There is no revision with ID 1."}}
    with pytest.raises(FetchError, match="nosuchrevid"):
        mediawiki.read_parse_response(json.dumps(error).encode(), what="p")


def test_formatversion_1_shapes_are_read_too() -> None:
    rev = mediawiki.read_revision_response(QUERY, what="q")
    v1 = {
        "query": {
            "pages": {
                "2417": {
                    "pageid": 2417,
                    "ns": 0,
                    "title": rev.title,
                    "revisions": [
                        {"revid": 15873, "parentid": 15208, "sha1": rev.sha1, "*": rev.wikitext}
                    ],
                }
            }
        }
    }
    assert mediawiki.read_revision_response(json.dumps(v1).encode(), what="q") == rev
    page = mediawiki.read_parse_response(PARSE, what="p")
    p1 = {"parse": {"title": page.title, "pageid": 2417, "revid": 15873, "text": {"*": page.html}}}
    assert mediawiki.read_parse_response(json.dumps(p1).encode(), what="p") == page


def test_newer_mediawiki_heading_markup() -> None:
    html = (
        '<div class="mw-parser-output"><p>Lead.</p>'
        '<div class="mw-heading mw-heading2"><h2 id="Rules">Rules</h2>'
        '<span class="mw-editsection">[<a href="?action=edit">edit</a>]</span></div>'
        '<p>"Quoted." — Page 7, Core Rule Book</p></div>'
    )
    wikitext = 'Lead.\n== Rules ==\n"Quoted." — Page 7, Core Rule Book'
    data = json.dumps(
        {
            "title": "T",
            "revid": 1,
            "sha1": mediawiki.wikitext_sha1(wikitext),
            "wikitext": wikitext,
            "html": html,
        }
    ).encode()
    doc = wiki.parse(read_wiki_bundle(data, what="test"), {}, ParseOptions("g/wiki", "wiki"))
    assert [(r.section, r.text) for r in doc.rulings] == [
        (None, "Lead."),
        ("Rules", '"Quoted." — Page 7, Core Rule Book'),
    ]
    assert doc.rulings[1].citations == [
        Citation(document="Core Rule Book", page=7, quote="Quoted.")
    ]


def test_not_a_bundle_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="lacks"):
        read_wiki_bundle(b'{"title": "x"}', what="g/wiki")


def test_fetched_through_fetcher_from_a_local_server(tmp_path: Path) -> None:
    """The real HTTP path: query, then parse of that revision, served on 127.0.0.1."""
    with ScriptedServer() as srv:
        api = srv.url("/api.php")
        for url, body in responses(api=api).items():
            srv.serve(
                url.removeprefix(srv.base), Reply(200, body, {"Content-Type": "application/json"})
            )
        blobs = BlobStore(tmp_path / "blobs")
        with Fetcher(blobs, FetchPolicy(retries=0, deadline=10)) as fetcher:

            def get(url: str) -> bytes:
                return blobs.read(
                    fetcher.fetch("wiki-conditional-ability", url, expect="json").sha256
                )

            data = mediawiki.fetch_revision_bundle(get, api, revid=15873)
        paths = [r.path for r in srv.requests]
    assert paths == [
        "/api.php?action=query&prop=revisions&rvprop=ids%7Csha1%7Ccontent&rvslots=main"
        "&format=json&formatversion=2&revids=15873",
        "/api.php?action=parse&oldid=15873&prop=text&format=json&formatversion=2",
    ]
    assert (
        wiki.parse(
            read_wiki_bundle(data, what="test"), {}, ParseOptions("netrunner/wiki", "wiki")
        ).counts["citations"]
        == 3
    )


def test_tampered_answer_from_the_server_is_caught(tmp_path: Path) -> None:
    with ScriptedServer() as srv:
        api = srv.url("/api.php")
        for url, body in responses(query=tampered_query(), api=api).items():
            srv.serve(url.removeprefix(srv.base), Reply(200, body))
        blobs = BlobStore(tmp_path / "blobs")
        with Fetcher(blobs, FetchPolicy(retries=0, deadline=10)) as fetcher:

            def get(url: str) -> bytes:
                return blobs.read(fetcher.fetch("wiki", url, expect="json").sha256)

            with pytest.raises(HashMismatch):
                mediawiki.fetch_revision_bundle(get, api, title="Conditional_ability")
        # Verification stops before the rendering is even asked for.
        assert [r.path.split("?")[1].split("&")[0] for r in srv.requests] == ["action=query"]
