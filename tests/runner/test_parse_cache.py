"""The parse cache: the same bytes and code are parsed once; anything else is parsed again."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pipeline.runner import cache as parse_cache
from pipeline.runner.cache import ParseCache, cache_key
from pipeline.runner.families import parse_bytes
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest
from tests.support.helpers import SHARED

TXT = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
REQUEST = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="txt", what="mtg")


def entries(root: Path) -> list[Path]:
    return sorted(root.rglob("*.json"))


def test_a_second_parse_of_the_same_bytes_comes_from_the_cache(tmp_path: Path) -> None:
    data = TXT.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    parses = ParseCache(tmp_path)
    first = parses.parse(data, sha, REQUEST, ParseLimits())
    [entry] = entries(tmp_path)
    stamp = entry.stat().st_mtime_ns
    second = parses.parse(data, sha, REQUEST, ParseLimits())
    assert first == second == parse_bytes(data, REQUEST)
    assert entries(tmp_path) == [entry] and entry.stat().st_mtime_ns == stamp


def test_another_request_or_other_code_is_another_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sha = "0" * 64
    key = cache_key(sha, REQUEST)
    assert cache_key(sha, ParseRequest(**{**REQUEST.__dict__, "version": "x"})) != key
    assert cache_key("1" * 64, REQUEST) != key
    monkeypatch.setattr(parse_cache, "code_digest", lambda: "an edited parser")
    assert cache_key(sha, REQUEST) != key


def test_a_damaged_entry_is_parsed_again(tmp_path: Path) -> None:
    data = TXT.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    parses = ParseCache(tmp_path)
    good = parses.parse(data, sha, REQUEST, ParseLimits())
    [entry] = entries(tmp_path)
    entry.write_bytes(b'{"not": "a document"}')
    assert parses.parse(data, sha, REQUEST, ParseLimits()) == good
