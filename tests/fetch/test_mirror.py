"""Offline mirrors: `update --mirror DIR` and `--mirror URL` answer each source with the newest
file an archive manifest lists for it, check the manifest's SHA-256, and drive the same job.
Run through the command line, so exit codes and the JSON report are checked too."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.errors import EXIT_CHANGED, EXIT_OK, EXIT_USAGE, EXIT_VERIFY
from pipeline.store.corpus import Corpus
from tests.support.helpers import ROOT, SHARED, corpus_digest, link_archive, registry_file
from tests.support.mtg_sources import mtg_source
from tests.support.server import Reply, ScriptedServer

runner = CliRunner()


def manifest_entries(versions: list[str]) -> list[dict[str, object]]:
    entries = json.loads((SHARED / "manifest.json").read_text())
    return [
        e
        for e in entries
        if e["game"] == "mtg" and e["format"] == "txt" and e["version"] in versions
    ]


def make_mirror(folder: Path, versions: list[str]) -> Path:
    return link_archive(folder, manifest_entries(versions))


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    discovery = {
        "page": "https://magic.wizards.com/en/rules",
        "link_pattern": r"MagicCompRules.*\.txt$",
    }
    return registry_file(tmp_path, [mtg_source(discovery=discovery)])


# FaB's rules as a PDF, fetched by URL only: no mirror lists it.
FAB_CR_PDF = {
    "id": "fab-cr-pdf",
    "game": "fab",
    "document": "fab/cr",
    "title": "FaB CR",
    "family": "fab-cr",
    "rendition": "pdf",
    "primary": True,
    "url": "https://rules.fabtcg.com/pdf/en-fab-cr.pdf",
}


def run(tmp_path: Path, registry: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(
        app,
        [
            "--corpus",
            str(tmp_path / "corpus"),
            "--cache",
            str(tmp_path / "cache"),
            "--sources",
            str(registry),
            *args,
        ],
    )
    return result.exit_code, result.stdout + result.stderr


def test_mirror_folder_serves_the_newest_listed_version(tmp_path: Path, registry: Path) -> None:
    mirror = make_mirror(tmp_path / "mirror", ["20250207", "20250725"])
    report = tmp_path / "report.json"
    code, out = run(tmp_path, registry, "update", "--mirror", str(mirror), "--report", str(report))
    assert code == EXIT_CHANGED, out
    summary = json.loads(report.read_text())
    assert summary["exit_code"] == EXIT_CHANGED
    (outcome,) = summary["outcomes"]
    schema = json.loads((ROOT / "schemas/outcome.schema.json").read_text())
    jsonschema.validate(outcome, schema)
    assert (outcome["document"], outcome["version"], outcome["outcome"]) == (
        "mtg/cr",
        "2025-07-25",
        "new",
    )
    doc = json.loads(
        Corpus(tmp_path / "corpus").read_file(
            Corpus(tmp_path / "corpus").version_entry("mtg/cr", "2025-07-25").file
        )
    )
    assert doc["source"]["url"].endswith("MagicCompRules%2020250725.txt")

    before = corpus_digest(tmp_path / "corpus")
    code, out = run(tmp_path, registry, "update", "--mirror", str(mirror))
    assert code == EXIT_OK and "unchanged" in out
    assert corpus_digest(tmp_path / "corpus") == before


def test_a_mirror_file_that_does_not_match_its_manifest_fails(
    tmp_path: Path, registry: Path
) -> None:
    mirror = make_mirror(tmp_path / "mirror", ["20250725"])
    entries = json.loads((mirror / "manifest.json").read_text())
    entries[0]["sha256"] = "0" * 64
    (mirror / "manifest.json").write_text(json.dumps(entries))
    code, out = run(tmp_path, registry, "update", "--mirror", str(mirror))
    assert code == EXIT_VERIFY
    assert "Expected 0000" in out and "manifest.json" in out
    assert not (tmp_path / "corpus/index.json").exists()


def test_mirror_url_is_fetched_like_a_publisher(
    tmp_path: Path, registry: Path, server: ScriptedServer
) -> None:
    entries = manifest_entries(["20250725"])
    server.serve(
        "/manifest.json",
        Reply(200, json.dumps(entries).encode(), {"Content-Type": "application/json"}),
    )
    path = "/" + str(entries[0]["path"]).replace(" ", "%20")
    server.serve(
        path, Reply(200, (SHARED / str(entries[0]["path"])).read_bytes(), {"ETag": '"m1"'})
    )
    code, out = run(tmp_path, registry, "update", "--mirror", server.base)
    assert code == EXIT_CHANGED, out
    code, out = run(tmp_path, registry, "update", "--mirror", server.base)
    assert code == EXIT_OK, out
    assert server.requests_for(path)[-1].headers.get("if-none-match") == '"m1"'


@pytest.mark.parametrize("where", ["folder", "url"])
def test_the_manifest_bytes_field_is_unchecked_by_a_mirror(
    tmp_path: Path, registry: Path, server: ScriptedServer, where: str
) -> None:
    """A mirror's manifest whose `bytes` misstated a file's size was taken as it was. The
    size is checked like the SHA-256: exit 20, nothing stored."""
    mirror = make_mirror(tmp_path / "mirror", ["20250725"])
    entries = json.loads((mirror / "manifest.json").read_text())
    entries[0]["bytes"] += 1
    (mirror / "manifest.json").write_text(json.dumps(entries))
    target = str(mirror)
    if where == "url":
        server.serve("/manifest.json", Reply(200, json.dumps(entries).encode()))
        data = (mirror / str(entries[0]["path"])).read_bytes()
        server.serve("/" + str(entries[0]["path"]).replace(" ", "%20"), Reply(200, data))
        target = server.base
    code, out = run(tmp_path, registry, "update", "--mirror", target)
    assert code == EXIT_VERIFY, out
    assert f"the manifest says {entries[0]['bytes']} bytes" in " ".join(out.split())
    assert not (tmp_path / "corpus/index.json").exists()


def test_a_source_the_mirror_lacks_is_skipped_not_failed(tmp_path: Path) -> None:
    registry = registry_file(
        tmp_path,
        [
            FAB_CR_PDF,
            {
                "id": "fab-cpg-pdf",
                "game": "fab",
                "document": "fab/cpg",
                "title": "Flesh and Blood Casual Procedure Guide",
                "family": "headed-sections",
                "rendition": "pdf",
                "primary": True,
                "manifest": {"game": "fab", "document": "casual-procedure-guide", "format": "pdf"},
                "options": {"archive_only": "true"},
            },
        ],
    )
    # the mirror has the guide but not the PDF: the guide is stored, the PDF skipped
    code, out = run(tmp_path, registry, "update", "--mirror", str(SHARED))
    assert code == EXIT_CHANGED and "skipped" in out and "not available from this mirror" in out


def test_a_mirror_with_nothing_for_any_source_is_an_error(tmp_path: Path) -> None:
    registry = registry_file(tmp_path, [FAB_CR_PDF])
    code, out = run(tmp_path, registry, "update", "--mirror", str(SHARED))
    assert code == EXIT_USAGE, out
    assert "no registry source takes any of its" in out and "fab-cr-pdf (by its url only)" in out


def test_fetch_fills_the_blob_store_and_leaves_the_corpus_alone(
    tmp_path: Path, registry: Path
) -> None:
    mirror = make_mirror(tmp_path / "mirror", ["20250725"])
    code, out = run(tmp_path, registry, "fetch", "--mirror", str(mirror))
    assert code == EXIT_OK and "fetched" in out
    entry = manifest_entries(["20250725"])[0]
    sha = str(entry["sha256"])
    assert (tmp_path / "cache" / "sha256" / sha[:2] / sha[2:]).exists()
    assert not (tmp_path / "corpus").exists()
