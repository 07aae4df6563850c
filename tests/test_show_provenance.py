"""`rulescorpus show CITATION --provenance` on a corpus imported from ../shared/sources:
every fact that ties a record to its bytes, and digests a reader can recompute."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from test_corpus_api import small_corpus
from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.store.corpus import canonical_json

MTG_TXT = "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt"
MTG_SHA = "d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85"


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_corpus(tmp_path_factory.mktemp("show"))


def _show(corpus_dir: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--corpus", str(corpus_dir), "show", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _stored(corpus_dir: Path, document: str, version: str) -> tuple[str, dict[str, object]]:
    index = json.loads((corpus_dir / "index.json").read_text())
    item = next(v for v in index["documents"][document]["versions"] if v["version"] == version)
    return item["file"], json.loads((corpus_dir / item["file"]).read_bytes())


def test_show_provenance_prints_bytes_location_and_digests(corpus_dir: Path) -> None:
    text = _show(corpus_dir, "cr:702.19c", "--doc", "mtg/cr", "--provenance")
    block = text.split("\nProvenance\n", 1)[1]
    fields = dict(re.findall(r"^  ([A-Z][\w -]*?):\s+(.*)$", block, re.M))
    assert fields["Document"] == (
        "Magic: The Gathering Comprehensive Rules (mtg/cr), version 2025-11-14"
    )
    assert fields["Source URL"] == MTG_TXT
    assert fields["SHA-256"] == f"{MTG_SHA} (962951 bytes)"
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ from file://\S+\.txt", fields["Retrieved"]
    )
    file, stored = _stored(corpus_dir, "mtg/cr", "2025-11-14")
    parser = stored["parser"]
    assert fields["Rendition"] == "txt"
    assert fields["Parser"] == f"{parser['family']} {parser['version']}"  # type: ignore[index]
    assert fields["Parser"].startswith("mtg-cr ")
    assert fields["Extraction"] == "the document records no extraction engine"
    rule = next(r for r in stored["records"] if r["id"] == "cr:702.19c")  # type: ignore[attr-defined]
    assert fields["Location"] == f"line {rule['location']['line']}"
    # Both digests can be recomputed from the stored JSON with the corpus's serialisation.
    record_sha = hashlib.sha256(canonical_json(rule)).hexdigest()
    document_sha = hashlib.sha256((corpus_dir / file).read_bytes()).hexdigest()
    assert fields["Record JSON"].startswith(f"SHA-256 {record_sha} ")
    assert fields["Document JSON"].startswith(f"SHA-256 {document_sha} ")
    # The record itself and the short Source block are still printed above it.
    assert "Trample over planeswalkers is a variant of trample" in text
    assert "Check it yourself" in text.split("\nProvenance\n", 1)[0]


def test_show_provenance_of_an_older_version_and_as_json(corpus_dir: Path) -> None:
    data = json.loads(
        _show(
            corpus_dir,
            "glossary:trample",
            "--doc",
            "mtg/cr",
            "--version",
            "2022-10-07",
            "--provenance",
            "--json",
        )
    )
    prov = data["record_provenance"]
    file, stored = _stored(corpus_dir, "mtg/cr", "2022-10-07")
    assert (prov["version"], prov["citation"]) == ("2022-10-07", "glossary:trample")
    assert prov["url"] == stored["source"]["url"]  # type: ignore[index]
    assert prov["sha256"] == stored["source"]["sha256"]  # type: ignore[index]
    assert prov["document_sha256"] == hashlib.sha256((corpus_dir / file).read_bytes()).hexdigest()
    term = next(g for g in stored["glossary"] if g["id"] == "glossary:trample")  # type: ignore[attr-defined]
    assert prov["record_sha256"] == hashlib.sha256(canonical_json(term)).hexdigest()
    assert prov["location"] == term["location"]
    assert prov["fetches"][0]["sha256"] == prov["sha256"]
    # Without --provenance the JSON is as before.
    plain = json.loads(_show(corpus_dir, "cr:702.19c", "--doc", "mtg/cr", "--json"))
    assert "record_provenance" not in plain
