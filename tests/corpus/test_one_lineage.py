"""Every answer that crosses versions agrees, on every rule of every stored version of a
real archive (Magic's text exports since 2009): `follow`, the `renumbering` map, the
site's old-number pages, `history` and `show`'s "now" say the same place for a rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.corpus import open_corpus
from pipeline.corpus.lookup import shown_json
from pipeline.corpus.reader import CorpusReader
from pipeline.diff.renumbering import lookup
from pipeline.site.lineage import read_lineage

DOC = "mtg/cr"


@pytest.fixture(scope="module")
def reader(small_corpus: Path) -> CorpusReader:
    return open_corpus(small_corpus)


def now_of_map(reader: CorpusReader, version: str) -> dict[str, tuple[str, ...]]:
    """Every rule of `version` -> its ids in the current version, as the renumbering map
    (the `renumbering` command's and cite-check's answer) says."""
    rmap = reader.renumbering(DOC, version)
    out: dict[str, tuple[str, ...]] = {}
    for rule in reader.records(DOC, version):
        found = lookup(rmap, rule.id)
        entry = found.entry
        if entry is not None and entry.new_ids:
            out[rule.id] = tuple(entry.new_ids)
        else:
            out[rule.id] = (found.new_id,) if found.new_id else ()
    return out


def test_follow_the_map_and_the_site_agree_on_every_rule_of_every_version(
    reader: CorpusReader,
) -> None:
    versions = reader.stored.published(DOC)
    assert len(versions) >= 5
    site = read_lineage(reader, DOC)
    old_pages = {(o.version, o.rule.id): o.now for o in site.old_numbers}
    checked = 0
    for version in versions[:-1]:
        by_map = now_of_map(reader, version)
        for rule in reader.records(DOC, version):
            followed = reader.follow(DOC, rule.id, since=version)
            assert followed.citations == by_map[rule.id], (version, rule.id)
            if (version, rule.id) in old_pages:  # the site's page for an old number
                assert old_pages[(version, rule.id)] == followed.citation, (version, rule.id)
            else:  # no page of its own: the same rule stands at the same number now
                assert followed.citation == rule.id, (version, rule.id)
            checked += 1
    assert checked > 10_000


def test_history_and_follow_agree_on_every_current_rule(reader: CorpusReader) -> None:
    versions = reader.stored.published(DOC)
    current = versions[-1]
    for rule in reader.records(DOC, current):
        for step in reader.history(DOC, rule.id):
            if step.citation is None or step.version == current:
                continue
            # the id history names in an older version leads, followed, to this rule
            followed = reader.follow(DOC, step.citation, since=step.version)
            assert rule.id in followed.citations, (rule.id, step.version, step.citation)


def test_show_says_where_a_renumbered_rule_lives_now_as_follow_does(
    reader: CorpusReader,
) -> None:
    versions = reader.stored.published(DOC)
    shown = 0
    for version in versions[:-1]:
        by_map = now_of_map(reader, version)
        moved = [old for old, now in by_map.items() if now != (old,)]
        assert moved, version
        for old in moved[:: max(1, len(moved) // 5)]:  # each costs a composed map
            now = shown_json(reader.stored, old, DOC, version)["now"]
            ids = tuple(now["ids"] or ([now["id"]] if now["id"] else []))
            assert ids == reader.follow(DOC, old, since=version).citations, (version, old)
            shown += 1
    assert shown >= 5 * (len(versions) - 1)
