"""`export sqlite` replaces only what is its own (never another database, a text file or
a file in the corpus), writes every table and view even for a sparse corpus, exports a
version holding an id twice, and streams versions: memory does not grow with them."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from datasette.utils import escape_fts
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_IO, StorageIOError
from pipeline.export.datasette.metadata import QUERIES
from pipeline.export.schema import APPLICATION_ID, MARK_TABLE
from pipeline.export.sqlite import export_sqlite
from pipeline.export.target import replacing
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from tests.conftest import MTG_PAIR
from tests.support.helpers import SHARED, corpus_digest

# --------------------------------------------------------------- never replace what is not yours


def _export(corpus: Path, path: str | Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["--corpus", str(corpus), "export", "sqlite", str(path), *extra]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, " ".join(result.output.split())


def test_export_replaces_only_a_database_it_made(mtg_pair_corpus: Path, tmp_path: Path) -> None:
    """`export sqlite PATH` overwrote whatever was at PATH: an unrelated SQLite database
    (its tables gone), a text file, the corpus's own index.json; PATH "" was an internal
    error (exit 70) and a folder exit 74 with a "free space" message. Now PATH is replaced
    only when absent or a database this command made; anything else is exit 2 unless
    --force, a file in the corpus always; an I/O failure is exit 74 naming PATH."""
    corpus = tmp_path / "corpus"
    shutil.copytree(mtg_pair_corpus, corpus)
    before = corpus_digest(corpus)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("create table mine (x)")
    text = tmp_path / "notes.sqlite"
    text.write_text("my notes\n")
    for path in (other, text):
        kept = path.read_bytes()
        code, out = _export(corpus, path)
        assert code == 2 and f"{path}" in out and "--force" in out, out
        assert path.read_bytes() == kept
    code, out = _export(corpus, corpus / "index.json", "--force")
    assert code == 2 and "inside the corpus" in out
    code, out = _export(corpus, "")
    assert code == 2 and "needs a file name" in out
    code, out = _export(corpus, tmp_path)
    assert code == 2 and "is a folder" in out
    code, out = _export(corpus, text / "under-a-file.sqlite")
    assert code == 74 and f"{text}" in out and "free space" not in out.split(";")[0]
    assert corpus_digest(corpus) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus", "notes.sqlite", "other.sqlite"]
    dangling = tmp_path / "dangling.sqlite"
    dangling.symlink_to(tmp_path / "elsewhere" / "made.sqlite")
    code, out = _export(corpus, dangling)
    assert code == 2 and "a link to nothing" in out and not (tmp_path / "elsewhere").exists()
    dangling.unlink()
    # Its own database is replaced; another one only with --force, and then it is its own.
    mine = tmp_path / "mine.sqlite"
    assert _export(corpus, mine)[0] == 0
    assert _export(corpus, mine)[0] == 0
    with sqlite3.connect(mine) as conn:  # as an export made before databases were marked
        conn.execute(f"drop table {MARK_TABLE}")
        conn.execute("pragma application_id = 0")
    assert _export(corpus, mine)[0] == 0
    assert _export(corpus, other, "--force")[0] == 0
    with sqlite3.connect(other) as conn:
        tables = {r[0] for r in conn.execute("select name from sqlite_master")}
        assert "mine" not in tables and MARK_TABLE in tables
        assert conn.execute("pragma application_id").fetchone()[0] == APPLICATION_ID
    assert _export(corpus, other)[0] == 0
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert leftovers == []


def test_a_link_put_in_place_of_the_temporary_database_is_never_followed(tmp_path: Path) -> None:
    """The export reopened its temporary database by name to give it PATH's mode, and
    renamed it by name: a link put in its place while the database was built had the file
    it named made world-readable, then became PATH itself. The export now keeps its
    temporary file's descriptor and renames only that file, from its folder's descriptor:
    PATH, and the file the link names, are left as they were (exit 74)."""
    target = tmp_path / "rulescorpus.sqlite"
    target.write_bytes(b"the previous export")
    target.chmod(0o644)
    victim = tmp_path / "private.txt"
    victim.write_text("not the export's\n")
    victim.chmod(0o600)
    planted = tmp_path / "planted"
    planted.symlink_to(victim)
    with pytest.raises(StorageIOError) as raised, replacing(target) as temp:
        temp.write(b"a new export")
        os.replace(planted, tmp_path / temp.temp)
    assert "was replaced by another meanwhile" in str(raised.value)
    assert raised.value.exit_code == EXIT_IO
    assert not target.is_symlink() and target.read_bytes() == b"the previous export"
    assert victim.read_text() == "not the export's\n" and victim.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["private.txt", "rulescorpus.sqlite"]


def _sparse(source: Path, folder: Path) -> Path:
    """A corpus whose index lists no document at all."""
    folder.mkdir()
    index = json.loads((source / "index.json").read_text())
    empty = {
        k: ({} if isinstance(v, dict) else [] if isinstance(v, list) else v)
        for k, v in index.items()
    }
    (folder / "index.json").write_text(json.dumps(empty))
    return folder


def test_a_sparse_corpus_exports_every_table_view_and_index(
    mtg_pair_corpus: Path, tmp_path: Path
) -> None:
    """Exports of a corpus without rulings (or without documents) made full-text tables and
    views over columns their tables lacked: every read of rulings_fts, glossary_fts,
    current_glossary and current_rulings failed. Each exists with its columns now."""
    for name, corpus in (
        ("rules-only", mtg_pair_corpus),
        ("empty", _sparse(mtg_pair_corpus, tmp_path / "empty")),
    ):
        done = export_sqlite(corpus, tmp_path / f"{name}.sqlite")
        conn = sqlite3.connect(done.path)
        names = [
            r[0]
            for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")
        ]
        for table in (
            "rulings_fts",
            "glossary_fts",
            "records_fts",
            "current_glossary",
            "current_rulings",
            "current_records",
            "record_history",
            "changes",
            "lineages",
        ):
            assert table in names
            conn.execute(f"select * from [{table}] limit 1").fetchall()
        columns = {r[1] for r in conn.execute("pragma table_info(rulings)")}
        assert {"question", "answer", "text", "document", "version"} <= columns
        for query in QUERIES.values():
            conn.create_function("escape_fts", 1, escape_fts)
            params = {
                "citation": "cr:702.19c",
                "document": "",
                "version": "",
                "q": "trample",
                "old": "",
                "new": "",
            }
            conn.execute(query["sql"], params).fetchall()
        conn.close()


def test_a_version_holding_an_id_twice_exports_both_rows(
    manifest: list[dict[str, Any]], tmp_path: Path
) -> None:
    """`export sqlite` of an archive of MTG versions failed with `IntegrityError: UNIQUE
    constraint failed: records.key`: a version may state one number twice (MTG 2006-10-01
    parses with cr:606 twice; stored, with a duplicate-id warning), and both rows got the
    key document@version#id. The second is now document@version#id~2."""
    entry = next(e for e in manifest if e["path"] == MTG_PAIR[1])
    data = (SHARED / entry["path"]).read_bytes()
    line = next(x for x in data.split(b"\r\n") if x.startswith(b"702.19c "))
    twice = data.replace(line + b"\r\n", line + b"\r\n" + line + b"\r\n", 1)
    assert twice != data
    archive = tmp_path / "archive"
    (archive / entry["path"]).parent.mkdir(parents=True)
    (archive / entry["path"]).write_bytes(twice)
    changed = {**entry, "bytes": len(twice), "sha256": hashlib.sha256(twice).hexdigest()}
    (archive / "manifest.json").write_text(json.dumps([changed]))
    ctx = Context(
        corpus_dir=tmp_path / "corpus", cache_dir=tmp_path / "cache", renderers=diff_renderers()
    )
    import_archive(ctx, archive)
    done = export_sqlite(ctx.corpus_dir, tmp_path / "twice.sqlite")
    conn = sqlite3.connect(done.path)
    keys = [r[0] for r in conn.execute("select key from records where citation = 'cr:702.19c'")]
    assert keys == ["mtg/cr@2025-11-14#cr:702.19c", "mtg/cr@2025-11-14#cr:702.19c~2"]


