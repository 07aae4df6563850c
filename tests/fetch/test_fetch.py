"""The fetch stage against a real HTTP server on 127.0.0.1: every failure is a FetchError
a person can act on, and a failed download leaves the blob store byte-identical."""

from __future__ import annotations

import gzip
import hashlib
import re
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import FetchError, HashMismatch
from pipeline.fetch.http import Fetcher
from pipeline.fetch.policy import (
    FetchPolicy,
    check_redirect,
    is_html_page,
    parse_retry_after,
    sniff_problem,
)
from pipeline.models.sources import FetchResult
from pipeline.store.blobs import BlobStore
from tests.support.server import Reply, Request, ScriptedServer, redirect

PDF = b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"\n%%EOF\n"
HTML = b"\n  <!DOCTYPE html>\n<html><head><title>Page moved</title></head><body>Sorry</body></html>"
FAST = FetchPolicy(
    connect_timeout=2, read_timeout=5, deadline=20, retries=2, backoff=0.01, max_retry_after=0.5
)
ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


@pytest.fixture
def store(tmp_path: Path) -> BlobStore:
    return BlobStore(tmp_path / "cache")


@pytest.fixture
def fetcher(store: BlobStore) -> Iterator[Fetcher]:
    with Fetcher(store, FAST) as f:
        yield f


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under root with its SHA-256: equal before and after means untouched."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def assert_fails(fetcher: Fetcher, url: str, **kwargs: Any) -> FetchError:
    """Fetch must raise FetchError for `url` and leave the blob store exactly as it was."""
    root = fetcher.blobs.root
    before = tree_digest(root)
    with pytest.raises(FetchError) as info:
        fetcher.fetch("fab-cr-pdf", url, **kwargs)
    assert tree_digest(root) == before
    assert list((root / "tmp").iterdir()) == []
    err = info.value
    assert (err.source, err.url) == ("fab-cr-pdf", url)
    assert err.hint, "every fetch error tells the reader what to do"
    return err


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --------------------------------------------------------------------------- success paths


def test_200_stores_bytes_and_records_provenance(
    server: ScriptedServer, fetcher: Fetcher, store: BlobStore
) -> None:
    server.serve("/cr.pdf", Reply(200, PDF, {"Content-Type": "application/pdf", "ETag": '"v1"'}))
    result = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"), expect="pdf")
    assert result.status == 200
    assert result.sha256 == hashlib.sha256(PDF).hexdigest()
    assert result.bytes == len(PDF)
    assert result.etag == '"v1"'
    assert result.content_type == "application/pdf"
    assert result.final_url == result.url == server.url("/cr.pdf")
    assert ISO_UTC.fullmatch(result.retrieved)
    assert not result.from_cache
    assert store.read(result.sha256) == PDF
    sent = server.requests[0].headers
    assert sent["user-agent"].startswith("rulescorpus/0.1 (")
    assert sent["accept-encoding"] == "identity"
    assert "if-none-match" not in sent and "if-modified-since" not in sent


def test_repeat_sends_conditions_and_304_reuses_the_rehashed_blob(
    server: ScriptedServer, fetcher: Fetcher, store: BlobStore
) -> None:
    modified = "Wed, 01 Jan 2025 00:00:00 GMT"
    server.script(
        "/cr.pdf",
        [
            Reply(200, PDF, {"ETag": '"v1"', "Last-Modified": modified}),
            Reply(304, b"", {"ETag": '"v1"'}),
        ],
    )
    first = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"), expect="pdf")
    before = tree_digest(store.root)
    second = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"), expect="pdf", previous=first)
    assert server.requests[1].headers["if-none-match"] == '"v1"'
    assert server.requests[1].headers["if-modified-since"] == modified
    assert second.status == 304
    assert second.from_cache
    assert (second.sha256, second.bytes) == (first.sha256, first.bytes)
    assert second.last_modified == modified
    assert tree_digest(store.root) == before

    # The reused blob is re-hashed: one altered on disk is caught, not passed on.
    store.path_for(first.sha256).write_bytes(PDF + b"tampered")
    with pytest.raises(HashMismatch) as info:
        fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"), expect="pdf", previous=first)
    assert info.value.expected == first.sha256


def test_previous_blob_missing_means_unconditional_get(
    server: ScriptedServer, fetcher: Fetcher, store: BlobStore
) -> None:
    server.serve("/cr.pdf", Reply(200, PDF, {"ETag": '"v1"'}))
    first = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"))
    store.path_for(first.sha256).unlink()
    again = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"), previous=first)
    assert "if-none-match" not in server.requests[1].headers
    assert again.status == 200 and not again.from_cache
    assert store.read(again.sha256) == PDF


