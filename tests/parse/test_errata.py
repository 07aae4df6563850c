"""Every reviewed publisher defect in parse/errata.py still occurs in the real document of each
version it was reviewed for, and its target is really absent there: an entry the publisher
fixed, or one that hides a parser bug, fails here. An entry holds in the very text it was
reviewed in, in any version, and in no other text."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.extract.text import extract_text_lines
from pipeline.models.content import Line
from pipeline.models.records import Document, ParseOptions, text_digest
from pipeline.parse.errata import REVIEWED, REVIEWED_TEXTS, known_dangling
from pipeline.parse.fab import cr as fab
from pipeline.parse.mtg import cr as mtg
from tests.support.helpers import SHARED

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


def test_a_review_holds_in_the_text_it_was_made_in_and_no_other() -> None:
    (record, cited), reason = next(iter(REVIEWED[("fab/cr", "2.14.0")].items()))
    (digest,) = REVIEWED_TEXTS[("fab/cr", record, "text")]
    assert known_dangling("fab/cr", record, "text", cited, digest) == reason
    # the publisher rewords the rule: the review lapses (the citation is a note again)
    assert known_dangling("fab/cr", record, "text", cited, text_digest("Reworded.")) is None
    # another document's record of the same id is not the one reviewed
    assert known_dangling("mtg/cr", record, "text", cited, digest) is None
