"""HTTP downloads into the blob store. The only module that imports `requests`.

One `Fetcher.fetch` call is one download, bounded in every direction: connect
and read timeouts, a total deadline (retries and backoff included), a byte cap,
a redirect policy checked hop by hop, and a content sniff so that an HTML error
page served with status 200 never reaches a parser. Bytes stream through
SHA-256 straight into the blob store; a failed download stores nothing.

Retries are a small loop rather than urllib3's `Retry`: the deadline has to
cover the backoff sleeps, every redirect hop has to pass `check_redirect`, and
a body that breaks off mid-stream (which `Retry` never sees) is retried too.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import urljoin, urlsplit

import requests
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.exceptions import ReadTimeoutError

from pipeline.errors import FetchError
from pipeline.fetch.policy import (
    EXPECTATIONS,
    HINT_LATER,
    HINT_MOVED,
    HINT_SIZE,
    HINT_SLOW,
    READ_SIZE,
    REDIRECT_STATUSES,
    SNIFF_BYTES,
    FetchPolicy,
    check_redirect,
    is_html_page,
    parse_retry_after,
    sniff_problem,
    utc_now,
)
from pipeline.models import FetchResult
from pipeline.store.blobs import BlobStore

__all__ = [
    "FetchPolicy",
    "Fetcher",
    "check_redirect",
    "is_html_page",
    "parse_retry_after",
    "sniff_problem",
]


# --------------------------------------------------------------------------- control flow


class _Retry(Exception):
    """A failure worth another attempt (connection trouble, 429, 5xx, a broken-off body)."""

    def __init__(self, problem: str, retry_after: float | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.retry_after = retry_after


HINT_RUN_DEADLINE = "raise `update --deadline`, or fetch fewer sources per run"


class _Refused(Exception):
    """A failure no retry will fix; becomes a FetchError naming the source."""

    def __init__(self, problem: str, hint: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.hint = hint


@dataclass
class _Job:
    source: str
    url: str
    allowed_hosts: tuple[str, ...]
    expect: str | None
    previous: FetchResult | None
    deadline_at: float
    deadline: float
    max_bytes: int

    def at(self, current: str) -> str:
        """Where a problem happened, when a redirect took the download off the URL asked for."""
        return "" if current == self.url else f" at {current}"

    def remaining(self) -> float:
        return self.deadline_at - time.monotonic()

    def past_deadline(self, received: int = 0) -> _Refused:
        got = f" ({received} bytes received)" if received else ""
        return _Refused(
            f"download did not finish within the {self.deadline:g} s deadline{got}", HINT_SLOW
        )


def _describe_connection_error(exc: BaseException) -> str:
    text = str(exc)
    if "refused" in text.lower():
        return "connection refused"
    if any(s in text for s in ("Name or service not known", "failure in name", "nodename")):
        return "the host name could not be resolved"
    if "RemoteDisconnected" in text or "closed connection without response" in text:
        return "the server closed the connection without answering"
    return f"connection failed: {text[:200]}"


def _socket_of(resp: requests.Response) -> socket.socket | None:
    # The live socket lets each read wait no longer than the deadline allows. The
    # connection drops its reference when the server says "Connection: close", so fall
    # back to the socket under http.client's buffered reader (CPython internals).
    sock = getattr(getattr(resp.raw, "connection", None), "sock", None)
    if sock is None:
        buffered = getattr(getattr(resp.raw, "_fp", None), "fp", None)
        sock = getattr(getattr(buffered, "raw", None), "_sock", None)
    return sock if isinstance(sock, socket.socket) else None


def _content_length(resp: requests.Response) -> int | None:
    value = resp.headers.get("Content-Length")
    return int(value) if value is not None and value.strip().isdigit() else None


# --------------------------------------------------------------------------- fetcher


class Fetcher:
    """Downloads URLs into a BlobStore under a FetchPolicy. Reuse one for many fetches."""

    def __init__(
        self,
        blobs: BlobStore,
        policy: FetchPolicy = FetchPolicy(),
        run_deadline_at: float | None = None,
    ) -> None:
        self.blobs = blobs
        self.policy = policy
        # time.monotonic() by which the whole run must end: no download outlives it.
        self.run_deadline_at = run_deadline_at
        # Every wait between attempts, in seconds: what a report (or a test) can check
        # without a clock.
        self.waits: list[float] = []
        self._session = requests.Session()
        self._session.headers["User-Agent"] = policy.user_agent
        # The publisher's exact bytes are what gets hashed, so ask for no transfer compression.
        self._session.headers["Accept-Encoding"] = "identity"

    def close(self) -> None:
        self._session.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def fetch(
        self,
        source_id: str,
        url: str,
        *,
        allowed_hosts: Sequence[str] = (),
        expect: str | None = None,
        previous: FetchResult | None = None,
        max_bytes: int | None = None,
    ) -> FetchResult:
        """Download `url` into the blob store, or raise FetchError saying why and what to do.

        With `previous` (an earlier result for the same URL whose blob is still stored)
        the request is conditional; a 304 re-hashes and reuses that blob
        (HashMismatch if it was altered on disk). `max_bytes` (a source's own cap from
        the registry) replaces the policy's cap for this download.
        """
        if expect is not None and expect not in EXPECTATIONS:
            raise ValueError(f"unknown rendition to expect: {expect!r}")
        origin = urlsplit(url).hostname or ""
        deadline_at = time.monotonic() + self.policy.deadline
        if self.run_deadline_at is not None and self.run_deadline_at < deadline_at:
            deadline_at = self.run_deadline_at
            if deadline_at <= time.monotonic():
                raise FetchError(
                    source_id, url, "not fetched: the run's deadline had passed", HINT_RUN_DEADLINE
                )
        job = _Job(
            source_id,
            url,
            (*allowed_hosts, origin),
            expect,
            previous,
            deadline_at,
            round(deadline_at - time.monotonic(), 1),
            self.policy.max_bytes if max_bytes is None else max_bytes,
        )
        try:
            return self._fetch_with_retries(job)
        except _Refused as exc:
            raise FetchError(source_id, url, exc.problem, exc.hint) from None

    def fetch_page(
        self,
        source_id: str,
        url: str,
        *,
        allowed_hosts: Sequence[str] = (),
        previous: FetchResult | None = None,
    ) -> tuple[FetchResult, bytes]:
        """Fetch a landing page (stored as a blob for provenance) and return its bytes too."""
        result = self.fetch(
            source_id, url, allowed_hosts=allowed_hosts, expect="html", previous=previous
        )
        return result, self.blobs.read(result.sha256)

    # -- one download, several attempts
    def _fetch_with_retries(self, job: _Job) -> FetchResult:
        policy = self.policy
        headers = self._conditional_headers(job)
        for attempt in range(policy.retries + 1):
            try:
                return self._attempt(job, headers)
            except _Retry as exc:
                tries = f"{attempt + 1} attempt" + ("s" if attempt else "")
                if attempt == policy.retries:
                    raise _Refused(f"{exc.problem} (gave up after {tries})", HINT_LATER) from None
                if exc.retry_after is None:
                    wait = policy.backoff * 2**attempt
                else:
                    wait = min(exc.retry_after, policy.max_retry_after)
                if wait >= job.remaining():
                    raise _Refused(
                        f"{exc.problem}; waiting {wait:g} s to retry would pass the "
                        f"{job.deadline:g} s deadline (after {tries})",
                        HINT_LATER,
                    ) from None
                self.waits.append(wait)
                time.sleep(wait)
        raise AssertionError("unreachable: the loop returns or raises")

    def _conditional_headers(self, job: _Job) -> dict[str, str]:
        prev = job.previous
        # Validators belong to the URL that sent them (the one asked for or the one redirected
        # to), and only pay off if the blob they vouch for is still here.
        if prev is None or job.url not in (prev.url, prev.final_url):
            return {}
        if not self.blobs.has(prev.sha256):
            return {}
        headers = {}
        if prev.etag:
            headers["If-None-Match"] = prev.etag
        if prev.last_modified:
            headers["If-Modified-Since"] = prev.last_modified
        return headers

    def _attempt(self, job: _Job, headers: dict[str, str]) -> FetchResult:
        current = job.url
        for _hop in range(self.policy.max_redirects + 1):
            with self._send(job, current, headers) as resp:
                status = resp.status_code
                if status in REDIRECT_STATUSES:
                    current = self._follow(job, current, resp)
                    continue
                if status == 304:
                    return self._reuse(job, current, resp, headers)
                if status == 429 or status >= 500:
                    raise _Retry(
                        f"HTTP {status} {resp.reason}{job.at(current)}",
                        parse_retry_after(resp.headers.get("Retry-After")),
                    )
                if status != 200:
                    hint = HINT_MOVED if status in (404, 410) else "check the URL in a browser"
                    raise _Refused(f"HTTP {status} {resp.reason}{job.at(current)}", hint)
                return self._store(job, current, resp)
        raise _Refused(
            f"more than {self.policy.max_redirects} redirects (the last one to {current})",
            "the URL may redirect in a loop; open it in a browser and put the final URL "
            "in the registry",
        )

    def _send(self, job: _Job, url: str, headers: dict[str, str]) -> requests.Response:
        remaining = job.remaining()
        if remaining <= 0:
            raise job.past_deadline()
        timeout = (
            min(self.policy.connect_timeout, remaining),
            min(self.policy.read_timeout, remaining),
        )
        try:
            return self._session.get(
                url, headers=headers, stream=True, allow_redirects=False, timeout=timeout
            )
        except requests.exceptions.ConnectTimeout:
            if job.remaining() <= 0:
                raise job.past_deadline() from None
            raise _Retry(f"connecting timed out after {timeout[0]:g} s{job.at(url)}") from None
        except requests.exceptions.ReadTimeout:
            if job.remaining() <= 0:
                raise job.past_deadline() from None
            raise _Retry(f"no response within {timeout[1]:g} s{job.at(url)}") from None
        except requests.exceptions.SSLError as exc:
            raise _Refused(
                f"TLS failed{job.at(url)}: {str(exc)[:200]}",
                "the certificate could not be verified; check the host name in the registry",
            ) from None
        except requests.exceptions.ConnectionError as exc:
            raise _Retry(f"{_describe_connection_error(exc)}{job.at(url)}") from None
        except (
            requests.exceptions.InvalidURL,
            requests.exceptions.MissingSchema,
            requests.exceptions.InvalidSchema,
        ) as exc:
            raise _Refused(f"invalid URL: {exc}", "fix the URL in the registry") from None
        except requests.RequestException as exc:
            raise _Retry(f"request failed: {str(exc)[:200]}") from None

    def _follow(self, job: _Job, current: str, resp: requests.Response) -> str:
        location = resp.headers.get("Location")
        if not location:
            missing = f"HTTP {resp.status_code} redirect without a Location header"
            raise _Refused(missing, HINT_MOVED)
        target = urljoin(current, location)
        problem = check_redirect(current, target, job.allowed_hosts)
        if problem:
            raise _Refused(
                f"redirect from {current} to {target} refused: {problem}",
                "if the publisher moved the file, check the new address and add its host to "
                "allowed_hosts in the registry or update the URL",
            )
        return target

    def _reuse(
        self, job: _Job, current: str, resp: requests.Response, headers: dict[str, str]
    ) -> FetchResult:
        prev = job.previous
        if not headers or prev is None:
            raise _Refused(
                f"HTTP 304 Not Modified{job.at(current)} to a request without conditions",
                "the server is misbehaving; try again later",
            )
        if not self.blobs.has(prev.sha256):
            # The blob vanished since the request went out: ask again for the full body.
            return self._attempt(job, {})
        size = self.blobs.check(prev.sha256)
        return FetchResult(
            source=job.source,
            url=job.url,
            final_url=current,
            status=304,
            etag=resp.headers.get("ETag") or prev.etag,
            last_modified=resp.headers.get("Last-Modified") or prev.last_modified,
            content_type=prev.content_type,
            bytes=size,
            sha256=prev.sha256,
            retrieved=utc_now(),
            from_cache=True,
        )

    def _store(self, job: _Job, current: str, resp: requests.Response) -> FetchResult:
        length = _content_length(resp)
        if length is not None and length > job.max_bytes:
            raise _Refused(
                f"server announced {length} bytes, over the {job.max_bytes} byte limit",
                HINT_SIZE,
            )
        content_type = resp.headers.get("Content-Type")
        chunks: Iterable[bytes] = self._read_body(job, current, resp, length)
        if job.expect is not None:
            chunks = _sniffed(chunks, job.expect, content_type)
        sha256, size = self.blobs.write_stream(chunks)
        return FetchResult(
            source=job.source,
            url=job.url,
            final_url=current,
            status=resp.status_code,
            etag=resp.headers.get("ETag"),
            last_modified=resp.headers.get("Last-Modified"),
            content_type=content_type,
            bytes=size,
            sha256=sha256,
            retrieved=utc_now(),
        )

    def _read_body(
        self, job: _Job, current: str, resp: requests.Response, length: int | None
    ) -> Iterator[bytes]:
        # read1 returns as soon as any bytes arrive, and the socket timeout shrinks with the
        # deadline, so a server dripping one byte a second cannot outlive the deadline.
        raw = resp.raw
        sock = _socket_of(resp)
        total = 0
        while True:
            remaining = job.remaining()
            if remaining <= 0:
                raise job.past_deadline(total)
            if sock is not None and sock.fileno() != -1:
                # Closed once the last bytes are read; then the next read1 just returns b"".
                sock.settimeout(max(0.001, min(self.policy.read_timeout, remaining)))
            if length is not None and _buffered_past(resp, sock, length - raw.tell()):
                # http.client stops at Content-Length and drops the rest: a body longer
                # than announced is a broken or tampered response, never a version.
                raise _Retry(
                    f"the server sent more than the {length} bytes its Content-Length "
                    f"announced{job.at(current)}"
                )
            try:
                chunk = raw.read1(READ_SIZE, decode_content=True)
            except ReadTimeoutError:
                if job.remaining() <= 0:
                    raise job.past_deadline(total) from None
                raise _Retry(
                    f"nothing arrived for {self.policy.read_timeout:g} s after {total} bytes"
                    f"{job.at(current)}"
                ) from None
            except (Urllib3Error, OSError) as exc:
                received = raw.tell()
                if length is not None and received < length:
                    raise _Retry(_truncated(received, length) + job.at(current)) from None
                reason = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
                raise _Retry(
                    f"the connection broke after {total} bytes{job.at(current)} ({reason[:120]})"
                ) from None
            if not chunk:
                break
            total += len(chunk)
            if total > job.max_bytes:
                raise _Refused(
                    f"the body passed the {job.max_bytes} byte limit while downloading",
                    HINT_SIZE,
                )
            yield chunk
        received = raw.tell()
        if length is not None and received < length:
            raise _Retry(_truncated(received, length) + job.at(current))


def _buffered_past(resp: requests.Response, sock: socket.socket | None, remaining: int) -> bool:
    """More bytes already received than the announced body has left (CPython internals, as
    `_socket_of`: http.client's buffered reader). Never waits: the socket is polled
    non-blocking, which SocketIO answers with "nothing yet" instead of a timeout."""
    if remaining < 0:
        return True
    buffered = getattr(getattr(resp.raw, "_fp", None), "fp", None)
    peek = getattr(buffered, "peek", None)
    if peek is None or sock is None or sock.fileno() == -1:
        return False
    timeout = sock.gettimeout()
    sock.setblocking(False)
    try:
        return len(peek(remaining + 1)) > remaining
    except (OSError, ValueError):
        return False
    finally:
        sock.settimeout(timeout)


def _truncated(received: int, length: int) -> str:
    return f"the connection closed after {received} of {length} bytes (truncated download)"


def _sniffed(chunks: Iterable[bytes], expect: str, content_type: str | None) -> Iterator[bytes]:
    """Pass chunks through once the first bytes show the body is the rendition expected."""
    head = b""
    rest = iter(chunks)
    for chunk in rest:
        head += chunk
        if len(head) >= SNIFF_BYTES:
            break
    problem = sniff_problem(head, expect, content_type)
    if problem:
        raise _Refused(problem, HINT_MOVED)
    yield head
    yield from rest


def post_json(url: str, payload: object, policy: FetchPolicy) -> None:
    """POST a JSON document (the `update --notify` webhook); FetchError when it is refused."""
    try:
        resp = requests.post(
            url,
            json=payload,
            timeout=(policy.connect_timeout, policy.read_timeout),
            headers={"User-Agent": policy.user_agent},
            allow_redirects=False,
        )
    except requests.RequestException as exc:
        raise FetchError("notify", url, str(exc), "check the --notify URL") from exc
    if not 200 <= resp.status_code < 300:
        raise FetchError("notify", url, f"HTTP {resp.status_code}", "check the --notify URL")
