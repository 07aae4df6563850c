"""Regression tests of fetching, one per defect, named after it: hostile mirrors, lying
servers, malformed links and registry URLs. Each docstring says what was found."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.errors import (
    EXIT_FETCH,
    RegistryError,
    UsageError,
)
from pipeline.extract.html import list_links
from pipeline.fetch.discover import find_link
from pipeline.fetch.http import Fetcher
from pipeline.fetch.manifest import ManifestEntry, entries_for
from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs import update as jobs
from pipeline.jobs.context import Context, load_sources
from pipeline.models.sources import Source
from pipeline.registry.loader import parse_registry
from pipeline.store.blobs import BlobStore
from tests.support.helpers import SHARED
from tests.support.mtg_sources import MTG, mtg_entries, mtg_registry
from tests.support.server import Reply, ScriptedServer


def mirror_with(tmp_path: Path, path: str, data: bytes | None = None) -> Path:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    entry = mtg_entries("20251114")[0]
    entry = {**entry, "path": path}
    if data is not None:
        (mirror / "big.txt").write_bytes(data)
        entry.update(bytes=len(data), sha256=__import__("hashlib").sha256(data).hexdigest())
    (mirror / "manifest.json").write_text(json.dumps([entry]))
    return mirror


FAST = FetchPolicy(connect_timeout=2, read_timeout=3, deadline=4, retries=1, backoff=0.01)


@pytest.mark.parametrize(
    "path", ["../../etc/passwd", "/etc/passwd", "link/passwd"], ids=["dotdot", "absolute", "link"]
)
def test_a_mirror_path_out_of_the_folder_is_refused_before_reading(
    tmp_path: Path, path: str
) -> None:
    """A mirror's manifest naming `../../etc/passwd`, an absolute path or a symlink out
    of its folder was read."""
    mirror = mirror_with(tmp_path, path)
    (mirror / "link").symlink_to("/etc")
    ctx = Context(
        tmp_path / "corpus", tmp_path / "cache", mtg_registry(tmp_path), renderers=diff_renderers()
    )
    summary = jobs.update(ctx, [], mirror=str(mirror))
    assert summary.exit_code == EXIT_FETCH
    assert path in summary.outcomes[0].message
    assert list((tmp_path / "cache" / "sha256").rglob("*")) == [], "no byte was stored"


def test_a_mirror_file_over_max_bytes_is_refused(tmp_path: Path) -> None:
    """A mirror's file was read whole however large, past the source's max_bytes."""
    mirror = mirror_with(tmp_path, "big.txt", b"x" * 5000)
    ctx = Context(
        tmp_path / "corpus",
        tmp_path / "cache",
        mtg_registry(tmp_path, max_bytes=4096),
        renderers=diff_renderers(),
    )
    summary = jobs.update(ctx, [], mirror=str(mirror))
    assert summary.exit_code == EXIT_FETCH
    message = summary.outcomes[0].message
    assert "5000 bytes" in message and "4096" in message and "max_bytes" in message
    assert not (tmp_path / "corpus" / "index.json").exists()


def test_a_body_longer_than_its_content_length_is_a_fetch_failure(
    tmp_path: Path, server: ScriptedServer
) -> None:
    """A server sending more bytes than its Content-Length announced had them stored."""
    body = (SHARED / MTG.format("20251114")).read_bytes()
    announced = body[: len(body) // 2]
    server.serve("/cr.txt", Reply(200, body, {"Content-Length": str(len(announced))}))
    with Fetcher(BlobStore(tmp_path / "cache"), FAST) as fetcher, pytest.raises(Exception) as err:
        fetcher.fetch("mtg-cr-txt", server.url("/cr.txt"), expect="txt")
    assert "more than the" in str(err.value) and "Content-Length" in str(err.value)
    assert list((tmp_path / "cache" / "sha256").rglob("*")) == []


def test_a_malformed_ipv6_link_does_not_hide_the_good_link() -> None:
    """Found by `make fuzz` (discovery): urljoin raised ValueError "Invalid IPv6 URL"
    for href="http://[x", one malformed link ending `update` with a traceback instead of
    finding the good link."""
    page = (
        b'<html><body><a href="http://[x/rules.txt">bad</a>'
        b'<a href="/files/CR-2026.txt">the rules</a></body></html>'
    )
    assert list_links(page, "https://publisher.example/rules/") == [
        "https://publisher.example/files/CR-2026.txt"
    ]
    found = find_link(
        page,
        "https://publisher.example/rules/",
        r"CR-\d+\.txt$",
        source="cr",
        list_links=list_links,
    )
    assert found == "https://publisher.example/files/CR-2026.txt"


def test_a_landing_page_bs4_rejects_has_no_links() -> None:
    """Found by `make fuzz` (discovery): a landing page bs4 rejects raised
    ParserRejectedMarkup; it has no links."""
    assert list_links(b"<!DOCTYPE x><![ DOCTYPE y", "https://publisher.example/") == []


def test_a_registry_url_with_a_malformed_host_is_a_registry_error() -> None:
    """Found by `make fuzz` (registry): urlsplit(url).hostname raised ValueError for
    `http://[source`."""
    text = (
        '[[source]]\nid = "x"\ngame = "g"\ndocument = "g/cr"\ntitle = "T"\n'
        'family = "mtg-cr"\nrendition = "txt"\nurl = "http://[source/x.txt"\n'
    )
    with pytest.raises(RegistryError, match="url: must be https"):
        parse_registry(text, name="sources.toml")


def test_a_registry_pattern_with_inline_flags_is_not_called_catastrophic() -> None:
    """A registry pattern opening with inline flags (`(?i)...`, as the packaged Riftbound
    PDF source has) was refused as "backtracks catastrophically": the probe wrapped it in
    a group, where Python refuses global flags, and read the error as a timeout. Loading
    the packaged registry from its file, as a user's registry is loaded, probes every
    pattern and refuses none."""
    packaged = Path(__file__).resolve().parents[2] / "pipeline" / "registry" / "sources.toml"
    assert any("(?i)" in line for line in packaged.read_text().splitlines())
    sources = load_sources(packaged)
    assert {s.id for s in sources} >= {"riftbound-cr-pdf", "mtg-cr-txt"}


@pytest.mark.parametrize(
    ("pattern", "path"), [(r"v(a+)+b", "v" + "a" * 60 + "!"), (r"x(\d+)+y", "x" + "1" * 60)]
)
def test_catastrophic_path_patterns_keep_import_busy(
    monkeypatch: pytest.MonkeyPatch, pattern: str, path: str
) -> None:
    """A registry path_pattern that backtracks on an archive's paths kept `import` busy
    for over 150 s. Each use on an archive's paths has a time budget: past it, exit 2
    naming the entry and the key. (The load-time probes refuse these patterns too; the
    budget is for one they miss, so the source is built here without loading it.)"""
    monkeypatch.setenv("RULESCORPUS_PATTERN_S", "1")
    source = Source.model_validate({
        "id": "mtg-cr-txt", "game": "mtg", "document": "mtg/cr", "title": "MTG",
        "family": "mtg-cr", "rendition": "txt", "primary": True,
        "options": {"archive_only": "true"},
        "manifest": {"game": "mtg", "document": "cr", "format": "txt", "path_pattern": pattern},
    })  # fmt: skip
    entry = ManifestEntry(
        game="mtg", document="cr", version="1", format="txt", bytes=1, sha256="0" * 64, path=path
    )
    began = time.monotonic()
    with pytest.raises(UsageError) as caught:
        entries_for(source, [entry])
    assert time.monotonic() - began < 10
    assert "mtg-cr-txt" in str(caught.value) and "manifest.path_pattern" in str(caught.value)
    assert "time budget of 1 s" in str(caught.value)
