"""`import` backfills real history from ../shared/sources (every file the registry takes,
PDFs included, linked into an archive folder, not copied); `show`, `history`, `diff` and
`verify` then work across versions."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema
import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.corpus import open_corpus
from pipeline.errors import EXIT_OK, EXIT_VERIFY
from pipeline.jobs import import_archive as archive
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus
from tests.support.helpers import ROOT, SHARED, corpus_digest, link_archive

if TYPE_CHECKING:
    from click.testing import Result


@pytest.fixture(scope="module")
def ctx(imported_corpus: Context) -> Context:
    return imported_corpus


def test_every_version_is_stored_oldest_first_with_consecutive_diffs(ctx: Context) -> None:
    index = Corpus(ctx.corpus_dir).index()
    mtg = index.documents["mtg/cr"]
    versions = [v.version for v in mtg.versions]
    assert versions == [
        "2003-03-15",
        "2006-10-01",
        "2009-02-01",
        "2022-10-07",
        "2022-11-18",
        "2023-04-14",
        "2024-06-07",
        "2025-02-07",
        "2025-07-25",
        "2025-11-14",
    ]
    assert mtg.current == "2025-11-14"
    assert [(d.old, d.new) for d in mtg.diffs] == list(itertools.pairwise(versions))
    assert [v.version for v in index.documents["fab/cr"].versions] == ["2.10.1", "2.14.0"]
    assert [v.version for v in index.documents["riftbound/cr"].versions] == [
        "2025-06-02",
        "2025-10-01",
        "2025-12-01",
        "2026-06-18",
    ]
    assert [v.version for v in index.documents["netrunner/cr"].versions] == [
        "1.1",
        "1.2",
        "1.4",
        "22.12",
        "25.04",
        "26.03",
    ]
    # Versions published in two renditions were checked record for record against each other.
    assert set(mtg.entry("2025-11-14").sources) == {"pdf", "txt"}  # type: ignore[union-attr]
    rulings = index.documents["netrunner/rulings"]
    snapshots = json.loads(Corpus(ctx.corpus_dir).read_file(rulings.diffs[0].json_file))
    assert snapshots["changes"] == [] and not any(snapshots["summary"].values())


def test_stored_files_validate_against_the_published_schemas(ctx: Context) -> None:
    schemas = {
        p.name.split(".")[0]: json.loads(p.read_text())
        for p in (ROOT / "schemas").glob("*.schema.json")
    }
    corpus = Corpus(ctx.corpus_dir)
    jsonschema.validate(json.loads((ctx.corpus_dir / "index.json").read_text()), schemas["index"])
    jsonschema.validate(json.loads((ctx.corpus_dir / "lock.json").read_text()), schemas["lock"])
    entry = corpus.index().documents["mtg/cr"]
    jsonschema.validate(json.loads(corpus.read_file(entry.versions[-1].file)), schemas["document"])
    jsonschema.validate(json.loads(corpus.read_file(entry.diffs[-1].json_file)), schemas["diff"])


def test_importing_again_changes_nothing(ctx: Context) -> None:
    before = corpus_digest(ctx.corpus_dir)
    again = archive.import_archive(ctx, ctx.corpus_dir.parent / "archive")
    # `skipped`: files the packaged registry does not take.
    assert {o.outcome for o in again.outcomes} <= {"unchanged", "side-file", "copy", "skipped"}
    assert corpus_digest(ctx.corpus_dir) == before


def test_history_follows_an_mtg_rule_across_versions(ctx: Context) -> None:
    corpus = Corpus(ctx.corpus_dir)
    diff = json.loads(corpus.read_file(corpus.document_entry("mtg/cr").diffs[-2].json_file))
    moved = next(r for r in diff["renumbering"] if r["old_id"].count(".") == 1)
    steps = open_corpus(corpus.root).history("mtg/cr", moved["new_id"])
    by_version = {s.version: s for s in steps}
    assert len(steps) == 10
    # A rule added after the oldest stored versions (trample over planeswalkers attacking a
    # planeswalker removed from combat) is absent in them (the walk back once stopped with an
    # IndexError at the first version without it).
    trample = {s.version: s for s in open_corpus(corpus.root).history("mtg/cr", "cr:702.19e")}
    old = ("2003-03-15", "2006-10-01", "2009-02-01")
    assert [(trample[v].citation, trample[v].change) for v in old] == [(None, "absent")] * 3
    assert trample["2022-10-07"].citation == "cr:702.19e"
    assert by_version["2025-02-07"].citation == moved["old_id"]
    assert by_version["2025-07-25"].citation == moved["new_id"]
    assert by_version["2025-07-25"].change in (
        "renumbered",
        "moved",
        "reworded",
        "reference-only",
        "typography-only",
    )
    assert by_version["2025-02-07"].text


def test_an_old_number_is_answered_with_its_new_one(ctx: Context) -> None:
    corpus = Corpus(ctx.corpus_dir)
    diff = json.loads(corpus.read_file(corpus.document_entry("mtg/cr").diffs[-2].json_file))
    new_ids = {r.id for r in corpus.load_document("mtg/cr", "2025-07-25").records}
    entry = next(r for r in diff["renumbering"] if r["old_id"] not in new_ids)
    shown = open_corpus(corpus.root).show(entry["old_id"], "mtg/cr", "2025-07-25")
    assert shown.renumbered_from == entry["old_id"]
    assert shown.record.id == entry["new_id"]


def test_verify_reproduces_every_stored_version(ctx: Context) -> None:
    summary = audit.verify(ctx, ["fab/cr", "netrunner/rulings"], reproduce_json=True)
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes]
    assert {o.outcome for o in summary.outcomes} == {"verified"}


def test_verify_catches_a_stored_file_edited_by_hand(ctx: Context, tmp_path: Path) -> None:
    corpus = Corpus(ctx.corpus_dir)
    item = corpus.document_entry("fab/ppg").versions[-1]
    path = ctx.corpus_dir / item.file
    original = path.read_bytes()
    try:
        path.write_bytes(original.replace(b'"fab/ppg"', b'"fab/PPG"', 1))
        summary = audit.verify(ctx, ["fab/ppg"])
        assert summary.exit_code == EXIT_VERIFY
        assert "changed since it was stored" in summary.outcomes[0].message
    finally:
        path.write_bytes(original)


def test_the_stored_json_is_canonical(ctx: Context) -> None:
    corpus = Corpus(ctx.corpus_dir)
    for name in ("fab/cr", "mtg/cr", "riftbound/cr"):
        doc = corpus.load_document(name)
        item = corpus.document_entry(name).entry(doc.version or "")
        assert item is not None
        assert canonical_json(doc) == corpus.read_file(item.file)


def test_show_a_five_level_riftbound_rule_with_its_provenance(ctx: Context) -> None:
    shown = open_corpus(ctx.corpus_dir).show("cr:383.4.a.1", "riftbound/cr")
    assert shown.version == "2026-06-18" and shown.record.id == "cr:383.4.a.1"
    provenance = shown.provenance()
    assert provenance["sha256"] == shown.provenance()["renditions"][0]["sha256"]
    assert shown.fetches and str(shown.fetches[0]["final_url"]).startswith("file://")


def test_diff_between_versions_that_are_not_adjacent(ctx: Context) -> None:
    from typer.testing import CliRunner

    from pipeline.cli.commands import app

    def diff(*options: str) -> Result:
        command = ["--corpus", str(ctx.corpus_dir), "diff", "mtg/cr", "2022-10-07", "2025-11-14"]
        return CliRunner().invoke(app, [*command, *options])

    result = diff("--format", "json")
    assert result.exit_code == 0, result.stderr
    diff_json = json.loads(result.stdout)
    assert (diff_json["old_version"], diff_json["new_version"]) == ("2022-10-07", "2025-11-14")
    assert diff_json["summary"]["added"] > 300 and diff_json["renumbering"]
    md = diff("--hide-renumbering")
    assert md.stdout.startswith("# mtg/cr: 2022-10-07 → 2025-11-14")
    # Pure renumberings are hidden; a rule renumbered *and* reworded stays visible.
    assert not [
        line
        for line in md.stdout.splitlines()
        if line.startswith("- **renumbered**") and line.endswith("text unchanged)")
    ]
    assert "Hidden here (kept in the JSON)" in md.stdout


def test_the_nisei_1_2_diff_is_reconciled_with_its_summary_of_changes(ctx: Context) -> None:
    corpus = Corpus(ctx.corpus_dir)
    entry = corpus.document_entry("netrunner/cr")
    stored = next(d for d in entry.diffs if (d.old, d.new) == ("1.1", "1.2"))
    rec = json.loads(corpus.read_file(stored.json_file))["reconciliation"]
    assert len(rec["named_found"]) + len(rec["named_not_found"]) == 22
    assert len(rec["named_found"]) == 14
    assert all(not c["cites"] for c in rec["named_not_found"])
    assert "The publisher names 22 changes; the diff finds 14 of them." in (
        corpus.read_file(stored.markdown).decode()
    )


def test_regression_relative_archive_path_for_a_source_without_a_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make run` passes ../shared/sources; the Riftbound text extractions have no URL, so
    their provenance is the file itself, named absolutely, and kept out of the version's
    JSON (which must be the same on any machine)."""
    entries = [
        e
        for e in json.loads((SHARED / "manifest.json").read_text())
        if e["game"] == "riftbound" and e["version"] == "2025-10-01"
    ]
    link_archive(tmp_path / "archive", entries)
    monkeypatch.chdir(tmp_path)
    ctx = Context(corpus_dir=Path("corpus"), cache_dir=Path("cache"), renderers=diff_renderers())
    summary = archive.import_archive(ctx, Path("archive"))
    assert summary.exit_code == EXIT_OK, summary.outcomes
    corpus = Corpus(Path("corpus"))
    doc = corpus.load_document("riftbound/cr")
    assert doc.source is not None and doc.source.url is None
    shown = open_corpus(corpus.root).show(doc.records[0].id, "riftbound/cr")
    assert str(shown.fetches[0]["final_url"]).startswith("file:///")