def test_304_after_the_blob_vanished_falls_back_to_a_full_get(
    server: ScriptedServer, fetcher: Fetcher, store: BlobStore
) -> None:
    def vanish_then_304(request: Request) -> Reply:
        store.path_for(hashlib.sha256(PDF).hexdigest()).unlink()
        return Reply(304, b"", {"ETag": '"v1"'})

    server.script("/cr.pdf", [Reply(200, PDF, {"ETag": '"v1"'}), vanish_then_304, Reply(200, PDF)])
    first = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"))
    again = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"), previous=first)
    assert [("if-none-match" in r.headers) for r in server.requests] == [False, True, False]
    assert again.status == 200 and not again.from_cache
    assert store.read(again.sha256) == PDF


def test_previous_for_another_url_sends_no_conditions(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    server.serve("/old.txt", Reply(200, b"old", {"ETag": '"old"'}))
    server.serve("/new.txt", Reply(200, b"new"))
    old = fetcher.fetch("mtg-cr-txt", server.url("/old.txt"))
    new = fetcher.fetch("mtg-cr-txt", server.url("/new.txt"), previous=old)
    assert "if-none-match" not in server.requests[1].headers
    assert new.sha256 == hashlib.sha256(b"new").hexdigest()


def test_previous_final_url_counts_as_the_same_resource(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    server.serve("/latest.txt", redirect("/v2.txt"))
    server.script("/v2.txt", [Reply(200, b"v2", {"ETag": '"v2"'}), Reply(304)])
    first = fetcher.fetch("mtg-cr-txt", server.url("/latest.txt"))
    assert first.final_url == server.url("/v2.txt")
    again = fetcher.fetch("mtg-cr-txt", server.url("/v2.txt"), previous=first)
    assert server.requests[-1].headers["if-none-match"] == '"v2"'
    assert again.from_cache and again.sha256 == first.sha256


def test_500_then_200_is_retried(server: ScriptedServer, fetcher: Fetcher) -> None:
    server.script("/cr.txt", [Reply(500, b"oops"), Reply(503, b"busy"), Reply(200, b"1.0 Rules")])
    result = fetcher.fetch("fab-cr-txt", server.url("/cr.txt"), expect="txt")
    assert result.sha256 == hashlib.sha256(b"1.0 Rules").hexdigest()
    assert len(server.requests) == 3


def test_truncated_then_complete_is_retried(
    server: ScriptedServer, fetcher: Fetcher, store: BlobStore
) -> None:
    server.script("/cr.pdf", [Reply(200, PDF[:100], declared_length=len(PDF)), Reply(200, PDF)])
    result = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"), expect="pdf")
    assert store.read(result.sha256) == PDF
    assert len(server.requests) == 2


def test_same_host_and_allowed_host_redirects_are_followed(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    elsewhere = f"http://localhost:{server.port}/files/cr-2.14.pdf"
    server.serve("/cr.pdf", redirect("/latest/cr.pdf", 301))
    server.serve("/latest/cr.pdf", redirect(elsewhere, 302))
    server.serve("/files/cr-2.14.pdf", Reply(200, PDF))
    result = fetcher.fetch(
        "fab-cr-pdf", server.url("/cr.pdf"), allowed_hosts=["localhost"], expect="pdf"
    )
    assert result.url == server.url("/cr.pdf")
    assert result.final_url == elsewhere
    assert result.sha256 == hashlib.sha256(PDF).hexdigest()
    assert [r.path for r in server.requests] == ["/cr.pdf", "/latest/cr.pdf", "/files/cr-2.14.pdf"]


def test_fetch_page_returns_the_stored_landing_page(
    server: ScriptedServer, fetcher: Fetcher, store: BlobStore
) -> None:
    server.serve("/rules", Reply(200, HTML, {"Content-Type": "text/html"}))
    result, page = fetcher.fetch_page("mtg-cr-page", server.url("/rules"))
    assert page == HTML
    assert store.read(result.sha256) == HTML


# --------------------------------------------------------------------------- failures


def test_html_page_served_with_200_for_a_pdf_is_rejected(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    server.serve("/x.pdf", Reply(200, HTML, {"Content-Type": "text/html"}))
    url = server.url("/x.pdf")
    err = assert_fails(fetcher, url, expect="pdf")
    assert err.problem == "server sent an HTML page (text/html) where a PDF was expected"
    assert str(err) == (
        f"fab-cr-pdf: cannot fetch {url}: server sent an HTML page (text/html) where a PDF "
        "was expected (the URL may have moved; check it in a browser and update the registry)"
    )
    assert len(server.requests) == 1, "a wrong document is not retried"


@pytest.mark.parametrize(
    ("expect", "body", "needle"),
    [
        ("txt", b"\xef\xbb\xbf<HTML><body>Not found</body></HTML>", "where a text file"),
        ("json", b"<!doctype html><title>Error</title>", "where JSON"),
        ("tar.gz", b"not gzip at all", "gzip magic"),
        ("pdf", b"GIF89a....", "%PDF-"),
        ("txt", b"", "empty body"),
    ],
)
def test_wrong_content_is_rejected_by_sniffing(
    server: ScriptedServer, fetcher: Fetcher, expect: str, body: bytes, needle: str
) -> None:
    server.serve("/f", Reply(200, body))
    err = assert_fails(fetcher, server.url("/f"), expect=expect)
    assert needle in err.problem


def test_a_real_gzip_passes_the_tar_gz_sniff(server: ScriptedServer, fetcher: Fetcher) -> None:
    body = gzip.compress(b"rulings" * 1000, mtime=0)
    server.serve("/rulings.tar.gz", Reply(200, body, {"Content-Type": "application/gzip"}))
    result = fetcher.fetch("nrdb", server.url("/rulings.tar.gz"), expect="tar.gz")
    assert result.sha256 == hashlib.sha256(body).hexdigest(), "stored as sent, not decompressed"


def test_truncated_body_is_an_error_and_stores_nothing(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    server.serve("/cr.pdf", Reply(200, PDF[:100], declared_length=1000))
    err = assert_fails(fetcher, server.url("/cr.pdf"), expect="pdf")
    assert "closed after 100 of 1000 bytes" in err.problem
    assert "truncated" in err.problem
    assert "gave up after 3 attempts" in err.problem
    assert len(server.requests) == FAST.retries + 1


def test_chunked_body_is_stored_whole(server: ScriptedServer, fetcher: Fetcher) -> None:
    server.serve("/cr.pdf", Reply(200, PDF, chunked=True, delay=0, stall=0.2, stall_at=5000))
    result = fetcher.fetch("fab-cr-pdf", server.url("/cr.pdf"), expect="pdf")
    assert server.requests and result.sha256 == hashlib.sha256(PDF).hexdigest()
    assert fetcher.blobs.read(result.sha256) == PDF


def test_chunked_body_cut_off_is_an_error(server: ScriptedServer, fetcher: Fetcher) -> None:
    server.serve("/cr.pdf", Reply(200, PDF, chunked=True, abort_after=3000))
    err = assert_fails(fetcher, server.url("/cr.pdf"), expect="pdf")
    assert err.problem.startswith("the connection broke after 3000 bytes (")
    assert len(server.requests) == FAST.retries + 1


def test_content_length_over_the_cap_is_refused_before_reading(
    server: ScriptedServer, store: BlobStore
) -> None:
    # The body would only come after 30 s: refusing on the header alone returns at once.
    server.serve("/big.pdf", Reply(200, PDF, stall=30))
    with Fetcher(store, FetchPolicy(max_bytes=1000, retries=2, backoff=0.01)) as small:
        err = assert_fails(small, server.url("/big.pdf"))
    assert small.waits == [], "refused on the header, without waiting or retrying"
    assert err.problem == f"server announced {len(PDF)} bytes, over the 1000 byte limit"
    assert "max_bytes" in err.hint
    assert len(server.requests) == 1, "an oversized file is not retried"


def test_body_streaming_past_the_cap_is_aborted(server: ScriptedServer, store: BlobStore) -> None:
    server.serve("/big.pdf", Reply(200, PDF, omit_length=True))
    with Fetcher(store, FetchPolicy(max_bytes=1000, retries=2, backoff=0.01)) as small:
        err = assert_fails(small, server.url("/big.pdf"))
    assert "passed the 1000 byte limit" in err.problem
    assert len(server.requests) == 1, "an oversized body is not retried"


def test_a_sources_own_cap_replaces_the_policys(server: ScriptedServer, fetcher: Fetcher) -> None:
    server.serve("/cr.pdf", Reply(200, PDF))
    err = assert_fails(fetcher, server.url("/cr.pdf"), max_bytes=len(PDF) - 1)
    assert err.problem == f"server announced {len(PDF)} bytes, over the {len(PDF) - 1} byte limit"
    with Fetcher(fetcher.blobs, FetchPolicy(max_bytes=10)) as small:
        result = small.fetch("fab-cr-pdf", server.url("/cr.pdf"), max_bytes=len(PDF))
    assert result.bytes == len(PDF)


def test_redirect_to_a_host_not_allowed_is_refused(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    server.serve("/cr.pdf", redirect(f"http://localhost:{server.port}/evil.pdf"))
    server.serve("/evil.pdf", Reply(200, PDF))
    err = assert_fails(fetcher, server.url("/cr.pdf"), allowed_hosts=["rules.fabtcg.com"])
    assert "redirect from" in err.problem
    assert "host localhost is not among the allowed hosts (127.0.0.1, rules.fabtcg.com)" in (
        err.problem
    )
    assert "allowed_hosts" in err.hint
    assert [r.path for r in server.requests] == ["/cr.pdf"], "the target is never contacted"


def test_too_many_redirects_is_an_error(server: ScriptedServer, fetcher: Fetcher) -> None:
    server.serve("/loop", redirect("/loop"))
    err = assert_fails(fetcher, server.url("/loop"))
    assert err.problem.startswith("more than 5 redirects")
    assert len(server.requests) == 6


def test_404_is_not_retried(server: ScriptedServer, fetcher: Fetcher) -> None:
    err = assert_fails(fetcher, server.url("/gone.pdf"))
    assert err.problem.startswith("HTTP 404 Not Found")
    assert "update the registry" in err.hint
    assert len(server.requests) == 1


def test_error_after_a_redirect_names_where_it_happened(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    server.serve("/cr.pdf", redirect("/archive/cr.pdf", 301))
    err = assert_fails(fetcher, server.url("/cr.pdf"))
    assert err.problem == f"HTTP 404 Not Found at {server.url('/archive/cr.pdf')}"


def test_persistent_5xx_gives_up_after_the_retries(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    server.serve("/cr.pdf", Reply(502, b"bad gateway"))
    err = assert_fails(fetcher, server.url("/cr.pdf"))
    assert err.problem.startswith("HTTP 502 Bad Gateway (gave up")
    assert err.problem.endswith("(gave up after 3 attempts)")
    assert "try again later" in err.hint
    assert len(server.requests) == 3


def test_connection_refused_raises_after_retries(fetcher: Fetcher) -> None:
    url = f"http://127.0.0.1:{free_port()}/cr.pdf"
    err = assert_fails(fetcher, url)
    assert err.problem.startswith("connection refused (gave up")
    assert "gave up after 3 attempts" in err.problem
    assert fetcher.waits == [FAST.backoff, FAST.backoff * 2], "exponential backoff"


# --------------------------------------------------------------------------- Retry-After


def waited_fetch(fetcher: Fetcher, url: str) -> tuple[list[float], FetchResult]:
    """The fetch's result and the waits it made between attempts (no clock involved)."""
    result = fetcher.fetch("src", url)
    return fetcher.waits, result


@pytest.mark.slow  # waits out a time bound
def test_retry_after_seconds_is_honoured(server: ScriptedServer, store: BlobStore) -> None:
    server.script("/r", [Reply(429, b"", {"Retry-After": "1"}), Reply(200, b"ok")])
    with Fetcher(store, FetchPolicy(backoff=0.01, max_retry_after=5)) as f:
        waits, result = waited_fetch(f, server.url("/r"))
    assert result.status == 200
    assert waits == [1.0]


def test_retry_after_is_capped(server: ScriptedServer, fetcher: Fetcher) -> None:
    server.script("/r", [Reply(429, b"", {"Retry-After": "3600"}), Reply(200, b"ok")])
    waits, result = waited_fetch(fetcher, server.url("/r"))
    assert result.status == 200
    assert waits == [FAST.max_retry_after]


def test_retry_after_http_date_is_honoured_and_capped(
    server: ScriptedServer, fetcher: Fetcher
) -> None:
    later = format_datetime(datetime.now(UTC) + timedelta(hours=1), usegmt=True)
    server.script("/r", [Reply(503, b"", {"Retry-After": later}), Reply(200, b"ok")])
    waits, _ = waited_fetch(fetcher, server.url("/r"))
    # Backoff alone would wait 0.01 s; the date made it wait the capped 0.5 s.
    assert waits == [FAST.max_retry_after]


def test_retry_after_past_the_deadline_fails_at_once(
    server: ScriptedServer, store: BlobStore
) -> None:
    server.serve("/r", Reply(429, b"", {"Retry-After": "30"}))
    with Fetcher(store, FetchPolicy(deadline=2, max_retry_after=60)) as f:
        err = assert_fails(f, server.url("/r"))
    assert f.waits == [], "it gives up at once instead of waiting"
    assert "waiting 30 s to retry would pass the 2 s deadline" in err.problem


def test_parse_retry_after_forms() -> None:
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC).timestamp()
    assert parse_retry_after("120", now) == 120.0
    assert parse_retry_after("Wed, 01 Jan 2025 12:00:30 GMT", now) == 30.0
    assert parse_retry_after("Wed, 01 Jan 2025 11:00:00 GMT", now) == 0.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after(None, now) is None


# --------------------------------------------------------------------------- deadline


@pytest.mark.slow  # waits out a time bound
def test_slow_drip_is_cut_at_the_deadline(server: ScriptedServer, store: BlobStore) -> None:
    server.serve("/drip.pdf", Reply(200, PDF[:200], delay=1.0))
    with Fetcher(store, FetchPolicy(deadline=2, read_timeout=30, retries=3)) as f:
        err = assert_fails(f, server.url("/drip.pdf"), expect="pdf")
    assert err.problem.startswith("download did not finish within the 2 s deadline (")
    assert "bytes received" in err.problem
    assert len(server.requests) == 1, "a deadline is total: no retry after it"


@pytest.mark.slow  # waits out a time bound
def test_stalled_body_is_cut_at_the_deadline_not_the_read_timeout(
    server: ScriptedServer, store: BlobStore
) -> None:
    server.serve("/stall.pdf", Reply(200, PDF, stall=30))
    with Fetcher(store, FetchPolicy(deadline=1.5, read_timeout=30)) as f:
        err = assert_fails(f, server.url("/stall.pdf"))
    assert "1.5 s deadline" in err.problem


@pytest.mark.slow  # waits out a time bound
def test_stall_mid_body_is_cut_at_the_deadline(server: ScriptedServer, store: BlobStore) -> None:
    # Bytes at 0 s and 1.4 s, then silence: a socket timeout fixed when the request was
    # sent (3 s) would let the last read wait until 4.4 s; the deadline is 3 s.
    server.serve("/stall.pdf", Reply(200, PDF, delay=1.4, stall=30, stall_at=2))
    with Fetcher(store, FetchPolicy(deadline=3, read_timeout=30)) as f:
        err = assert_fails(f, server.url("/stall.pdf"))
    assert err.problem == "download did not finish within the 3 s deadline (2 bytes received)"


# --------------------------------------------------------------------------- pure policy


@pytest.mark.parametrize(
    ("src", "dst", "allowed", "refused"),
    [
        ("https://a.example/x", "https://a.example/y", [], None),
        ("http://a.example/x", "https://a.example/y", [], None),
        ("https://a.example/x", "https://cdn.example/y", ["cdn.example"], None),
        ("https://a.example/x", "https://CDN.Example/y", ["cdn.example"], None),
        ("https://a.example/x", "https://cdn.example:8443/y", ["cdn.example:8443"], None),
        ("https://a.example/x", "http://a.example/y", [], "downgrades https to plain http"),
        ("https://a.example/x", "http://cdn.example/y", ["cdn.example"], "downgrades https"),
        ("https://a.example/x", "https://evil.example/y", ["cdn.example"], "host evil.example"),
        ("https://a.example/x", "https://cdn.example:9/y", ["cdn.example:8443"], "host cdn"),
        ("https://a.example/x", "ftp://a.example/y", [], "scheme 'ftp'"),
        ("https://a.example/x", "file:///etc/passwd", [], "scheme 'file'"),
    ],
)
def test_check_redirect(src: str, dst: str, allowed: list[str], refused: str | None) -> None:
    problem = check_redirect(src, dst, allowed)
    if refused is None:
        assert problem is None
    else:
        assert problem is not None and refused in problem


def test_sniff_rules() -> None:
    assert is_html_page(b"\xef\xbb\xbf \r\n<!DocType HTML>")
    assert is_html_page(b"<html lang=en>")
    assert not is_html_page(b"1. Game Concepts <html> appears later")
    assert sniff_problem(HTML, "html") is None
    assert sniff_problem(PDF, "pdf") is None
    assert sniff_problem(b"Magic: The Gathering Comprehensive Rules", "txt") is None
    assert sniff_problem(b'{"rulings": []}', "json") is None
    problem = sniff_problem(HTML, "pdf", None)
    assert problem == "server sent an HTML page (no Content-Type) where a PDF was expected"
    with pytest.raises(ValueError, match="unknown rendition"):
        sniff_problem(PDF, "docx")
