"""A real HTTP server on 127.0.0.1 (port 0) in a thread, with scripted replies per path.

Modelled on pip's test server (``pip/tests/lib/server.py``): tests talk to a real socket, so
timeouts, truncation, redirects and retries are exercised for real.

    from tests.support.server import Reply, ScriptedServer

    with ScriptedServer() as srv:
        srv.script("/cr.txt", [Reply(500), Reply(200, b"hello", {"ETag": '"v1"'})])
        fetcher.fetch("src", srv.url("/cr.txt"))
        assert [r.path for r in srv.requests] == ["/cr.txt", "/cr.txt"]
        assert srv.requests[-1].headers.get("if-none-match") is None

A path's replies are served in order; the last one is repeated for every later
request. An unscripted path gets a 404. A reply may also be a callable that
receives the `Request` and returns a `Reply` (to answer according to headers).

`Reply` options beyond status, body and headers:
- `delay`: seconds to sleep after each body byte (a server that drips);
- `stall`: seconds to sleep once `stall_at` body bytes are sent (0: right after
  the headers);
- `declared_length`: the Content-Length to announce; when larger than the body,
  the server sends the body and closes the connection (a truncated download);
- `omit_length`: send no Content-Length (the body ends when the connection closes);
- `chunked`: send the body with ``Transfer-Encoding: chunked`` (no Content-Length);
- `abort_after`: send only this many body bytes, then close the connection (a
  truncated download; with `chunked`, the terminating chunk never comes).

Every response carries ``Connection: close``, so each request opens a fresh
connection and a reply never leaks into the next request.

Import it as ``from tests.support.server import ...``.
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

HOST = "127.0.0.1"
T = TypeVar("T")


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    stall: float = 0.0
    stall_at: int = 0
    declared_length: int | None = None
    omit_length: bool = False
    chunked: bool = False
    abort_after: int | None = None


@dataclass(frozen=True)
class Request:
    """What the server received: method, path (with query) and headers (lower-case names)."""

    method: str
    path: str
    headers: Mapping[str, str]


Responder = Reply | Callable[[Request], Reply]


def redirect(location: str, status: int = 302) -> Reply:
    """A redirect reply to `location` (absolute or relative)."""
    return Reply(status, b"", {"Location": location})


class _Handler(BaseHTTPRequestHandler):
    server: OwnedServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def log_message(self, format: str, *args: object) -> None:
        # Keep pytest output quiet; the requests are recorded instead.
        return

    def _answer(self, *, send_body: bool) -> None:
        request = Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()})
        owner = self.server.owner
        reply = owner._next_reply(request)
        self.close_connection = True
        try:
            self.send_response(reply.status)
            names = {k.lower() for k in reply.headers}
            for name, value in reply.headers.items():
                self.send_header(name, value)
            if reply.chunked:
                self.send_header("Transfer-Encoding", "chunked")
            elif not reply.omit_length and "content-length" not in names:
                length = reply.declared_length
                declared = len(reply.body) if length is None else length
                self.send_header("Content-Length", str(declared))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()
            if send_body:
                self._send_body(reply)
            elif reply.stall:
                owner._sleep(reply.stall)
        except (BrokenPipeError, ConnectionResetError):
            # The client gave up (deadline, size cap): that is what many tests provoke.
            pass

    def _send_body(self, reply: Reply) -> None:
        owner = self.server.owner
        body, cut = reply.body[: reply.abort_after], reply.stall_at
        if not reply.delay:
            self._send_part(body[:cut], reply.chunked)
            if reply.stall:
                owner._sleep(reply.stall)
            self._send_part(body[cut:], reply.chunked)
        else:
            for i in range(len(body)):
                if i == cut and reply.stall:
                    owner._sleep(reply.stall)
                if owner.stopping.is_set():
                    return
                self._send_part(body[i : i + 1], reply.chunked)
                owner._sleep(reply.delay)
        if reply.chunked and reply.abort_after is None:
            self._send_part(b"0\r\n\r\n", False)

    def _send_part(self, data: bytes, chunked: bool) -> None:
        if data:
            if chunked:
                data = b"%x\r\n%b\r\n" % (len(data), data)
            self.wfile.write(data)
            self.wfile.flush()


class OwnedServer(ThreadingHTTPServer):
    daemon_threads = True
    owner: Any


class ThreadedServer(Generic[T]):
    """A server on 127.0.0.1 (port 0) in a thread, answering each path from its script: the
    lifecycle and bookkeeping this module's ScriptedServer and the fault campaign's
    FaultServer (tests/faults/fault_server.py) share. `T` is what a script lists."""

    handler: type[BaseHTTPRequestHandler]
    thread_name = "test-http"

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.tls = tls
        self._lock = threading.Lock()
        self._scripts: dict[str, list[T]] = {}
        self._served: dict[str, int] = {}
        self.requests: list[Request] = []
        self.stopping = threading.Event()
        self._httpd: OwnedServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle
    def start(self) -> Self:
        httpd = OwnedServer((HOST, 0), self.handler)
        httpd.owner = self
        if self.tls is not None:
            httpd.socket = self.tls.wrap_socket(httpd.socket, server_side=True)
        self._httpd = httpd
        self._thread = threading.Thread(
            # A short poll interval keeps stop() (and so each test's teardown) quick.
            target=httpd.serve_forever,
            args=(0.02,),
            name=self.thread_name,
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def base(self) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://{HOST}:{self.port}"

    def url(self, path: str) -> str:
        return self.base + (path if path.startswith("/") else "/" + path)

    # -- scripts
    def _set_script(self, path: str, listed: list[T]) -> None:
        if not listed:
            raise ValueError("a script needs at least one entry")
        with self._lock:
            self._scripts[path] = listed
            self._served[path] = 0

    def _next(self, request: Request) -> T | None:
        """The request recorded, and its path's next entry (the last repeats); None for a
        path without a script."""
        with self._lock:
            self.requests.append(request)
            listed = self._scripts.get(request.path)
            if listed is None:
                return None
            index = min(self._served[request.path], len(listed) - 1)
            self._served[request.path] += 1
        return listed[index]

    def requests_for(self, path: str) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def reset(self) -> None:
        with self._lock:
            self._scripts.clear()
            self._served.clear()
            self.requests.clear()


class ScriptedServer(ThreadedServer[Responder]):
    """Start with `with ScriptedServer() as srv:` (or `.start()` / `.stop()`)."""

    thread_name = "scripted-http"

    def __init__(self) -> None:
        super().__init__()
        self.handler = _Handler

    def script(self, path: str, replies: Sequence[Responder]) -> None:
        """Serve `replies` in order for `path`; the last is repeated. Resets the path's count."""
        self._set_script(path, list(replies))

    def serve(self, path: str, reply: Responder) -> None:
        """Always answer `path` with one reply."""
        self.script(path, [reply])

    # -- used by the handler
    def _next_reply(self, request: Request) -> Reply:
        responder = self._next(request)
        if responder is None:
            return Reply(404, b"not scripted: " + request.path.encode())
        return responder if isinstance(responder, Reply) else responder(request)

    def _sleep(self, seconds: float) -> None:
        # Wakes early when the server stops, so a dripping reply never outlives its test.
        self.stopping.wait(seconds)
