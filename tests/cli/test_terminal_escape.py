"""What reaches a terminal: content and names are escaped and cut by the one escape
(`errors.shorten`), on every line that prints them; JSON stays exact.

The corpus is one small numbered document the test writes, whose rule text carries an
ANSI sequence, an 8-bit CSI and a right-to-left override, imported from an archive whose
manifest names its version with an escape of its own.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.errors import shorten
from pipeline.lookup import StoredCorpus
from pipeline.lookup.search import search_corpus
from tests.support.helpers import ROOT, registry_file
from tests.support.real_corpus import rulescorpus

HOSTILE = "Hello \x1b[31mred\x1b[0m world \u202eevil\u202c and \x9b2J trample."
Hostile = tuple[Path, Path, subprocess.CompletedProcess[str]]
RAW = ("\x1b", "\x9b", "\u202e")  # what must never reach a terminal from content
TEXT = f"Hostile Rules\nVer. 1.0\n\n100. Overview\n100.1. {HOSTILE}\n100.2. A plain rule.\n"
ENTRY = {
    "id": "hostile-cr-txt",
    "game": "hostile",
    "document": "hostile/cr",
    "title": "Hostile Rules",
    "family": "numbered",
    "rendition": "txt",
    "manifest": {"game": "hostile", "document": "rules", "format": "txt"},
    "primary": True,
    "options": {"archive_only": "true"},
    "scheme": {
        "prefix": "cr",
        "title": "Hostile Rules",
        "wraps": "paragraphs",
        "statement_forms": ["ver"],
        "levels": [
            {
                "kind": "section",
                "segment": "digits",
                "join": ".",
                "printed": "full",
                "dot": "required",
                "title": "always",
            },
            {
                "kind": "rule",
                "segment": "digits",
                "join": ".",
                "printed": "full",
                "dot": "required",
                "title": "never",
            },
        ],
    },
}


def write_archive(folder: Path, version: str) -> Path:
    data = TEXT.encode()
    path = "hostile/rules/1.0/rules.txt"
    (folder / path).parent.mkdir(parents=True)
    (folder / path).write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    entry = {"game": "hostile", "document": "rules", "version": version, "date": None,
             "format": "txt", "url": None, "bytes": len(data), "sha256": digest,
             "path": path, "tier": "publisher"}  # fmt: skip
    (folder / "manifest.json").write_text(json.dumps([entry]))
    return folder


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    code = "from pipeline.cli.app import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def hostile(
    tmp_path_factory: pytest.TempPathFactory,
) -> Hostile:
    """(corpus, registry, the import's run): imported through the command, as a user would."""
    root = tmp_path_factory.mktemp("hostile")
    registry = registry_file(root, [ENTRY])
    archive = write_archive(root / "archive", "1.0\x1b[2J\x1b]0;title\x07")
    corpus = root / "corpus"
    done = run("--corpus", str(corpus), "--cache", str(root / "cache"), "--sources",
               str(registry), "import", str(archive))  # fmt: skip
    assert done.returncode == 0, done.stderr
    return corpus, registry, done


def assert_clean(text: str) -> None:
    assert not any(raw in text for raw in RAW), text
    assert "\x07" not in text


def test_manifest_values_reach_the_import_report_escaped(hostile: Hostile) -> None:
    _, _, done = hostile
    assert_clean(done.stdout + done.stderr)
    assert "1.0\\x1b[2J\\x1b]0;title\\x07" in done.stderr


@pytest.mark.parametrize("full", [False, True])
def test_rule_text_control_characters_reach_show_search_and_history_escaped(
    hostile: Hostile, full: bool
) -> None:
    corpus = hostile[0]
    shown = rulescorpus(corpus, "show", "cr:100.1", "--doc", "hostile/cr", full=full)
    found = rulescorpus(corpus, "search", "trample", full=full)
    history = rulescorpus(corpus, "history", "cr:100.1", "--doc", "hostile/cr", full=full)
    for done in (shown, found, history):
        assert done.returncode == 0, done.stderr
        assert_clean(done.stdout)
    assert "Hello \\x1b[31mred\\x1b[0m world \\u202eevil\\u202c and \\x9b2J" in shown.stdout
    assert "\\x1b[31mred" in found.stdout and "\\u202eevil" in history.stdout


def test_json_output_keeps_the_rule_text_exact(hostile: Hostile) -> None:
    done = rulescorpus(hostile[0], "show", "cr:100.1", "--doc", "hostile/cr", "--json")
    assert json.loads(done.stdout)["record"]["text"] == HOSTILE


def test_file_names_reach_cite_check_lines_escaped(hostile: Hostile, tmp_path: Path) -> None:
    notes = tmp_path / "notes\x1b[2J\u202e.txt"
    notes.write_text("See rule 100.1 and rule 100.2.\n")
    done = rulescorpus(hostile[0], "cite-check", str(notes), "--doc", "hostile/cr")
    assert done.returncode == 0, done.stderr
    assert_clean(done.stdout + done.stderr)
    assert "notes\\x1b[2J\\u202e.txt:1:" in done.stdout


def test_site_success_line_is_escaped(hostile: Hostile, tmp_path: Path) -> None:
    done = rulescorpus(hostile[0], "site", str(tmp_path / "site\x1b[31m"))
    assert done.returncode == 0, done.stderr
    assert_clean(done.stdout)
    assert "site\\x1b[31m" in done.stdout


def test_search_echoes_a_long_query_cut(hostile: Hostile) -> None:
    query = "zzz" + "q" * 120_000
    for full in (False, True):
        done = rulescorpus(hostile[0], "search", query, full=full)
        assert done.returncode == 1
        assert len(done.stdout) < 400 and "characters]" in done.stdout, done.stdout[:500]


def test_shorten_makes_every_terminal_control_visible() -> None:
    text = "a\x00b\x1bc\x7fd\x85e\x9bf\u202eg\u2066h\u2028i\tj\nk"
    assert shorten(text, None) == "a\\x00b\\x1bc\\x7fd\\x85e\\x9bf\\u202eg\\u2066h\\u2028i\tj\nk"
    assert shorten("a\tb\nc", one_line=True) == "a\\tb\\nc"
    cut = shorten("x" * 1000, 90)
    assert len(cut) < 120 and "…[" in cut


def test_search_time_does_not_grow_with_repeated_words(mtg_pair_corpus: Path) -> None:
    stored = StoredCorpus(mtg_pair_corpus)
    search_corpus(stored, "player", limit=5)  # the version file decoded once, before timing
    start = time.perf_counter()
    once = search_corpus(stored, "player", limit=5)
    one = time.perf_counter() - start
    start = time.perf_counter()
    repeated = search_corpus(stored, " ".join(["player"] * 2000), limit=5)
    many = time.perf_counter() - start
    assert [h.citation for h in repeated] == [h.citation for h in once]
    assert many < one * 3 + 0.5, (one, many)