def _peak_export_mib(corpus: Path, target: Path) -> int:
    """The export's peak resident memory, measured in a process of its own."""
    code = (
        "import resource, sys; from pathlib import Path; "
        "from pipeline.export.sqlite import export_sqlite; "
        "export_sqlite(Path(sys.argv[1]), Path(sys.argv[2])); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(corpus), str(target)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    return int(run.stdout.split()[-1])


def test_export_memory_does_not_grow_with_the_number_of_versions(
    mtg_pair_corpus: Path, manifest: list[dict[str, Any]], tmp_path: Path
) -> None:
    """`export sqlite` held every version in memory (1.36 GB over 87 MTG versions): the
    reader it used kept each document it read, and all rows were collected before any was
    written. Versions are streamed now: six versions take the memory of two."""
    entry = next(e for e in manifest if e["path"] == MTG_PAIR[1])
    source = (SHARED / entry["path"]).read_bytes()
    archive, entries = tmp_path / "archive", []
    for day in range(1, 7):
        # each a small edit of the last: a new stated date, one rule reworded
        data = source.replace(b"November 14, 2025", f"December {day}, 2025".encode(), 1)
        data = data.replace(b"702.19c ", f"702.19c Edition {day}: ".encode(), 1)
        path = f"mtg/comprehensive-rules/202512{day:02d}/MagicCompRules 202512{day:02d}.txt"
        (archive / path).parent.mkdir(parents=True)
        (archive / path).write_bytes(data)
        sha = hashlib.sha256(data).hexdigest()
        entries.append({**entry, "version": f"202512{day:02d}", "date": f"2025-12-{day:02d}",
                        "path": path, "bytes": len(data), "sha256": sha})  # fmt: skip
    (archive / "manifest.json").write_text(json.dumps(entries))
    ctx = Context(
        corpus_dir=tmp_path / "corpus", cache_dir=tmp_path / "cache", renderers=diff_renderers()
    )
    assert import_archive(ctx, archive).exit_code == 0
    two = _peak_export_mib(mtg_pair_corpus, tmp_path / "two.sqlite")
    six = _peak_export_mib(ctx.corpus_dir, tmp_path / "six.sqlite")
    with sqlite3.connect(tmp_path / "six.sqlite") as conn:
        assert conn.execute("select count(*) from versions").fetchone()[0] == 6
    assert six < two + 30, (two, six)
