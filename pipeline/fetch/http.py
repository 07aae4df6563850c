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

import time
from collections.abc import Iterable, Sequence
from types import TracebackType
from urllib.parse import urljoin, urlsplit

import requests

from pipeline.errors import FetchError
from pipeline.fetch.body import (
    Job,
    Refused,
    Retry,
    content_length,
    read_body,
    sniffed,
)
from pipeline.fetch.policy import (
    EXPECTATIONS,
    HINT_LATER,
    HINT_MOVED,
    HINT_RUN_DEADLINE,
    HINT_SIZE,
    REDIRECT_STATUSES,
    FetchPolicy,
    check_redirect,
    parse_retry_after,
    utc_now,
)
from pipeline.models.sources import FetchResult
from pipeline.store.blobs import BlobStore


def _describe_connection_error(exc: BaseException) -> str:
    text = str(exc)
    if "refused" in text.lower():
        return "connection refused"
    if any(s in text for s in ("Name or service not known", "failure in name", "nodename")):
        return "the host name could not be resolved"
    if "RemoteDisconnected" in text or "closed connection without response" in text:
        return "the server closed the connection without answering"
    return f"connection failed: {text[:200]}"


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
        job = Job(
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
        except Refused as exc:
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
    def _fetch_with_retries(self, job: Job) -> FetchResult:
        policy = self.policy
        headers = self._conditional_headers(job)
        for attempt in range(policy.retries + 1):
            try:
                return self._attempt(job, headers)
            except Retry as exc:
                tries = f"{attempt + 1} attempt" + ("s" if attempt else "")
                if attempt == policy.retries:
                    raise Refused(f"{exc.problem} (gave up after {tries})", HINT_LATER) from None
                if exc.retry_after is None:
                    wait = policy.backoff * 2**attempt
                else:
                    wait = min(exc.retry_after, policy.max_retry_after)
                if wait >= job.remaining():
                    raise Refused(
                        f"{exc.problem}; waiting {wait:g} s to retry would pass the "
                        f"{job.deadline:g} s deadline (after {tries})",
                        HINT_LATER,
                    ) from None
                self.waits.append(wait)
                time.sleep(wait)
        raise AssertionError("unreachable: the loop returns or raises")

    def _conditional_headers(self, job: Job) -> dict[str, str]:
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

    def _attempt(self, job: Job, headers: dict[str, str]) -> FetchResult:
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
                    raise Retry(
                        f"HTTP {status} {resp.reason}{job.at(current)}",
                        parse_retry_after(resp.headers.get("Retry-After")),
                    )
                if status != 200:
                    hint = HINT_MOVED if status in (404, 410) else "check the URL in a browser"
                    raise Refused(f"HTTP {status} {resp.reason}{job.at(current)}", hint)
                return self._store(job, current, resp)
        raise Refused(
            f"more than {self.policy.max_redirects} redirects (the last one to {current})",
            "the URL may redirect in a loop; open it in a browser and put the final URL "
            "in the registry",
        )

    def _send(self, job: Job, url: str, headers: dict[str, str]) -> requests.Response:
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
        except (requests.exceptions.ConnectTimeout, requests.exceptions.ReadTimeout) as exc:
            if job.remaining() <= 0:
                raise job.past_deadline() from None
            if isinstance(exc, requests.exceptions.ConnectTimeout):
                raise Retry(f"connecting timed out after {timeout[0]:g} s{job.at(url)}") from None
            raise Retry(f"no response within {timeout[1]:g} s{job.at(url)}") from None
        except requests.exceptions.SSLError as exc:
            raise Refused(
                f"TLS failed{job.at(url)}: {str(exc)[:200]}",
                "the certificate could not be verified; check the host name in the registry",
            ) from None
        except requests.exceptions.ConnectionError as exc:
            raise Retry(f"{_describe_connection_error(exc)}{job.at(url)}") from None
        except (
            requests.exceptions.InvalidURL,
            requests.exceptions.MissingSchema,
            requests.exceptions.InvalidSchema,
        ) as exc:
            raise Refused(f"invalid URL: {exc}", "fix the URL in the registry") from None
        except requests.RequestException as exc:
            raise Retry(f"request failed: {str(exc)[:200]}") from None

    def _follow(self, job: Job, current: str, resp: requests.Response) -> str:
        location = resp.headers.get("Location")
        if not location:
            missing = f"HTTP {resp.status_code} redirect without a Location header"
            raise Refused(missing, HINT_MOVED)
        target = urljoin(current, location)
        problem = check_redirect(current, target, job.allowed_hosts)
        if problem:
            raise Refused(
                f"redirect from {current} to {target} refused: {problem}",
                "if the publisher moved the file, check the new address and add its host to "
                "allowed_hosts in the registry or update the URL",
            )
        return target

    def _reuse(
        self, job: Job, current: str, resp: requests.Response, headers: dict[str, str]
    ) -> FetchResult:
        prev = job.previous
        if not headers or prev is None:
            raise Refused(
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

    def _store(self, job: Job, current: str, resp: requests.Response) -> FetchResult:
        length = content_length(resp)
        if length is not None and length > job.max_bytes:
            raise Refused(
                f"server announced {length} bytes, over the {job.max_bytes} byte limit",
                HINT_SIZE,
            )
        content_type = resp.headers.get("Content-Type")
        chunks: Iterable[bytes] = read_body(job, current, resp, length, self.policy.read_timeout)
        if job.expect is not None:
            chunks = sniffed(chunks, job.expect, content_type)
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
