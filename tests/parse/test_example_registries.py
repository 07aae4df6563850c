"""Every ready registry entry in examples/registries/ loads and parses its real document
with nothing misread, and names a document the shared sources hold."""

from __future__ import annotations

import pytest
from helpers import EXAMPLE_REGISTRIES, parse_example

NAMES = sorted(path.stem for path in EXAMPLE_REGISTRIES.glob("*.toml"))


def test_the_examples_are_there() -> None:
    assert {"digimon", "fow", "gundam"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_an_example_entry_parses_its_document(name: str) -> None:
    doc, _ = parse_example(name)
    assert doc.records and doc.version and doc.published
    assert doc.warnings == []
    assert doc.counts["contents_entries"] > 0
