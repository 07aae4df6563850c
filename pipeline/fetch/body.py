"""Reading one HTTP response body: the deadline, the byte cap, Content-Length at both ends,
and the content sniff. `Fetcher` (http.py) drives it; `Retry` and `Refused` are how a
read says the attempt should be made again or given up.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import requests
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.exceptions import ReadTimeoutError

from pipeline.fetch.policy import (
    HINT_MOVED,
    HINT_SIZE,
    HINT_SLOW,
    READ_SIZE,
    SNIFF_BYTES,
    sniff_problem,
)
from pipeline.models.sources import FetchResult

# --------------------------------------------------------------------------- control flow


class Retry(Exception):
    """A failure worth another attempt (connection trouble, 429, 5xx, a broken-off body)."""

    def __init__(self, problem: str, retry_after: float | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.retry_after = retry_after


class Refused(Exception):
    """A failure no retry will fix; becomes a FetchError naming the source."""

    def __init__(self, problem: str, hint: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.hint = hint


@dataclass
class Job:
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

    def past_deadline(self, received: int = 0) -> Refused:
        got = f" ({received} bytes received)" if received else ""
        return Refused(
            f"download did not finish within the {self.deadline:g} s deadline{got}", HINT_SLOW
        )


def socket_of(resp: requests.Response) -> socket.socket | None:
    # The live socket lets each read wait no longer than the deadline allows. The
    # connection drops its reference when the server says "Connection: close", so fall
    # back to the socket under http.client's buffered reader (CPython internals).
    sock = getattr(getattr(resp.raw, "connection", None), "sock", None)
    if sock is None:
        buffered = getattr(getattr(resp.raw, "_fp", None), "fp", None)
        sock = getattr(getattr(buffered, "raw", None), "_sock", None)
    return sock if isinstance(sock, socket.socket) else None


def content_length(resp: requests.Response) -> int | None:
    value = resp.headers.get("Content-Length")
    return int(value) if value is not None and value.strip().isdigit() else None


# --------------------------------------------------------------------------- fetcher


def read_body(
    job: Job, current: str, resp: requests.Response, length: int | None, read_timeout: float
) -> Iterator[bytes]:
    """The body in chunks, within the job's deadline and byte cap, checked against its
    Content-Length at both ends."""
    # read1 returns as soon as any bytes arrive, and the socket timeout shrinks with the
    # deadline, so a server dripping one byte a second cannot outlive the deadline.
    raw = resp.raw
    sock = socket_of(resp)
    total = 0
    while True:
        remaining = job.remaining()
        if remaining <= 0:
            raise job.past_deadline(total)
        if sock is not None and sock.fileno() != -1:
            # Closed once the last bytes are read; then the next read1 just returns b"".
            sock.settimeout(max(0.001, min(read_timeout, remaining)))
        if length is not None and buffered_past(resp, sock, length - raw.tell()):
            # http.client stops at Content-Length and drops the rest: a body longer
            # than announced is a broken or tampered response, never a version.
            raise Retry(
                f"the server sent more than the {length} bytes its Content-Length "
                f"announced{job.at(current)}"
            )
        try:
            chunk = raw.read1(READ_SIZE, decode_content=True)
        except ReadTimeoutError:
            if job.remaining() <= 0:
                raise job.past_deadline(total) from None
            raise Retry(
                f"nothing arrived for {read_timeout:g} s after {total} bytes{job.at(current)}"
            ) from None
        except (Urllib3Error, OSError) as exc:
            received = raw.tell()
            if length is not None and received < length:
                raise Retry(truncated(received, length) + job.at(current)) from None
            reason = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
            raise Retry(
                f"the connection broke after {total} bytes{job.at(current)} ({reason[:120]})"
            ) from None
        if not chunk:
            break
        total += len(chunk)
        if total > job.max_bytes:
            raise Refused(
                f"the body passed the {job.max_bytes} byte limit while downloading",
                HINT_SIZE,
            )
        yield chunk
    received = raw.tell()
    if length is not None and received < length:
        raise Retry(truncated(received, length) + job.at(current))


def buffered_past(resp: requests.Response, sock: socket.socket | None, remaining: int) -> bool:
    """More bytes already received than the announced body has left (CPython internals, as
    `socket_of`: http.client's buffered reader). Never waits: the socket is polled
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


def truncated(received: int, length: int) -> str:
    return f"the connection closed after {received} of {length} bytes (truncated download)"


def sniffed(chunks: Iterable[bytes], expect: str, content_type: str | None) -> Iterator[bytes]:
    """Pass chunks through once the first bytes show the body is the rendition expected."""
    head = b""
    rest = iter(chunks)
    for chunk in rest:
        head += chunk
        if len(head) >= SNIFF_BYTES:
            break
    problem = sniff_problem(head, expect, content_type)
    if problem:
        raise Refused(problem, HINT_MOVED)
    yield head
    yield from rest
