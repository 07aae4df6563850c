"""Datasette serving an export, seen in headless Chromium as a person sees it: a rule's
page with its text and its Source block, and a full-text search that returns the rule.

Datasette runs on 127.0.0.1 on a free port with the packaged plugin, template and
metadata (`pipeline.export.datasette.serve`), exactly as `make serve` runs it.
Screenshots go to tmp's artifacts folder (RULESCORPUS_ARTIFACTS overrides it)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from urllib.parse import quote

import pytest
from datasette.utils import tilde_encode

from pipeline.export.datasette.serve import datasette_command
from pipeline.export.sqlite import export_sqlite
from pipeline.extract.web_page import read_web_page
from pipeline.verify.attestations import check_attestation
from tests.support.chromium import png_size, run_chromium

MTG_TXT = "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt"
MTG_SHA = "d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> Iterator[str]:
    root = tmp_path_factory.mktemp("datasette")
    done = export_sqlite(small_corpus, root / "rulescorpus.sqlite")
    port = free_port()
    log = (root / "datasette.log").open("w")
    process = subprocess.Popen(
        datasette_command(done.path, port=port), stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _attempt in range(200):  # bounded: about 20 s for Datasette to start
            if process.poll() is not None:
                pytest.fail(f"datasette exited: {(root / 'datasette.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base}/-/versions.json", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        else:
            pytest.fail("datasette did not answer on 127.0.0.1")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("RULESCORPUS_ARTIFACTS") or tmp_path_factory.mktemp("artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def row_url(base: str, key: str) -> str:
    return f"{base}/rulescorpus/records/{tilde_encode(key)}"


def visible_text(dom: str) -> str:
    """The page's text as a reader sees it: no tags, no styles, whitespace folded."""
    dom = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", dom)).split())


def test_a_rules_page_shows_its_text_and_source_block(
    server: str, artifacts: Path, tmp_path: Path
) -> None:
    url = row_url(server, "mtg/cr@2025-11-14#cr:702.19c")
    dom = run_chromium(tmp_path, "--dump-dom", url).stdout
    record = re.search(r'<article class="rulescorpus-record">.*?</article>', dom, re.S)
    assert record is not None, "the rule's text is not shown above its Source block"
    shown = visible_text(record.group(0))
    assert shown.startswith("702.19c Trample over planeswalkers is a variant of trample")
    assert "Example: A player controls a planeswalker with three loyalty counters" in shown
    source = re.search(r'<section class="rulescorpus-source" id="source">.*?</section>', dom, re.S)
    assert source is not None, "no Source block on the rule's page"
    block = visible_text(source.group(0))
    assert (
        "Document: Magic: The Gathering Comprehensive Rules (mtg/cr), version 2025-11-14" in block
    )
    assert "Published: not stated in the document; effective 2025-11-14" in block
    assert "Citation: cr:702.19c (line " in block
    assert f"Retrieved from {MTG_TXT}" in block
    assert f"TXT SHA-256 {MTG_SHA} (962,951 bytes)" in block
    assert f"Check it yourself: download {MTG_TXT} and run sha256sum on the file" in block
    # The block is itself an attestation page in the shape `verify --published` reads.
    check = check_attestation(read_web_page(dom, what=url), url, MTG_TXT, MTG_SHA, rendition="txt")
    assert check.verdict.value == "match" and check.published == (MTG_SHA,)

    shot = artifacts / "datasette-rule-702.19c.png"
    run_chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,1600", url)
    assert png_size(shot) == (1280, 1600) and shot.stat().st_size > 30_000


def test_a_full_text_search_returns_the_rule(server: str, artifacts: Path, tmp_path: Path) -> None:
    query = f"{server}/rulescorpus/search_current_rules?q={quote('trample over planeswalkers')}"
    dom = run_chromium(tmp_path, "--dump-dom", query).stdout
    link = tilde_encode("mtg/cr@2025-11-14#cr:702.19c")
    assert f'href="/rulescorpus/records/{link}"' in dom, "the search does not link the rule"
    text = visible_text(dom)
    assert "mtg/cr@2025-11-14#cr:702.19c" in text and "[Trample] [over] [planeswalkers]" in text
    shot = artifacts / "datasette-search-trample-over-planeswalkers.png"
    run_chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,1200", query)
    assert png_size(shot) == (1280, 1200) and shot.stat().st_size > 30_000
    # Datasette's own table search (the search box above the records table) finds it too.
    table = f"{server}/rulescorpus/records?_search={quote('trample over planeswalkers')}"
    table += "&version=2025-11-14"
    assert "mtg/cr@2025-11-14#cr:702.19c" in visible_text(
        run_chromium(tmp_path, "--dump-dom", table).stdout
    )
