"""`rulescorpus show CITATION --provenance` on a corpus imported from ../shared/sources:
every fact that ties a record to its bytes, and digests a reader can recompute."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.text import extract_text_lines
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from pipeline.store.canonical import canonical_json
from tests.support.helpers import SHARED, link_archive

MTG_TXT = "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt"
MTG_PATH = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
NISEI_PATH = "netrunner/comprehensive-rules/1.4/Comprehensive_Rules.pdf"
MTG_SHA = "d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85"


@pytest.fixture(scope="module")
def corpus_dir(small_corpus: Path) -> Path:
    return small_corpus


def _show(corpus_dir: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--corpus", str(corpus_dir), "show", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _stored(corpus_dir: Path, document: str, version: str) -> tuple[str, dict[str, object]]:
    index = json.loads((corpus_dir / "index.json").read_text())
    item = next(v for v in index["documents"][document]["versions"] if v["version"] == version)
    return item["file"], json.loads((corpus_dir / item["file"]).read_bytes())


@pytest.fixture(scope="module")
def pdf_corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    """A corpus imported from an archive holding only NISEI's Netrunner CR 1.4 PDF."""
    root = tmp_path_factory.mktemp("show-pdf")
    entries = json.loads((SHARED / "manifest.json").read_text())
    mine = [e for e in entries if e["path"] == NISEI_PATH]
    ctx = Context(
        corpus_dir=root / "corpus",
        cache_dir=root / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )
    summary = import_archive(ctx, link_archive(root / "archive", mine))
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes]
    return root / "corpus"


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
    engine = f"{parser['engine']} {parser['engine_version']}"  # type: ignore[index]
    assert fields["Extraction"] == engine
    assert engine.startswith("python-codecs utf-8 (byte-order mark) Python 3.")
    rule = next(r for r in stored["records"] if r["id"] == "cr:702.19c")  # type: ignore[attr-defined]
    at = rule["location"]
    assert (
        fields["Location"] == f"lines {at['line']}\u2013{at['end_line']}" == "lines 4062\u20134063"
    )
    # the offsets of those lines in the extracted text: the TXT decoded, its lines joined
    start, end = at["char_start"], at["char_end"]
    assert fields["Characters"].startswith(f"{start}\u2013{end} of the extracted text")
    lines = extract_text_lines((SHARED / MTG_PATH).read_bytes())
    extracted = "\n".join(ln.text for ln in lines)
    assert extracted[start:end].startswith("702.19c Trample over planeswalkers")
    assert extracted[start:end].endswith(rule["examples"][-1])
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


def test_show_provenance_of_a_pdf_version_names_the_engine_pages_and_offsets(
    pdf_corpus: Path,
) -> None:
    text = _show(pdf_corpus, "cr:1.3.9", "--doc", "netrunner/cr", "--provenance")
    fields = dict(re.findall(r"^  ([A-Z][\w -]*?):\s+(.*)$", text.split("\nProvenance\n")[1], re.M))
    assert fields["Rendition"] == "pdf"
    assert re.fullmatch(r"pdfium pypdfium2 \S+ \(PDFium [\d.]+\)", fields["Extraction"])
    # the rule wraps over a page break: its span runs onto the next page
    assert fields["Location"] == "lines 300\u2013304, pages 8\u20139"
    data = json.loads(
        _show(pdf_corpus, "cr:1.3.9", "--doc", "netrunner/cr", "--provenance", "--json")
    )
    prov = data["record_provenance"]
    assert (prov["engine"], prov["engine_version"]) == ("pdfium", fields["Extraction"][7:])
    at = prov["location"]
    assert (at["line"], at["end_line"], at["page"], at["end_page"]) == (300, 304, 8, 9)
    lines = extract_pdf_lines((SHARED / NISEI_PATH).read_bytes()).lines
    piece = "\n".join(ln.text for ln in lines)[at["char_start"] : at["char_end"]]
    assert piece.startswith("1.3.9. The symbol [trash]") and piece.endswith("trashing cards.")
    assert fields["Characters"].startswith(f"{at['char_start']}\u2013{at['char_end']} ")


def test_regression_a_document_read_from_an_archive_only_showed_url_none(
    imported_corpus: Context,
) -> None:
    """Judging at Regular REL has no publisher URL: its Source block said `URL: None`."""
    out = _show(imported_corpus.corpus_dir, "sec:serious-problems", "--doc", "mtg/jar")
    assert "URL:       not known (read from an archive only)" in out and "None" not in out
