"""fab-policy: the real Tournament Rules and Policy and Procedure and Penalty Guide text exports."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from pipeline.errors import ParseError
from pipeline.extract.text import extract_text_lines
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.fab import policy as fab_policy
from tests.support.helpers import SHARED

SOURCES = SHARED / "fab"
TRP = SOURCES / "tournament-rules-and-policy" / "2026-06-10" / "en-fab-trp.txt"
PPG = SOURCES / "procedure-and-penalty-guide" / "2026-06-10" / "en-fab-ppg.txt"


@functools.cache
def parsed(path: Path, document: str) -> Document:
    return fab_policy.parse(
        extract_text_lines(path.read_bytes()), {}, ParseOptions(document, "txt", "2026-06-10")
    )


def grep_headings(path: Path) -> dict[str, list[str]]:
    """An independent count: sections, subsections and appendix sections by plain regex,
    chapters as the distinct first numbers of sections."""
    text = path.read_text(encoding="utf-8")
    sections = re.findall(r"(?m)^(\d+\.\d+) ", text)
    return {
        "chapter": sorted({s.split(".")[0] for s in sections}, key=int),
        "section": sections,
        "subsection": re.findall(r"(?m)^(\d+\.\d+\.\d+) ", text),
        "appendix-section": re.findall(r"(?m)^([A-Z]\.\d+) ", text),
    }


@pytest.mark.parametrize(
    ("path", "document", "prefix"), [(TRP, "fab/trp", "trp"), (PPG, "fab/ppg", "ppg")]
)
def test_headings_match_an_independent_count(path: Path, document: str, prefix: str) -> None:
    doc = parsed(path, document)
    expected = grep_headings(path)
    for kind, numbers in expected.items():
        assert [r.id for r in doc.records if r.kind == kind] == [f"{prefix}:{n}" for n in numbers]
    assert doc.warnings == []
    assert doc.counts["records"] == sum(len(v) for v in expected.values())
    assert (doc.game, doc.document, doc.parser.family, doc.version) == (
        "fab",
        document,
        "fab-policy",
        "2026-06-10",
    )


def test_trp_counts_and_verbatim_text() -> None:
    doc = parsed(TRP, "fab/trp")
    assert doc.counts == {
        "chapters": 9,
        "sections": 70,
        "subsections": 7,
        "appendix-sections": 7,
        "records": 93,
        "glossary": 0,
        "examples": 0,
    }
    records = {r.id: r for r in doc.records}
    lines = TRP.read_text(encoding="utf-8").split("\n")
    assert records["trp:1.1"].title == "Event and Tournament Types"
    assert records["trp:1.1"].text == "\n".join(lines[2:4])
    assert records["trp:1.1"].parent == "trp:1" and records["trp:8.1.1"].parent == "trp:8.1"
    # Table cells that look like headings ("9 -- 16", "55 minutes") stay text.
    assert "9 -- 16" in records["trp:A.2"].text.split("\n")
    assert "trp:1.3" in records and records["trp:1.3"].references[:2] == ["trp:7.1", "trp:7.2"]
    assert "trp:A.7" in records["trp:1.3"].references or any(
        "trp:A.7" in r.references for r in doc.records
    )


def test_ppg_counts_and_citations_of_the_trp() -> None:
    doc = parsed(PPG, "fab/ppg")
    assert doc.counts == {
        "chapters": 4,
        "sections": 31,
        "subsections": 4,
        "appendix-sections": 1,
        "records": 40,
        "glossary": 0,
        "examples": 0,
    }
    trp_ids = {r.id for r in parsed(TRP, "fab/trp").records}
    ppg_ids = {r.id for r in doc.records}
    cited = [ref for r in doc.records for ref in r.references]
    assert "trp:6.2" in cited  # the PPG has no chapter 6: [6.2] is the TRP's Cheating section
    assert all(ref in trp_ids if ref.startswith("trp:") else ref in ppg_ids for ref in cited)


def test_version_missing_and_wrong_input() -> None:
    doc = fab_policy.parse(extract_text_lines(PPG.read_bytes()), {}, ParseOptions("fab/ppg", "txt"))
    assert [w.code for w in doc.warnings] == ["no-version"] and doc.version is None
    with pytest.raises(ParseError, match="no chapter heading"):
        fab_policy.parse(extract_text_lines(b"just text\n"), {}, ParseOptions("fab/trp", "txt"))
