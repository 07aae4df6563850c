"""Every reviewed publisher defect in parse/errata.py still occurs in the real document of each
version it was reviewed for, and its target is really absent there: an entry the publisher
fixed, or one that hides a parser bug, fails here. No entry applies to any other version."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import SHARED

from pipeline.extract.text import extract_text_lines
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.errata import REVIEWED, known_dangling
from pipeline.parse.fab import cr as fab
from pipeline.parse.mtg import cr as mtg

FAB = SHARED / "fab/comprehensive-rules/2.14.0/en-fab-cr.txt"
MTG = SHARED / "mtg/comprehensive-rules"
Parser = Callable[[list[Line]], Document]


def _fab(lines: list[Line]) -> Document:
    return fab.parse(lines, {}, ParseOptions("fab/cr", "txt", "2.14.0"))


def _mtg(lines: list[Line]) -> Document:
    return mtg.parse(lines, {}, ParseOptions("mtg/cr", "txt"))


TEXT_VERSIONS: list[tuple[str, str, Path, Parser]] = [("fab/cr", "2.14.0", FAB, _fab)] + [
    ("mtg/cr", version, next((MTG / version.replace("-", "")).glob("*.txt")), _mtg)
    for document, version in REVIEWED
    if document == "mtg/cr"
]


@pytest.mark.parametrize(("document", "version", "path", "parse"), TEXT_VERSIONS)
def test_listed_defects_occur_and_their_targets_are_absent(
    document: str, version: str, path: Path, parse: Parser
) -> None:
    lines = extract_text_lines(path.read_bytes())
    doc = parse(lines)
    assert doc.version == version
    listed = set(REVIEWED[(document, version)])
    assert {(e.record, e.cites) for e in doc.publisher_errata} == listed
    assert doc.warnings == []
    number = re.compile(r"^(\d+(?:\.\d+)*[a-z]?)\.? ")
    numbers = {m.group(1) for line in lines if (m := number.match(line.text))}
    for _record, cited in listed:
        assert cited.removeprefix("cr:") not in numbers, cited


def test_every_reviewed_version_is_checked_here_or_in_its_family_test() -> None:
    checked = {(d, v) for d, v, _, _ in TEXT_VERSIONS} | {("netrunner/cr", "1.4")}  # test_netrunner
    assert set(REVIEWED) == checked


def test_errata_apply_to_no_other_version() -> None:
    (record, cited), reason = next(iter(REVIEWED[("fab/cr", "2.14.0")].items()))
    assert known_dangling("fab/cr", "2.14.0", record, cited) == reason
    assert known_dangling("fab/cr", "2.15.0", record, cited) is None
    assert known_dangling("fab/cr", None, record, cited) is None
    # The MTG Map slip was reviewed from 2024-06-07 on; an earlier version has none listed.
    assert known_dangling("mtg/cr", "2023-04-14", "glossary:map", "cr:110.10") is None
