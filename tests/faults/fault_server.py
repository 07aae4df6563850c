"""A misbehaving HTTP(S) server on 127.0.0.1 (port 0) in a thread, scripted per path.

Unlike tests/support/server.py, which scripts well-formed replies, each path here is
answered by a `Behaviour`: a function that gets the request and the raw
connection and may do anything a broken or hostile server does (never answer,
drip, stream forever, lie about Content-Length, redirect in circles). A path
may have a list of behaviours, served in order, the last one repeated.

    with FaultServer() as srv:
        srv.route("/cr.txt", [status(503), send(body)])
        url = srv.url("/cr.txt")
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import time
from collections.abc import Callable, Mapping, Sequence
from http.server import BaseHTTPRequestHandler

from tests.support.server import HOST, OwnedServer, Request, ThreadedServer


class Connection:
    """What a behaviour may do with the client's connection."""

    def __init__(self, handler: _Handler) -> None:
        self._handler = handler
        self.stopping = handler.server.owner.stopping

    def head(self, status: int, headers: Mapping[str, str] | None = None) -> None:
        """The status line and headers (no Content-Length unless given)."""
        self._handler.send_response(status)
        for name, value in (headers or {}).items():
            self._handler.send_header(name, value)
        self._handler.send_header("Connection", "close")
        self._handler.end_headers()
        self._handler.wfile.flush()

    def write(self, data: bytes) -> None:
        self._handler.wfile.write(data)
        self._handler.wfile.flush()

    def wait(self, seconds: float) -> bool:
        """Sleep, waking early when the server stops; False once it is stopping."""
        return not self.stopping.wait(seconds)


Behaviour = Callable[[Request, Connection], None]


# --------------------------------------------------------------------------- behaviours


def send(
    body: bytes,
    headers: Mapping[str, str] | None = None,
    *,
    status: int = 200,
    length: int | None = None,
) -> Behaviour:
    """A complete reply; `length` announces another Content-Length than the body's."""

    def behave(_request: Request, conn: Connection) -> None:
        announced = len(body) if length is None else length
        conn.head(status, {"Content-Length": str(announced), **(headers or {})})
        conn.write(body)

    return behave


def status(code: int, headers: Mapping[str, str] | None = None, body: bytes = b"") -> Behaviour:
    return send(body, headers, status=code)


def redirect(location: str, code: int = 302) -> Behaviour:
    return send(b"", {"Location": location}, status=code)


def conditional(body: bytes, etag: str, headers: Mapping[str, str] | None = None) -> Behaviour:
    """200 with an ETag, or 304 when the request carries that ETag back."""

    def behave(request: Request, conn: Connection) -> None:
        if request.headers.get("if-none-match") == etag:
            conn.head(304, {"ETag": etag})
            return
        send(body, {"ETag": etag, **(headers or {})})(request, conn)

    return behave


def silent() -> Behaviour:
    """Read the request and never answer (until the server stops)."""

    def behave(_request: Request, conn: Connection) -> None:
        while conn.wait(0.5):
            pass

    return behave


def drip(body: bytes, interval: float, headers: Mapping[str, str] | None = None) -> Behaviour:
    """Announce the whole body, then send one byte every `interval` seconds."""

    def behave(_request: Request, conn: Connection) -> None:
        conn.head(200, {"Content-Length": str(len(body)), **(headers or {})})
        for i in range(len(body)):
            conn.write(body[i : i + 1])
            if not conn.wait(interval):
                return

    return behave


def endless(chunk: bytes, headers: Mapping[str, str] | None = None) -> Behaviour:
    """A body with no length that never ends (until the client hangs up)."""

    def behave(_request: Request, conn: Connection) -> None:
        conn.head(200, dict(headers or {}))
        while not conn.stopping.is_set():
            conn.write(chunk)

    return behave


def hang_up(after: bytes = b"") -> Behaviour:
    """Send `after` (perhaps a partial status line) and close the connection."""

    def behave(_request: Request, conn: Connection) -> None:
        if after:
            conn.write(after)

    return behave


# --------------------------------------------------------------------------- server


class _Handler(BaseHTTPRequestHandler):
    server: OwnedServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self._answer()

    def log_message(self, format: str, *args: object) -> None:
        return

    def _answer(self) -> None:
        request = Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()})
        behaviour = self.server.owner.next_behaviour(request)
        self.close_connection = True
        # OSError: the client gave up (deadline, size cap), which most faults provoke.
        with contextlib.suppress(OSError):
            behaviour(request, Connection(self))


class FaultServer(ThreadedServer["Behaviour"]):
    """`with FaultServer() as srv:`; `tls=` an ssl.SSLContext serves https."""

    thread_name = "fault-http"

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        super().__init__(tls)
        self.handler = _Handler

    def route(self, path: str, behaviours: Behaviour | Sequence[Behaviour]) -> str:
        """Answer `path` with the behaviours in order (the last repeated); returns its URL."""
        self._set_script(path, [behaviours] if callable(behaviours) else list(behaviours))
        return self.url(path)

    def hits(self, path: str) -> int:
        return len(self.requests_for(path))

    def next_behaviour(self, request: Request) -> Behaviour:
        found = self._next(request)
        return found or status(404, body=b"not scripted: " + request.path.encode())


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port = int(sock.getsockname()[1])
    time.sleep(0.01)
    return port
