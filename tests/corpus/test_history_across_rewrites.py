"""History and show across releases years apart and sections rewritten: the MTG archive's
2003, 2006 and 2009 exports and two 2022-2023 releases, imported from ../shared/sources.

A rule reworded in place is the same rule in every version; a rule added between two
stored versions years apart was added somewhere between them; a rule renumbered and
reworded says both; an old number shown on the current version says when it moved."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.corpus import CorpusReader, open_corpus
from pipeline.lookup.lineage import label_of, step_of_map
from tests.support.mtg_sources import MTG
from tests.support.real_corpus import import_real

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

VERSIONS = ("20030315", "20061001", "20090201", "20221118", "20230414")


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> CorpusReader:
    wanted = {MTG.format(v) for v in VERSIONS}
    root: Path = import_real(
        tmp_path_factory.mktemp("rewrites"), lambda e: e["path"] in wanted, parse_cache_dir
    )
    return open_corpus(root)


def test_history_of_100_1_holds_the_rule_in_every_version(reader: CorpusReader) -> None:
    # "These Magic rules assume a game between two players." (2003) became "These Magic
    # rules apply to any Magic game with two or more players" (2006): one rule, reworded.
    steps = reader.history("mtg/cr", "cr:100.1")
    assert [s.citation for s in steps] == ["cr:100.1"] * len(VERSIONS)
    assert steps[1].change == "reworded"
    assert steps[0].text is not None and steps[0].text.startswith("These Magic rules assume")


def test_a_rule_added_between_releases_years_apart_says_between(reader: CorpusReader) -> None:
    versions = reader.stored.published("mtg/cr")
    older, newer = versions[2], versions[3]  # 2009 and 2022: thirteen years apart
    added = reader.renumbering("mtg/cr", older, newer).added
    assert added
    steps = {s.version: s for s in reader.history("mtg/cr", added[0])}
    assert steps[newer].change == f"added between {older} and {newer}"
    assert steps[older].citation is None


def test_a_rule_added_between_close_releases_says_added(reader: CorpusReader) -> None:
    versions = reader.stored.published("mtg/cr")
    older, newer = versions[3], versions[4]  # five months apart
    rmap = reader.renumbering("mtg/cr", older, newer)
    gone = {e.old_id for e in rmap.entries}
    fresh = next(a for a in rmap.added if a not in gone)
    steps = {s.version: s for s in reader.history("mtg/cr", fresh)}
    assert steps[newer].change == "added"


def test_history_says_renumbered_and_reworded_when_both(reader: CorpusReader) -> None:
    versions = reader.stored.published("mtg/cr")
    older, newer = versions[3], versions[4]
    rmap = reader.renumbering("mtg/cr", older, newer)
    entry = next(
        e
        for e in rmap.entries
        if e.cls == "renumbered" and e.text_change == "reworded" and e.new_id != e.old_id
    )
    assert entry.new_id is not None
    steps = {s.version: s for s in reader.history("mtg/cr", entry.new_id)}
    assert steps[newer].change == "renumbered and reworded"
    label = label_of(step_of_map(rmap.model_dump(by_alias=True)), entry.old_id, entry.new_id)
    assert label == "renumbered and reworded"


def test_show_of_an_old_number_says_the_version_it_moved_in(reader: CorpusReader) -> None:
    versions = reader.stored.published("mtg/cr")
    current = versions[-1]
    aliases = reader.aliases("mtg/cr", current)
    # An id renumbered in the 2022 -> 2023 release, which the current version no longer has.
    rmap = reader.renumbering("mtg/cr", versions[3], current)
    ids_now = {r.id for r in reader.records("mtg/cr", current)}
    old_id = next(
        e.old_id
        for e in rmap.entries
        if e.cls == "renumbered" and e.old_id not in ids_now and e.old_id in aliases
    )
    shown = reader.show(old_id, "mtg/cr")
    assert shown.renumbered_from == old_id
    assert shown.data["renumbered_in"] == current
    # ... and one renumbered in an earlier release says that release, not the current one.
    earlier = reader.renumbering("mtg/cr", versions[2], versions[3])
    moved_then = [
        e.old_id
        for e in earlier.entries
        if e.cls == "renumbered"
        and e.old_id not in ids_now
        and e.old_id in aliases
        and e.old_id not in {x.old_id for x in rmap.entries}
    ]
    assert moved_then
    assert reader.show(moved_then[0], "mtg/cr").data["renumbered_in"] == versions[3]
