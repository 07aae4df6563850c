"""The id index of each stored version (store/ids.py): every span names exactly its record's
bytes, `show` and `history` read through it and say what the whole file says, and a
damaged file or index is caught, never served."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.corpus import open_corpus
from pipeline.errors import EXIT_VERIFY, StoreError
from pipeline.jobs.context import Context
from pipeline.jobs.verify import check_id_index, verify
from pipeline.lookup import StoredCorpus
from pipeline.lookup.lineage import Lineages
from pipeline.lookup.show import shown_json
from pipeline.models.records import Document, GlossaryTerm, Location, ParserInfo, Rule
from pipeline.store import layout
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus, sha256_hex
from pipeline.store.ids import FORMAT, build_id_index, children_in, read_span, record_digests


def _rule(ident: str, kind: str, depth: int, parent: str | None = None, **more: str) -> Rule:
    number = ident.split(":")[1]
    at = Location(line=1)
    return Rule(id=ident, number=number, kind=kind, parent=parent, depth=depth, location=at, **more)


def _doc() -> Document:
    rules = [
        _rule("cr:1", "chapter", 1, title="Game “Concepts”"),
        _rule("cr:1.1", "rule", 2, "cr:1", text="a\nb"),
        _rule("cr:1.1a", "subrule", 3, "cr:1.1"),
        _rule("cr:1.2", "rule", 2, "cr:1"),
    ]
    term = GlossaryTerm(id="glossary:x", term="X", definition="ünï", location=Location(line=2))
    parser = ParserInfo(family="f", version="1")
    return Document(
        game="g",
        document="g/cr",
        title="T",
        version="1",
        parser=parser,
        records=rules,
        glossary=[term],
    )


def test_every_span_is_exactly_its_record(tmp_path: Path) -> None:
    data = canonical_json(_doc())
    index = build_id_index("g/cr/1.json", data)
    assert index["format"] == FORMAT and index["sha256"] == sha256_hex(data)
    assert index["head"]["title"] == "T" and index["head"]["version"] == "1"
    file = tmp_path / "v.json"
    file.write_bytes(data)
    raw = json.loads(data)
    with file.open("rb") as handle:
        for key in ("records", "glossary"):
            for record in raw[key]:
                entry = index["ids"][record["id"]]
                assert entry[0] == key
                assert read_span(handle, record["id"], entry) == record
    assert children_in(index, "cr:1") == ["cr:1.1", "cr:1.2"]
    assert children_in(index, "cr:1.1") == ["cr:1.1a"]


def test_a_span_whose_bytes_changed_is_not_read(tmp_path: Path) -> None:
    data = canonical_json(_doc())
    index = build_id_index("v.json", data)
    start, end = index["ids"]["cr:1.1"][1:3]
    damaged = data[:start] + data[start:end].replace(b'"a\\nb"', b'"a\\nc"') + data[end:]
    assert damaged != data and len(damaged) == len(data)
    (tmp_path / "v.json").write_bytes(damaged)
    with (tmp_path / "v.json").open("rb") as handle:
        assert read_span(handle, "cr:1.1", index["ids"]["cr:1.1"]) is None
        assert read_span(handle, "cr:1", index["ids"]["cr:1"]) is not None
        assert read_span(handle, "cr:1.2", index["ids"]["cr:1"]) is None  # another record


def test_bytes_not_in_the_canonical_layout_are_refused() -> None:
    data = json.dumps(_doc().model_dump(mode="json"), sort_keys=True).encode()  # no indent
    with pytest.raises(ValueError, match="layout"):
        build_id_index("v.json", data)


@pytest.mark.parametrize("indent", [1, 3, 4])
def test_an_indent_other_than_the_canonical_one_is_refused(indent: int) -> None:
    # The spans are found by scanning for the canonical item lines (4 spaces and a brace),
    # so a file laid out otherwise must be refused, never indexed at the wrong bytes.
    raw = _doc().model_dump(mode="json")
    data = json.dumps(raw, sort_keys=True, indent=indent, ensure_ascii=False).encode()
    with pytest.raises(ValueError, match="layout"):
        build_id_index("v.json", data)


def _without_ids(root: Path, tmp_path: Path) -> Path:
    """A copy of the corpus whose index names no id index (a corpus stored before them)."""
    copy = tmp_path / "old"
    shutil.copytree(root, copy)
    index = json.loads((copy / layout.INDEX).read_text())
    for entry in index["documents"].values():
        for item in entry["versions"]:
            assert item.pop("ids")
    (copy / layout.INDEX).write_text(json.dumps(index, indent=2, sort_keys=True) + "\n")
    return copy


CITATIONS = [
    ("mtg/cr", "cr:702.19"),  # a rule with subrules: its children come from the index too
    ("mtg/cr", "glossary:trample"),
    ("mtg/cr", "cr:603.2f"),  # renumbered: through the alias table
    ("netrunner/cr", "cr:1.2.3"),
    ("fab/cr", "cr:1.0.1a"),
]


def test_show_and_history_through_the_index_say_what_the_whole_file_says(
    imported_corpus: Context, tmp_path: Path
) -> None:
    root = imported_corpus.corpus_dir
    old = _without_ids(root, tmp_path)
    for document, citation in CITATIONS:
        quick = shown_json(Lineages(StoredCorpus(root)), citation, document, None)
        assert quick == shown_json(Lineages(StoredCorpus(old)), citation, document, None)
        assert quick == open_corpus(root).show(citation, document).as_json()
        history = open_corpus(root).history(document, citation)
        assert history == open_corpus(old).history(document, citation)


def test_every_stored_id_index_matches_its_version(imported_corpus: Context) -> None:
    corpus = Corpus(imported_corpus.corpus_dir)
    checked = 0
    for entry in corpus.index().documents.values():
        for item in entry.versions:
            assert item.ids is not None
            assert check_id_index(corpus, item, corpus.read_file(item.file, item.sha256)) == []
            checked += 1
    assert checked >= 20


def _tampered(root: Path, tmp_path: Path, change: Any) -> Path:
    """A copy of the corpus with mtg/cr's current id index replaced by `change(index)`,
    stored under its own digest (as a bug, not a disk error, would leave it)."""
    copy = tmp_path / "tampered"
    shutil.copytree(root, copy)
    index = json.loads((copy / layout.INDEX).read_text())
    entry = index["documents"]["mtg/cr"]
    item = next(v for v in entry["versions"] if v["version"] == entry["current"])
    ids = json.loads((copy / item["ids"]).read_bytes())
    data = canonical_json(change(ids))
    item["ids"] = layout.ids_file("mtg/cr", item["version"], sha256_hex(data))
    (copy / item["ids"]).write_bytes(data)
    (copy / layout.INDEX).write_text(json.dumps(index, indent=2, sort_keys=True) + "\n")
    return copy


def test_an_index_pointing_at_the_wrong_bytes_is_caught(
    imported_corpus: Context, tmp_path: Path
) -> None:
    def swap(ids: dict[str, Any]) -> dict[str, Any]:
        ids["ids"]["cr:702.19c"], ids["ids"]["cr:702.19b"] = (
            ids["ids"]["cr:702.19b"],
            ids["ids"]["cr:702.19c"],
        )
        return ids

    copy = _tampered(imported_corpus.corpus_dir, tmp_path, swap)
    corpus = Corpus(copy)
    version = corpus.version_entry("mtg/cr")
    problems = check_id_index(corpus, version, corpus.read_file(version.file, version.sha256))
    assert problems and "does not match" in problems[0]
    # the span's bytes are a real record with a true digest, but not the one asked for:
    # show and history both say the file is damaged, never serve the other record
    with pytest.raises(StoreError, match="id index"):
        shown_json(Lineages(StoredCorpus(copy)), "cr:702.19c", "mtg/cr", None)
    with pytest.raises(StoreError, match="id index"):
        open_corpus(copy).history("mtg/cr", "cr:702.19c")


def test_a_span_gives_the_digest_of_the_record_alone(imported_corpus: Context) -> None:
    """What the export's record_sha256 reads off the stored bytes is sha256_of(record)."""
    from pipeline.corpus.reader import sha256_of

    corpus = Corpus(imported_corpus.corpus_dir)
    for document in ("mtg/cr", "netrunner/rulings", "fab/cr"):
        item = corpus.version_entry(document)
        assert item.ids is not None
        index = json.loads(corpus.read_file(item.ids))
        digests = record_digests(corpus.read_file(item.file), index)
        doc = corpus.load_document(document)
        records = [*doc.records, *doc.glossary, *doc.rulings]
        assert records and all(digests[r.id] == sha256_of(r) for r in records)


def test_a_damaged_id_index_is_one_problem_of_verify(
    imported_corpus: Context, tmp_path: Path
) -> None:
    """Regression: verify re-hashed the id index twice and reported its damage twice."""
    copy = tmp_path / "damaged"
    shutil.copytree(imported_corpus.corpus_dir, copy)
    corpus = Corpus(copy)
    item = corpus.version_entry("mtg/cr")
    assert item.ids is not None
    path = copy / item.ids
    data = bytearray(path.read_bytes())
    at = data.rindex(b'"') - 1  # the last digit of the version's SHA-256: still JSON
    data[at] ^= 1
    path.write_bytes(bytes(data))
    ctx = Context(corpus_dir=copy, cache_dir=imported_corpus.cache_dir, renderers=diff_renderers())
    summary = verify(ctx, ["mtg/cr"])
    messages = "\n".join(o.message or "" for o in summary.outcomes)
    assert summary.exit_code == EXIT_VERIFY
    assert messages.count(f"{path} changed since it was stored") == 1
