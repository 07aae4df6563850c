"""update --notify: the run summary is POSTed as JSON to a webhook on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest

from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs.notify import send_summary
from pipeline.jobs.outcomes import RunSummary
from pipeline.models.outcomes import Outcome


class Hook(BaseHTTPRequestHandler):
    received: ClassVar[list[dict[str, object]]] = []
    status = 204

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        Hook.received.append(json.loads(self.rfile.read(length)))
        self.send_response(Hook.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def hook() -> Iterator[str]:
    Hook.received = []
    server = HTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    server.server_close()


def summary() -> RunSummary:
    run = RunSummary("update")
    run.outcomes.append(
        Outcome(
            document="mtg/cr",
            version="2025-11-14",
            outcome="new",
            exit_code=10,
            changes={"added": 3},
        )
    )
    return run


def test_summary_is_posted_as_json(hook: str) -> None:
    Hook.status = 204
    assert send_summary(hook, summary(), FetchPolicy(retries=0)) is None
    assert Hook.received == [summary().as_json()]
    assert Hook.received[0]["exit_code"] == 10


def test_a_refusing_webhook_is_reported_not_fatal(hook: str) -> None:
    Hook.status = 500
    problem = send_summary(hook, summary(), FetchPolicy(retries=0))
    assert problem is not None and "HTTP 500" in problem and hook in problem
