"""The one read side (`pipeline.corpus`) over two real MTG versions and two NetrunnerDB
rulings snapshots: every way of asking where a record went (show's "now", history, the
renumbering command, the API's follow, the SQLite lineages) gives the same answer for
every record, and a citation is read the same way everywhere, in the forms people
write it."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.corpus import CorpusReader, open_corpus
from pipeline.diff.citations import parse_citation
from pipeline.diff.renumbering import lookup
from pipeline.errors import UsageError
from pipeline.export.sqlite import export_sqlite
from pipeline.lookup import StoredCorpus
from pipeline.lookup.show import find_document
from tests.support.helpers import ROOT, corpus_digest
from tests.support.mtg_sources import MTG
from tests.support.real_corpus import import_real, modules_loaded, rulescorpus

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

OLD, NEW = "2025-07-25", "2025-11-14"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    wanted = {MTG.format(v) for v in ("20250725", "20251114")}
    return import_real(
        tmp_path_factory.mktemp("readside"),
        lambda e: (
            e["path"] in wanted
            or (e["document"] == "rulings-netrunnerdb" and str(e["path"]).endswith(".tar.gz"))
        ),
        parse_cache_dir,
    )


@pytest.fixture(scope="module")
def reader(corpus: Path) -> CorpusReader:
    return open_corpus(corpus)


def sqlite_successors(corpus: Path, tmp_path: Path, document: str) -> dict[str, str | None]:
    """Old-version citation -> the new-version citation of the same lineage, from a real
    `export sqlite` of the corpus."""
    database = tmp_path / "corpus.db"
    export_sqlite(corpus, database)
    rows = sqlite3.connect(database).execute(
        "select version, citation, lineage from records where document = ?", (document,)
    )
    by_lineage: dict[str, dict[str, str]] = {}
    for version, citation, lineage in rows:
        by_lineage.setdefault(lineage, {})[version] = citation
    return {chain[OLD]: chain.get(NEW) for chain in by_lineage.values() if OLD in chain}


def test_every_record_of_two_versions_goes_to_the_same_place_every_way(
    corpus: Path, reader: CorpusReader, tmp_path: Path
) -> None:
    document = "mtg/cr"
    old_ids = reader.stored.version(document, OLD).ids()
    rmap = reader.renumbering(document, OLD, NEW)
    # The command prints the very map the API returns.
    printed = rulescorpus(corpus, "renumbering", document, OLD, NEW, "--format", "json")
    assert printed.returncode == 0, printed.stderr
    assert json.loads(printed.stdout) == rmap.model_dump(mode="json", by_alias=True)
    successors = sqlite_successors(corpus, tmp_path, document)
    step = reader.lineage_step(document, OLD, NEW)
    moved = removed = merged = 0
    for old_id in old_ids:
        found = lookup(rmap, old_id)
        entry = found.entry
        by_map = (
            (old_id,)
            if entry is None
            else tuple(entry.new_ids) or ((found.new_id,) if found.new_id else ())
        )
        followed = reader.follow(document, old_id, since=OLD, to=NEW)
        assert followed.citations == by_map, old_id
        now = reader.show(old_id, document, OLD).now
        assert now is not None
        assert tuple(now["ids"] or ([now["id"]] if now["id"] else [])) == by_map, old_id
        primary = by_map[0] if by_map else None
        first_of_merge = primary is None or step.behind(primary)[:1] == (old_id,)
        if old_id.startswith("cr:"):  # the export follows rules; terms have no lineage
            assert successors[old_id] == (primary if first_of_merge else None), old_id
        if primary is not None:
            steps = {s.version: s for s in reader.history(document, primary)}
            assert old_id in steps[OLD].citations and steps[NEW].citation == primary, old_id
            moved += primary != old_id
            merged += not first_of_merge
        else:
            removed += 1
            if not reader.stored.version(document, NEW).has(old_id):
                steps = {s.version: s for s in reader.history(document, old_id)}
                assert steps[OLD].citation == old_id and steps[NEW].citation is None
    # The pair renumbers, removes and merges: each path above was really taken.
    assert len(old_ids) > 3900 and moved >= 10 and removed >= 1 and merged >= 1


CITATION_FORMS = [
    "cr:702.19c",
    "702.19c",
    "CR 702.19c",
    "CR702.19c",
    "rule 702.19c",
    "702.19C",
    "  cr:702.19c ",
]


@pytest.mark.parametrize("written", CITATION_FORMS)
def test_a_citation_reads_the_same_in_every_form_people_write(
    corpus: Path, reader: CorpusReader, written: str
) -> None:
    assert reader.record("mtg/cr", written).id == "cr:702.19c"
    assert reader.show(written).record.id == "cr:702.19c"
    shown = rulescorpus(corpus, "show", written, "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["record"]["id"] == "cr:702.19c"
    assert reader.history("mtg/cr", written)[-1].citation == "cr:702.19c"


@pytest.mark.parametrize("written", ["Trample", "glossary:Trample", "glossary:trample", "trample"])
def test_a_glossary_term_is_found_by_its_name(
    corpus: Path, reader: CorpusReader, written: str
) -> None:
    term = reader.record("mtg/cr", written)
    assert term.id == "glossary:trample"
    shown = rulescorpus(corpus, "show", written, "--doc", "mtg/cr")
    assert shown.returncode == 0 and shown.stdout.startswith("glossary:trample  Trample")


@pytest.mark.parametrize("written", ["", "702.19c!!", "§§", "12/3", "cr"])
def test_a_citation_that_is_no_citation_names_the_accepted_forms(
    corpus: Path, written: str
) -> None:
    with pytest.raises(UsageError, match=r"cr:702\.19c, 702\.19c, CR 702\.19c, rule 702\.19c"):
        parse_citation(written)
    shown = rulescorpus(corpus, "show", written, "--doc", "mtg/cr")
    assert shown.returncode == 2
    assert "is not a citation" in shown.stderr and "Traceback" not in shown.stderr
    assert "glossary:Trample" in " ".join(shown.stderr.split())


def test_show_without_doc_decodes_only_the_document_that_has_it(corpus: Path) -> None:
    # Every other document's id index is scanned as bytes, never decoded: the answer
    # costs what `--doc` costs.
    stored = StoredCorpus(corpus)
    assert find_document(stored, parse_citation("702.19c")) == "mtg/cr"
    decoded = {key for key, version in stored._versions.items() if version._index is not None}
    assert decoded == {("mtg/cr", NEW)}


def test_an_old_number_is_shown_renumbered_and_followed(reader: CorpusReader) -> None:
    # 603.2i of 2025-07-25 is 603.2h of 2025-11-14, which has no 603.2i any more.
    shown = reader.show("603.2i", "mtg/cr")
    assert (shown.record.id, shown.renumbered_from) == ("cr:603.2h", "cr:603.2i")
    followed = reader.follow("mtg/cr", "cr:603.2i")
    assert (followed.since, followed.citation, followed.citations) == (
        OLD,
        "cr:603.2h",
        ("cr:603.2h",),
    )
    assert [(s.old_id, s.new_id) for s in followed.steps] == [("cr:603.2i", "cr:603.2h")]


def test_reading_changes_nothing(corpus: Path, reader: CorpusReader) -> None:
    before = corpus_digest(corpus)
    reader.history("mtg/cr", "cr:702.19c")
    reader.search("trample")
    assert rulescorpus(corpus, "history", "cr:702.19c", "--doc", "mtg/cr").returncode == 0
    assert corpus_digest(corpus) == before


def doc_blocks(name: str, language: str) -> list[str]:
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def test_the_python_api_page_runs_and_prints_what_it_says(corpus: Path) -> None:
    (example,) = doc_blocks("python-api.md", "python")
    (printed,) = doc_blocks("python-api.md", "text")
    done = subprocess.run(
        [sys.executable, "-c", example],
        cwd=corpus.parent,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed, done.stdout


def test_the_search_page_shows_what_search_prints(corpus: Path) -> None:
    (console,) = doc_blocks("search.md", "console")
    command, _, shown = console.partition("\n")
    args = command.removeprefix("$ rulescorpus ").split()
    done = rulescorpus(corpus, *args, columns=80)  # the page shows an 80-column terminal
    assert done.returncode == 0, done.stderr
    strip = [line.rstrip() for line in done.stdout.splitlines()]
    assert strip == [line.rstrip() for line in shown.splitlines()]


def test_search_ranks_every_hit_and_finds_words_only_in_examples(
    corpus: Path, reader: CorpusReader
) -> None:
    hits = reader.search("trample", document="mtg/cr", limit=None)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True) and len(hits) > 10
    assert hits[0].citation in ("glossary:trample", "cr:702.19")
    # A rule found by a word of its example alone (a word its text and title lack).
    rule, word = next(
        (r, w)
        for r in reader.records("mtg/cr")
        for w in re.findall(r"[a-z]{7,}", " ".join(r.examples).lower())
        if w not in f"{r.text} {r.title}".lower()
    )
    assert rule.id in [h.citation for h in reader.search(word, document="mtg/cr", limit=None)]


def test_search_covers_rulings_glossary_and_older_versions(
    corpus: Path, reader: CorpusReader
) -> None:
    ruling = next(r for r in reader.rulings("netrunner/rulings") if r.answer or r.text)
    said = " ".join(re.findall(r"\w+", ruling.answer or ruling.text or "")[:6])
    hits = reader.search(said, document="netrunner/rulings", limit=None)
    assert ruling.id in [h.citation for h in hits] and hits[0].kind == "ruling"
    assert {h.kind for h in reader.search("trample")} >= {"rule", "glossary"}
    # 603.2i exists only in the older version.
    old = reader.record("mtg/cr", "cr:603.2i", version=OLD)
    words = " ".join(re.findall(r"\w+", old.text)[:8])  # type: ignore[union-attr]
    found = reader.search(words, document="mtg/cr", version=OLD)
    assert found[0].version == OLD and "cr:603.2i" in [h.citation for h in found]


def test_search_on_the_command_line_says_when_nothing_matched(corpus: Path) -> None:
    done = rulescorpus(corpus, "search", "trample", "--doc", "mtg/cr", "--json", "--limit", "3")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["query"] == "trample" and len(data["hits"]) == 3
    assert set(data["hits"][0]) == {
        "document", "version", "citation", "kind", "heading", "snippet", "score"
    }  # fmt: skip
    none = rulescorpus(corpus, "search", "xylophonequark")
    assert none.returncode == 1 and "no record holds every word" in none.stdout
    bad = rulescorpus(corpus, "search", "trample", "--version", OLD)
    assert bad.returncode == 2 and "needs --doc" in bad.stderr and "Traceback" not in bad.stderr


QUICK_CASES = [
    ("history", "cr:603.2h", "--doc", "mtg/cr"),
    ("history", "Trample", "--doc", "mtg/cr"),
    ("search", "trample", "planeswalkers", "--limit", "4"),
    ("search", "trample", "--doc", "mtg/cr", "--version", OLD, "--json"),
    ("search", "xylophonequark"),  # nothing matched: exit 1
    ("show", "702.19C"),  # no --doc
]


@pytest.mark.parametrize("args", QUICK_CASES, ids=lambda a: " ".join(a))
def test_the_quick_paths_say_what_the_full_commands_say(
    corpus: Path, args: tuple[str, ...]
) -> None:
    quick, typer_app = rulescorpus(corpus, *args), rulescorpus(corpus, *args, full=True)
    assert (quick.returncode, quick.stdout) == (typer_app.returncode, typer_app.stdout)
    assert quick.returncode in (0, 1) and quick.stdout


@pytest.mark.parametrize("command", ["history cr:702.19c --doc mtg/cr", "search trample"])
def test_history_and_search_load_none_of_the_heavy_modules(corpus: Path, command: str) -> None:
    argv = ["--corpus", str(corpus), *command.split()]
    loaded = modules_loaded(argv, ("typer", "rich", "pydantic", "pipeline.models.records"))
    assert loaded.endswith("0 []"), loaded


def with_split(corpus: Path, tmp_path: Path, old_id: str, new_ids: list[str]) -> Path:
    """A copy of the corpus whose stored map of OLD..NEW sends `old_id` to `new_ids` (a
    split, as the diff stage writes one), stored under its own digest."""
    from pipeline.store import layout
    from pipeline.store.canonical import canonical_json
    from pipeline.store.corpus import sha256_hex

    copy = tmp_path / "split"
    shutil.copytree(corpus, copy)
    index = json.loads((copy / "index.json").read_text())
    stored = next(d for d in index["documents"]["mtg/cr"]["diffs"] if d["new"] == NEW)
    rmap = json.loads((copy / stored["renumbering"]).read_text())
    entry = {
        "class": "split", "evidence": None, "method": "similar", "new_id": new_ids[0],
        "new_ids": new_ids, "old_id": old_id, "similarity": 0.8, "steps": [],
        "text_change": None, "weak": False,
    }  # fmt: skip
    rmap["entries"] = [e for e in rmap["entries"] if e["old_id"] != old_id] + [entry]
    data = canonical_json(rmap)
    stored["renumbering"] = layout.renumbering_file("mtg/cr", OLD, NEW, sha256_hex(data))
    (copy / stored["renumbering"]).write_bytes(data)
    (copy / "index.json").write_text(json.dumps(index, indent=2, sort_keys=True) + "\n")
    return copy


def test_a_split_is_followed_to_every_part(corpus: Path, tmp_path: Path) -> None:
    copy = with_split(corpus, tmp_path, "cr:702.19c", ["cr:702.19b", "cr:702.19c"])
    reader = open_corpus(copy)
    followed = reader.follow("mtg/cr", "cr:702.19c", since=OLD)
    assert followed.citations == ("cr:702.19b", "cr:702.19c")
    assert followed.citation == "cr:702.19b"
    assert [(s.old_id, s.new_id) for s in followed.steps] == [
        ("cr:702.19c", "cr:702.19b"),
        ("cr:702.19c", "cr:702.19c"),
    ]
    step = reader.lineage_step("mtg/cr", OLD, NEW)
    assert step.ahead("cr:702.19c") == ("cr:702.19b", "cr:702.19c")
    assert "cr:702.19c" in step.behind("cr:702.19b")
    # history of the first part reaches back to the rule that was split
    steps = {s.version: s for s in reader.history("mtg/cr", "cr:702.19b")}
    assert "cr:702.19c" in steps[OLD].citations and steps[NEW].change == "split"


def test_history_reads_id_indexes_where_the_record_changed_never_a_whole_version(
    corpus: Path,
) -> None:
    from pipeline.lookup.lineage import Lineages

    stored = StoredCorpus(corpus)
    steps = Lineages(stored).history("mtg/cr", "cr:702.19c")
    assert [s.change for s in steps] == ["first stored", "unchanged"]
    assert all(v._whole is None for v in stored._versions.values())  # never a whole file
    # Its cost per version: each diff's map; a record's bytes only where it changed (and
    # the oldest version, where the text starts).
    assert {key[1] for key in stored._versions} <= {OLD, NEW}
    assert set(stored._json) == {
        d["renumbering"] for d in stored.entry("mtg/cr")["diffs"]
    }  # the one map of the one diff, read once
