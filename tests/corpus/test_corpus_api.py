"""The Python API (`pipeline.corpus`) over a corpus imported from ../shared/sources: the
documentation's example (docs/python-api.md) runs as written, and each call answers from
the stored files.

The corpus is conftest's `small_corpus`, shared with the export, Datasette and `show
--provenance` tests: every MTG text export since 2009 (seven versions, so renumbering has a real
history), the FaB 2.14.0 text export (a glossary) and the two NetrunnerDB rulings
snapshots (rulings with cards)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.corpus import open_corpus, sha256_of
from pipeline.errors import NotFound, UsageError
from pipeline.models.records import Rule
from tests.support.helpers import ROOT, corpus_digest


@pytest.fixture(scope="module")
def corpus_dir(small_corpus: Path) -> Path:
    return small_corpus


def documented_example() -> str:
    """The Python block of the Python API page."""
    text = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```", text, re.S)
    assert match is not None, "docs/python-api.md has no ```python block"
    return match.group(1)


def test_the_documented_example_runs_against_an_imported_corpus(corpus_dir: Path) -> None:
    before = corpus_digest(corpus_dir)
    result = subprocess.run(
        [sys.executable, "-c", documented_example()],
        cwd=corpus_dir.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "mtg/cr 2025-11-14 7 versions" in out
    assert "cr:702.19c Trample over planeswalkers is a variant" in out
    assert "cr:603.2i of 2025-07-25 is ('cr:603.2h',) in 2025-11-14" in out
    assert "2022-10-07 cr:603.2i first stored" in out
    assert "d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85" in out
    assert corpus_digest(corpus_dir) == before  # read-only


def test_documents_and_versions_are_those_of_the_index(corpus_dir: Path) -> None:
    corpus = open_corpus(corpus_dir)
    index = json.loads((corpus_dir / "index.json").read_text())
    assert [d.id for d in corpus.documents()] == sorted(index["documents"])
    mtg = corpus.document_info("mtg/cr")
    assert mtg.current == "2025-11-14" and mtg.family == "mtg-cr"
    assert [v.version for v in mtg.versions] == [
        v["version"] for v in index["documents"]["mtg/cr"]["versions"]
    ]
    assert [v.current for v in mtg.versions].count(True) == 1
    assert mtg.versions[-1].records == 3264 and mtg.versions[-1].glossary == 725
    assert corpus.versions("netrunner/rulings")[-1].rulings == 812


def test_a_record_by_citation_now_and_at_an_older_version(corpus_dir: Path) -> None:
    corpus = open_corpus(corpus_dir)
    now = corpus.record("mtg/cr", "cr:702.19c")
    assert isinstance(now, Rule) and now.text.startswith("Trample over planeswalkers")
    # 603.2e of 2025-07-25 is another rule than 603.2e of 2025-11-14 (a merge moved it).
    old = corpus.record("mtg/cr", "cr:603.2e", version="2025-07-25")
    new = corpus.record("mtg/cr", "cr:603.2e")
    assert isinstance(old, Rule) and isinstance(new, Rule) and old.text != new.text
    term = corpus.record("fab/cr", "glossary:go-again")
    assert term.id == "glossary:go-again"
    rules = list(corpus.records("mtg/cr", "2022-10-07"))
    assert len(rules) == 2909 and rules[0].id == "cr:1"
    with pytest.raises(NotFound, match=r"cr:999\.99z"):
        corpus.record("mtg/cr", "cr:999.99z")
    with pytest.raises(NotFound, match="stored versions"):
        corpus.record("mtg/cr", "cr:702.19c", version="1999-01-01")


def test_following_the_renumbering_map_from_an_old_number(corpus_dir: Path) -> None:
    corpus = open_corpus(corpus_dir)
    moved = corpus.follow("mtg/cr", "cr:603.2f", since="2025-07-25")
    assert (moved.citation, moved.version) == ("cr:603.2e", "2025-11-14")
    assert [(s.old_version, s.old_id, s.new_id) for s in moved.steps] == [
        ("2025-07-25", "cr:603.2f", "cr:603.2e")
    ]
    # The same text in both versions: the map points at the same rule.
    old = corpus.record("mtg/cr", "cr:603.2f", version="2025-07-25")
    assert isinstance(old, Rule) and old.text == corpus.record("mtg/cr", "cr:603.2e").text  # type: ignore[union-attr]
    # A number the current version no longer has: found in older versions and followed.
    gone = corpus.follow("mtg/cr", "cr:603.2i")
    assert gone.since == "2025-07-25" and gone.citation == "cr:603.2h"
    with pytest.raises(NotFound, match="renumbered"):
        corpus.record("mtg/cr", "cr:603.2i")
    with pytest.raises(NotFound, match="2022-10-07"):
        corpus.follow("mtg/cr", "cr:999.1", since="2022-10-07")
    with pytest.raises(UsageError, match="not a version before"):
        corpus.follow("mtg/cr", "cr:603.2f", since="2025-11-14", to="2025-07-25")
    # A number that still exists answers itself.
    assert corpus.follow("mtg/cr", "cr:702.19c").steps == ()
    # The map the `renumbering` command prints; the stored diff's own pairs are moves().
    table = corpus.renumbering("mtg/cr", "2025-07-25", "2025-11-14")
    assert ("cr:603.2f", "cr:603.2e") in [(e.old_id, e.new_id) for e in table.entries]
    moves = corpus.moves("mtg/cr", "2025-07-25", "2025-11-14")
    assert ("cr:603.2f", "cr:603.2e") in [(r.old_id, r.new_id) for r in moves]


def test_a_records_provenance_names_the_bytes_and_proves_the_json(corpus_dir: Path) -> None:
    corpus = open_corpus(corpus_dir)
    prov = corpus.provenance("mtg/cr", "cr:702.19c")
    assert prov.url == "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt"
    assert prov.sha256 == "d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85"
    assert prov.bytes == 962951 and prov.rendition == "txt"
    assert prov.retrieved and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", prov.retrieved)
    assert prov.retrieved_from and prov.retrieved_from.startswith("file://")
    assert (prov.parser_family, prov.location["page"]) == ("mtg-cr", None)
    assert prov.location["line"] > 0
    # The document digest is the stored file's own SHA-256, as index.json records it.
    entry = next(v for v in corpus.versions("mtg/cr") if v.current)
    assert prov.document_sha256 == entry.sha256
    assert prov.record_sha256 == sha256_of(corpus.record("mtg/cr", "cr:702.19c"))
    assert prov.as_dict()["fetches"][0]["sha256"] == prov.sha256


def test_opening_a_folder_that_is_no_corpus_says_so(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match=r"no index\.json"):
        open_corpus(tmp_path)
