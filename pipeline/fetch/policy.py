"""Fetch policy as pure functions: limits, redirect rules, Retry-After, content sniffing.

Kept apart from fetch.py (the only module that imports requests) so the rules
can be read, and tested, without a network.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
EXPECTATIONS = frozenset({"pdf", "txt", "json", "tar.gz", "html", "wiki"})
SNIFF_BYTES = 1024
READ_SIZE = 1 << 16
GZIP_MAGIC = b"\x1f\x8b"

HINT_MOVED = "the URL may have moved; check it in a browser and update the registry"
HINT_LATER = "the server or the network may be down or overloaded; try again later"
HINT_SLOW = "the server is very slow or stalled; try again later, or raise the deadline"
HINT_RUN_DEADLINE = "raise `update --deadline`, or fetch fewer sources per run"
HINT_SIZE = "if the document really grew, raise max_bytes for this source in the registry"


@dataclass(frozen=True)
class FetchPolicy:
    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    deadline: float = 300.0  # total seconds for one download, retries included
    max_bytes: int = 64 * 1024 * 1024
    retries: int = 4
    backoff: float = 1.0  # exponential: backoff * 2**attempt
    max_retry_after: float = 60.0  # Retry-After honoured but capped at this
    max_redirects: int = 5
    user_agent: str = (
        "rulescorpus/0.1 (rules corpus verifier; +https://github.com/rulescorpus/rulescorpus)"
    )


# --------------------------------------------------------------------------- pure policy


def check_redirect(from_url: str, to_url: str, allowed_hosts: Sequence[str]) -> str | None:
    """Why a redirect from `from_url` to `to_url` is refused, or None when it may be followed.

    The host of `from_url` is allowed, as is any host in `allowed_hosts` (a bare host
    name, or `host:port` to allow one port only). Never https to http.
    """
    src, dst = urlsplit(from_url), urlsplit(to_url)
    if dst.scheme not in ("http", "https"):
        return f"the target scheme {dst.scheme!r} is not http or https"
    if src.scheme == "https" and dst.scheme == "http":
        return "it downgrades https to plain http"
    if not dst.hostname:
        return "the target has no host"
    allowed = {h.lower() for h in allowed_hosts}
    if src.hostname:
        allowed.add(src.hostname.lower())
    host = dst.hostname.lower()
    if host in allowed or (dst.port is not None and f"{host}:{dst.port}" in allowed):
        return None
    return f"host {host} is not among the allowed hosts ({', '.join(sorted(allowed))})"


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP-date); None if unusable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def is_html_page(head: bytes) -> bool:
    """True when the bytes open like an HTML document (after whitespace and a UTF-8 BOM)."""
    text = head.lstrip().removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    return text.startswith((b"<!doctype html", b"<html"))


def sniff_problem(head: bytes, expect: str, content_type: str | None = None) -> str | None:
    """What is wrong with a body whose first bytes are `head` for rendition `expect`, or None."""
    if expect not in EXPECTATIONS:
        raise ValueError(f"unknown rendition to expect: {expect!r}")
    if not head:
        return "the server sent an empty body"
    if expect in ("html", "wiki"):
        return None
    what = {"pdf": "a PDF", "txt": "a text file", "json": "JSON", "tar.gz": "a .tar.gz archive"}
    if is_html_page(head):
        kind = content_type or "no Content-Type"
        return f"server sent an HTML page ({kind}) where {what[expect]} was expected"
    if expect == "pdf" and not head.startswith(b"%PDF-"):
        return f"the body does not start with %PDF- (it starts with {head[:16]!r}): not a PDF"
    if expect == "tar.gz" and not head.startswith(GZIP_MAGIC):
        return (
            f"the body does not start with the gzip magic bytes 1f 8b (it starts with "
            f"{head[:16]!r}), so it is not a .tar.gz archive"
        )
    return None


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
