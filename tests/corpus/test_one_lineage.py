"""Every answer that crosses versions agrees, on the rules of every stored version of a
real archive (Magic's text exports since 2009): `follow`, the `renumbering` map, the
site's old-number pages, `history`, `show`'s "now", cite-check and the SQLite export's
lineages say the same place for a rule, because all of them read the one lineage."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.cite.check import cite_check
from pipeline.corpus import open_corpus
from pipeline.corpus.reader import CorpusReader
from pipeline.corpus.renumbering import lineages_of, lives_now
from pipeline.diff.renumbering import lookup
from pipeline.errors import UsageError
from pipeline.export.sqlite import export_sqlite
from pipeline.lookup.lineage import Lineages
from pipeline.lookup.show import shown_json
from pipeline.site.lineage import read_lineage
from pipeline.store.reader import StoredCorpus

DOC = "mtg/cr"
Place = dict[tuple[str, str], tuple[str, ...]]  # (version, id) -> its ids in the current one


@pytest.fixture(scope="module")
def reader(small_corpus: Path) -> CorpusReader:
    return open_corpus(small_corpus)


@pytest.fixture(scope="module")
def followed(reader: CorpusReader) -> Place:
    """`follow`'s answer for every rule of every older version."""
    return {
        (version, rule.id): reader.follow(DOC, rule.id, since=version).citations
        for version in reader.stored.published(DOC)[:-1]
        for rule in reader.records(DOC, version)
    }


@pytest.fixture(scope="module")
def exported(small_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Place:
    """Where the SQLite export's lineage of each older rule stands in the current version
    (nothing when the lineage ends before it)."""
    path = tmp_path_factory.mktemp("lineage-export") / "corpus.db"
    export_sqlite(small_corpus, path)
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "select r.version, r.citation, l.latest_version, l.latest_citation "
            "from records r join lineages l on l.id = r.lineage where r.document = ?",
            (DOC,),
        ).fetchall()
    current = open_corpus(small_corpus).stored.current(DOC)
    return {(v, c): (latest,) if at == current else () for v, c, at, latest in rows}


def test_follow_the_map_and_the_site_agree_on_every_rule_of_every_version(
    reader: CorpusReader, followed: Place
) -> None:
    versions = reader.stored.published(DOC)
    assert len(versions) >= 5
    site = read_lineage(reader, DOC)
    old_pages = {(o.version, o.rule.id): o.now for o in site.old_numbers}
    for version in versions[:-1]:
        rmap = reader.renumbering(DOC, version)  # the `renumbering` command's answer
        for rule in reader.records(DOC, version):
            found = lookup(rmap, rule.id)
            listed = found.entry.new_ids if found.entry is not None else []
            by_map = tuple(listed) or ((found.new_id,) if found.new_id else ())
            here = followed[(version, rule.id)]
            assert here == by_map, (version, rule.id)
            if (version, rule.id) in old_pages:  # the site's page for an old number
                assert old_pages[(version, rule.id)] == (here[0] if here else None)
            else:  # no page of its own: the same rule stands at the same number now
                assert here[:1] == (rule.id,), (version, rule.id)
    assert len(followed) > 10_000


def test_history_and_follow_agree_on_every_current_rule(
    reader: CorpusReader, followed: Place
) -> None:
    current = reader.stored.published(DOC)[-1]
    for rule in reader.records(DOC, current):
        for step in reader.history(DOC, rule.id):
            if step.citation is None or step.version == current:
                continue
            # the id history names in an older version leads, followed, to this rule
            assert rule.id in followed[(step.version, step.citation)], (rule.id, step.version)


def test_the_export_continues_a_lineage_only_where_follow_goes(
    followed: Place, exported: Place
) -> None:
    assert exported.keys() >= followed.keys()
    assert sum(1 for key in followed if exported[key]) > len(followed) // 2
    for key, here in followed.items():
        # a split or a merge continues one lineage: the others end, so only this way holds
        assert set(exported[key]) <= set(here), key


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_show_and_cite_check_say_where_any_rule_lives_now_as_follow_does(
    reader: CorpusReader, followed: Place, tmp_path: Path, data: st.DataObject
) -> None:
    versions = reader.stored.published(DOC)
    version = data.draw(st.sampled_from(versions[:-1]), label="version")
    ids = sorted(i for v, i in followed if v == version)
    drawn = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=8, unique=True))
    for old in drawn:
        now = reader.show(old, DOC, version).now
        assert now is not None
        assert tuple(now["ids"] or ([now["id"]] if now["id"] else [])) == followed[(version, old)]
    notes = tmp_path / f"notes-{version}.txt"
    notes.write_text("".join(f"See {old}.\n" for old in drawn), encoding="utf-8")
    report = cite_check(StoredCorpus(reader.root), DOC, [notes], as_of=version)
    assert [c.id for c in report.citations] == drawn
    for cited in report.citations:
        place = tuple(cited.new_ids) or ((cited.new_id,) if cited.new_id else ())
        assert place == followed[(version, cited.id)], (version, cited.id)


def test_regression_show_builds_one_lineage_for_renumbered_in_and_now(
    reader: CorpusReader, followed: Place
) -> None:
    """`show --version OLD` built two lineages: a json-only one for "renumbered in" and a
    second for "now". Both are read off the one lineage show is given; the json-only
    path, which cannot say "now", refuses an older version instead of leaving it out."""
    version, old = next((v, i) for (v, i), ids in sorted(followed.items()) if ids != (i,))
    lineages = lineages_of(StoredCorpus(reader.root))
    given: list[Lineages] = []

    def now_of(lineage: Lineages, *args: str) -> dict[str, Any] | None:
        given.append(lineage)
        return lives_now(lineage, *args)

    data = shown_json(lineages, old, DOC, version, now_of)
    assert given == [lineages]
    assert data["now"] is not None and data["now"] == reader.show(old, DOC, version).now
    with pytest.raises(UsageError, match="older version"):
        shown_json(Lineages(lineages.stored), old, DOC, version)
