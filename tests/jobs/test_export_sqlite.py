"""`rulescorpus export sqlite` over a corpus imported from ../shared/sources: the rows are
the corpus's, full-text search finds rules, the history view follows renumbering, and
the same corpus gives the same database."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from datasette.utils import escape_fts
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.corpus import open_corpus
from pipeline.export.datasette.metadata import QUERIES
from pipeline.export.sqlite import Exported, export_sqlite


@pytest.fixture(scope="module")
def corpus_dir(small_corpus: Path) -> Path:
    return small_corpus


@pytest.fixture(scope="module")
def exported(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Exported:
    return export_sqlite(corpus_dir, tmp_path_factory.mktemp("export") / "rulescorpus.sqlite")


@pytest.fixture(scope="module")
def db(exported: Exported) -> sqlite3.Connection:
    conn = sqlite3.connect(exported.path)
    conn.row_factory = sqlite3.Row
    # The canned queries run under Datasette, which provides escape_fts() for user input.
    conn.create_function("escape_fts", 1, escape_fts)
    return conn


def test_row_counts_equal_the_corpus_counts(db: sqlite3.Connection, corpus_dir: Path) -> None:
    index = json.loads((corpus_dir / "index.json").read_text())
    counted = {
        (row["version_key"], table): row["n"]
        for table in ("records", "glossary", "rulings")
        for row in db.execute(f"select version_key, count(*) as n from {table} group by 1")
    }
    versions = 0
    for document, entry in index["documents"].items():
        for item in entry["versions"]:
            key = f"{document}@{item['version']}"
            versions += 1
            for table in ("records", "glossary", "rulings"):
                assert counted.get((key, table), 0) == item[table], (key, table)
    assert db.execute("select count(*) from versions").fetchone()[0] == versions
    assert db.execute("select count(*) from documents").fetchone()[0] == len(index["documents"])
    assert versions == 10  # 7 MTG, 1 FaB, 2 rulings snapshots
    cards = sum(len(r.cards) for r in open_corpus(corpus_dir).rulings("netrunner/rulings"))
    current = "netrunner/rulings@2024-01-15"
    assert (
        db.execute(
            "select count(*) from ruling_cards where version_key = ?", (current,)
        ).fetchone()[0]
        == cards
    )


def test_every_table_row_agrees_with_the_stored_files(
    db: sqlite3.Connection, corpus_dir: Path
) -> None:
    corpus = open_corpus(corpus_dir)
    row = db.execute("select * from records where key = 'mtg/cr@2025-11-14#cr:702.19c'").fetchone()
    rule = corpus.record("mtg/cr", "cr:702.19c")
    assert row["text"] == rule.text and row["parent"] == "cr:702.19"  # type: ignore[union-attr]
    assert json.loads(row["references"]) == rule.references  # type: ignore[union-attr]
    assert row["location_line"] == rule.location.line  # type: ignore[union-attr]
    prov_of_rule = corpus.provenance("mtg/cr", "cr:702.19c")
    assert row["record_sha256"] == prov_of_rule.record_sha256
    # the record's whole provenance is in its row: span, offsets, engine, both digests
    span = {k: row[f"location_{k}"] for k in prov_of_rule.location}
    assert span == prov_of_rule.location and span["end_line"] == 4063
    assert span["char_end"] > span["char_start"] > 0
    assert (row["engine"], row["engine_version"]) == (
        prov_of_rule.engine,
        prov_of_rule.engine_version,
    )
    assert row["engine"] == "python-codecs utf-8 (byte-order mark)"
    assert row["document_sha256"] == prov_of_rule.document_sha256
    version = db.execute("select * from versions where id = 'mtg/cr@2025-11-14'").fetchone()
    prov = corpus.version_provenance("mtg/cr", "2025-11-14")
    assert version["source_sha256"] == prov["fetches"][0]["sha256"]
    assert version["retrieved"] == prov["fetches"][0]["retrieved"]
    assert version["source_bytes"] == 962951 and version["is_current"] == 1
    diff = corpus.diff_data("mtg/cr", "2025-07-25", "2025-11-14")
    assert db.execute(
        "select count(*) from changes where diff_key = 'mtg/cr@2025-07-25..2025-11-14'"
    ).fetchone()[0] == len(diff["changes"])
    pairs = db.execute(
        "select old_id, new_id, old_record_key from renumbering "
        "where diff_key = 'mtg/cr@2025-07-25..2025-11-14' order by position"
    ).fetchall()
    assert [(p["old_id"], p["new_id"]) for p in pairs] == [
        (r["old_id"], r["new_id"]) for r in diff["renumbering"]
    ]
    assert all(p["old_record_key"] for p in pairs)
    aliases = db.execute(
        "select old_id, new_id from aliases where version_key = 'mtg/cr@2025-11-14'"
    ).fetchall()
    assert dict(map(tuple, aliases)) == corpus.aliases("mtg/cr", "2025-11-14")
    # Declared foreign keys hold: every reference names a row that exists.
    assert db.execute("pragma foreign_key_check").fetchall() == []
    assert {r[0] for r in db.execute("select name from sqlite_master where type = 'view'")} >= {
        "current_versions",
        "current_records",
        "record_history",
    }


def test_full_text_search_finds_trample_over_planeswalkers(db: sqlite3.Connection) -> None:
    hits = db.execute(
        "select r.citation from records_fts join records r on r.rowid = records_fts.rowid "
        "join documents d on d.id = r.document and d.current_version = r.version "
        "where records_fts match ? and r.document = 'mtg/cr' order by rank",
        ("trample over planeswalkers",),
    ).fetchall()
    assert "cr:702.19c" in [h[0] for h in hits]
    # The canned query of metadata.json does the same across every current document.
    found = db.execute(
        QUERIES["search_current_rules"]["sql"], {"q": "trample over planeswalkers"}
    ).fetchall()
    assert "mtg/cr@2025-11-14#cr:702.19c" in [f["record"] for f in found]
    assert all("@2025-11-14#" in f["record"] for f in found if f["document"] == "mtg/cr")
    terms = db.execute(
        "select g.term from glossary_fts join glossary g on g.rowid = glossary_fts.rowid "
        "where glossary_fts match 'planeswalker' and g.version_key = 'mtg/cr@2025-11-14'"
    ).fetchall()
    assert "Planeswalker" in [t[0] for t in terms]
    rulings = db.execute(
        "select count(*) from rulings_fts where rulings_fts match 'Corp'"
    ).fetchone()[0]
    assert rulings > 0


def test_the_history_view_follows_a_renumbered_rule(db: sqlite3.Connection) -> None:
    # 2025-11-14 merged 603.2d and 603.2e, so 603.2f of 2025-07-25 is 603.2e now.
    rows = db.execute(
        "select version, citation, change, text from record_history "
        "where lineage = (select lineage from current_records "
        "where document = 'mtg/cr' and citation = 'cr:603.2e') order by version_ordinal"
    ).fetchall()
    steps = [(r["version"], r["citation"], r["change"]) for r in rows]
    assert steps[-2:] == [
        ("2025-07-25", "cr:603.2f", steps[-2][2]),
        ("2025-11-14", "cr:603.2e", "renumbered"),
    ]
    assert len({s[0] for s in steps}) == len(steps) >= 2
    moved = db.execute(
        QUERIES["where_does_this_old_number_live_now"]["sql"],
        {"document": "mtg/cr", "citation": "cr:603.2f"},
    ).fetchall()
    answers = {m["was_in"]: (m["number_now"], m["status"]) for m in moved}
    # The number names two rules: 2025-11-14's own 603.2f, and 2025-07-25's, now 603.2e.
    assert answers["2025-11-14"] == ("cr:603.2f", "current")
    assert answers["2025-07-25"] == ("cr:603.2e", "current")
    by_citation = db.execute(
        QUERIES["rule_by_citation"]["sql"],
        {"citation": "cr:603.2e", "document": "mtg/cr", "version": ""},
    ).fetchall()
    assert [(r["version"], r["text"]) for r in by_citation] == [("2025-11-14", rows[-1]["text"])]
    changed = db.execute(
        QUERIES["changes_between_versions"]["sql"],
        {"document": "mtg/cr", "old": "2025-07-25", "new": "2025-11-14"},
    ).fetchall()
    assert ("renumbered", "cr:603.2f", "cr:603.2e") in [
        (c["class"], c["old_id"], c["new_id"]) for c in changed
    ]


def _dump(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_the_same_corpus_gives_the_same_database(
    corpus_dir: Path, exported: Exported, tmp_path: Path
) -> None:
    first, second = exported, export_sqlite(corpus_dir, tmp_path / "rulescorpus.sqlite")
    assert _dump(first.path) == _dump(second.path)
    digest = [hashlib.sha256(p.read_bytes()).hexdigest() for p in (first.path, second.path)]
    assert digest[0] == digest[1]
    assert first.metadata.read_bytes() == second.metadata.read_bytes()
    meta = json.loads(first.metadata.read_text())
    assert set(meta["databases"]) == {"rulescorpus"}
    assert set(meta["databases"]["rulescorpus"]["queries"]) == set(QUERIES)


def test_the_command_line_exports_and_import_keeps_it_current(
    corpus_dir: Path, tmp_path: Path
) -> None:
    runner = CliRunner()
    target = tmp_path / "cli.sqlite"
    result = runner.invoke(app, ["--corpus", str(corpus_dir), "export", "sqlite", str(target)])
    assert result.exit_code == 0, result.output
    assert "records 2" in result.output and target.exists()
    # import --sqlite, then update --sqlite from the same files as a mirror: nothing new
    # (exit 0), and the database is written after each. They run on a copy: the session's
    # small corpus is read only.
    shutil.copytree(corpus_dir.parent, tmp_path / "copy")
    archive = str(tmp_path / "copy" / "archive")
    common = [
        "--corpus",
        str(tmp_path / "copy" / "corpus"),
        "--cache",
        str(tmp_path / "copy" / "cache"),
    ]
    for name, command in (
        ("kept", ["import", archive]),
        ("updated", ["update", "--mirror", archive]),
    ):
        written = tmp_path / f"{name}.sqlite"
        result = runner.invoke(app, [*common, *command, "--sqlite", str(written)])
        assert result.exit_code == 0, (name, result.output)
        assert _dump(written) == _dump(target), name
    missing = runner.invoke(
        app, ["--corpus", str(tmp_path / "none"), "export", "sqlite", str(tmp_path / "x.sqlite")]
    )
    assert missing.exit_code == 2 and "no index.json" in missing.output


def test_full_text_search_covers_examples_and_notes(db: sqlite3.Connection) -> None:
    """The records' full-text index covered citation, title and text only: a word of an
    example or a note found nothing."""
    columns = [r[1] for r in db.execute("pragma table_info(records_fts)")]
    assert columns == ["citation", "title", "text", "examples", "notes"]
    for column in ("examples", "notes"):
        row = db.execute(
            f"select citation, {column}, text from records where {column} != '[]' limit 1"
        ).fetchone()
        words = set(re.findall(r"[a-z]{6,}", row[column].lower())) - set(
            re.findall(r"[a-z]{6,}", row["text"].lower())
        )
        word = sorted(words)[0]
        found = db.execute(
            "select r.citation from records_fts join records r on r.rowid = records_fts.rowid "
            "where records_fts match ?",
            (f"{column}: {word}",),
        ).fetchall()
        assert row["citation"] in {f[0] for f in found}


@pytest.mark.parametrize(
    "written", ["cr:702.19c", "702.19c", "CR 702.19c", "rule 702.19c", "702.19C", "Trample"]
)
def test_the_lookup_view_answers_citations_as_people_write_them(
    db: sqlite3.Connection, corpus_dir: Path, written: str
) -> None:
    """The forms `show` and the Python API accept, lower-cased, name the same record of the
    current version in SQL: `select * from lookup where form = lower(?)`."""
    rows = db.execute(
        "select document, version, citation, text from lookup where form = lower(?) "
        "and document = 'mtg/cr'",
        (written,),
    ).fetchall()
    expected = open_corpus(corpus_dir).record("mtg/cr", written)
    assert [(r["document"], r["version"], r["citation"]) for r in rows] == [
        ("mtg/cr", "2025-11-14", expected.id)
    ]
    assert rows[0]["text"]
