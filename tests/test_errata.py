"""Every reviewed publisher defect in parse/errata.py still occurs in a real document, and its
target is really absent there: an entry the publisher fixed, or one that hides a parser bug,
fails here."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import SHARED

from pipeline.extract.text import extract_text_lines
from pipeline.models import Document, Line
from pipeline.parse.errata import KNOWN_DANGLING
from pipeline.parse.fab import cr as fab
from pipeline.parse.mtg import cr as mtg

FAB = SHARED / "fab/comprehensive-rules/2.14.0/en-fab-cr.txt"
MTG = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"


@pytest.mark.parametrize(
    ("document", "path", "parse"),
    [
        ("fab/cr", FAB, lambda lines: fab.parse(lines, rendition="txt", version="2.14.0")),
        ("mtg/cr", MTG, lambda lines: mtg.parse(lines, rendition="txt")),
    ],
)
def test_listed_defects_occur_and_their_targets_are_absent(
    document: str, path: Path, parse: Callable[[list[Line]], Document]
) -> None:
    data = path.read_bytes()
    doc = parse(extract_text_lines(data))
    listed = set(KNOWN_DANGLING[document])
    assert {(e.record, e.cites) for e in doc.publisher_errata} == listed
    assert doc.warnings == []
    text = extract_text_lines(data)
    number = re.compile(r"^(\d+(?:\.\d+)*[a-z]?)\.? ")
    numbers = {m.group(1) for line in text if (m := number.match(line.text))}
    for _record, cited in listed:
        assert cited.removeprefix("cr:") not in numbers, cited
