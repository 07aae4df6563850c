"""The numbered games' packaged entries (Gundam, Digimon, Force of Will), and any ready
entry in examples/registries/, each parse their real document with nothing misread."""

from __future__ import annotations

import pytest

from pipeline.registry.loader import load_registry
from tests.support.helpers import EXAMPLE_REGISTRIES, NUMBERED_GAMES, parse_example


def test_the_numbered_games_are_packaged() -> None:
    packaged = {s.id: s for s in load_registry()}
    for source_id in NUMBERED_GAMES.values():
        assert packaged[source_id].manifest is not None  # `make run` stores it from an archive


@pytest.mark.parametrize("name", sorted(NUMBERED_GAMES))
def test_a_packaged_numbered_entry_parses_its_document(name: str) -> None:
    doc, _ = parse_example(name)
    assert doc.records and doc.version and doc.published
    assert doc.warnings == []
    assert doc.counts["contents_entries"] > 0


def test_every_example_entry_parses_its_document() -> None:
    for path in sorted(EXAMPLE_REGISTRIES.glob("*.toml")):
        doc, _ = parse_example(path.stem)
        assert doc.records and doc.warnings == [], path.name
