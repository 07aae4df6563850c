"""Policy PDFs of titled sections (family `headed-sections`): NISEI's Organized Play
Policies 1.0 and 1.3 and LSS's Casual Procedure Guide, each section addressed by its own
heading. The headings are checked against the lines the PDF sets wholly in its bold
face, found here from the fonts themselves (pdfplumber), which the parser never reads."""

from __future__ import annotations

import re
from collections import defaultdict

import pdfplumber
import pytest

from pipeline.models.records import Document
from pipeline.parse.common import slugify
from pipeline.registry.loader import load_registry
from pipeline.runner.families import parse_bytes
from pipeline.runner.family_names import NAMES
from pipeline.runner.request import request_for
from tests.conftest import ParseReal
from tests.support.helpers import SHARED

OPP_10 = "netrunner/organized-play-policies/1.0/Organized_Play_Policies_1.0.pdf"
OPP_13 = "netrunner/organized-play-policies/1.3/Organized_Play_Policies.pdf"
CPG = "fab/casual-procedure-guide/2023-10-13/FaB_Casual_Procedure_Guide_2023-10-13.pdf"
DOCUMENTS = {OPP_10: "netrunner/opp", OPP_13: "netrunner/opp", CPG: "fab/cpg"}
GLYPHS = "●○■•"


def heavy_lines(path: str) -> list[str]:
    """Lines every glyph of which is in a bold face (`Arial-BoldMT`; LSS's `NimbusRomNo9L-Medi`,
    the Times-Bold of URW's fonts), starting at the left margin, that are not a list item
    or a lead-in ending with a colon: the publishers' headings, the title included."""
    found: list[str] = []
    with pdfplumber.open(SHARED / path) as pdf:
        for page in pdf.pages:
            rows: defaultdict[int, list[dict[str, object]]] = defaultdict(list)
            for char in page.chars:
                if str(char["text"]).strip():
                    rows[round(float(char["bottom"]))].append(char)
            for bottom in sorted(rows):
                chars = sorted(rows[bottom], key=lambda c: float(str(c["x0"])))
                text = "".join(str(c["text"]) for c in chars)
                heavy = all(re.search(r"Bold|-Medi", str(c["fontname"])) for c in chars)
                at_margin = float(str(chars[0]["x0"])) < 80
                if heavy and at_margin and text[0] not in GLYPHS and not text.endswith(":"):
                    found.append(text)
    return found


def squeezed(text: str) -> str:
    """pdfplumber's characters carry no spaces between words here: compare without them."""
    return re.sub(r"\W", "", text).lower()


@pytest.fixture(scope="module", params=[OPP_10, OPP_13, CPG], ids=["opp-1.0", "opp-1.3", "cpg"])
def parsed(request: pytest.FixtureRequest, parse_real: ParseReal) -> tuple[str, Document]:
    path = str(request.param)
    return path, parse_real(path, "headed-sections", document=DOCUMENTS[path])


def test_zero_warnings_and_statements_from_the_first_page(parsed: tuple[str, Document]) -> None:
    path, doc = parsed
    assert doc.warnings == []
    expected = {
        OPP_10: ("NISEI Organized Play Policies", "1.0", "2018-11"),  # "Revised November 2018"
        OPP_13: ("NISEI Organized Play Policies", "1.3", "2020-10"),  # "Revised October 2020."
        CPG: ("Flesh and Blood - Casual Procedure Guide", "2023-10-13", "2023-10-13"),
    }[path]
    assert (doc.title, doc.version, doc.published) == expected
    assert doc.parser.family == "headed-sections"
    assert [p.id for p in doc.front_matter] == ["preface"]


def test_sections_are_the_bold_headings_in_order(parsed: tuple[str, Document]) -> None:
    path, doc = parsed
    headings = heavy_lines(path)
    if path == CPG:  # the CPG's title is at the margin and in the bold face; NISEI's is centred
        assert squeezed(headings.pop(0)) == squeezed(doc.title or "")
    assert [squeezed(r.title or "") for r in doc.records] == [squeezed(h) for h in headings]
    assert len(doc.records) == {OPP_10: 37, OPP_13: 33, CPG: 12}[path]
    assert doc.counts["records"] == len(doc.records)


def test_ids_are_slugs_of_the_headings_and_depth_follows_rank(
    parsed: tuple[str, Document],
) -> None:
    _, doc = parsed
    by_id = {r.id: r for r in doc.records}
    assert len(by_id) == len(doc.records)
    for record in doc.records:
        assert record.id == f"sec:{slugify(record.title or '')}" == f"sec:{record.number}"
        assert not re.search(r"\d", record.number) or re.search(r"\d", record.title or "")
        parent = by_id.get(record.parent) if record.parent else None
        assert record.depth == (1 if parent is None else parent.depth + 1)
        assert record.references == []


def test_nisei_structure_and_text() -> None:
    doc = parse_file(OPP_13)
    by_id = {r.id: r for r in doc.records}
    top = [r.id for r in doc.records if r.parent is None]
    assert top[:3] == [
        "sec:player-expectations",
        "sec:tokens-dice",
        "sec:proxies-and-third-party-alternate-art-cards",
    ]
    assert len(top) == 15
    infractions = [r for r in doc.records if r.parent == "sec:infractions"]
    assert len(infractions) == 18 and infractions[0].id == "sec:missed-trigger"
    trigger = by_id["sec:missed-trigger"].text.split("\n")
    # `Resolution` and `Clarifications` are labels in regular weight: text, not sections
    assert trigger[1:3] == [
        "Resolution",
        "1. Warning. If it is still the same turn, the controlling player’s opponent decides "
        "if the ability resolves or not. If they choose to resolve the ability, it happens "
        "after the current click. If it is no longer the same turn, the ability does not "
        "resolve.",
    ]
    assert trigger[3] == "Clarifications" and trigger[4].startswith("● Players are not required")
    assert doc.extraction["page_numbers_dropped"] == 19
    assert "-3-" not in by_id["sec:note-taking"].text


def test_casual_procedure_guide_sections_and_lists() -> None:
    doc = parse_file(CPG)
    assert [r.id for r in doc.records if r.parent is None] == [
        "sec:gameplay-errors",
        "sec:tournament-errors",
        "sec:conduct-errors",
    ]
    late = next(r for r in doc.records if r.id == "sec:a-player-turns-up-late-for-a-round")
    assert (late.parent, late.depth, late.kind) == ("sec:tournament-errors", 2, "subsection")
    assert late.text.split("\n") == [
        "• Less than 10 minutes late: give the players that much extra time to complete "
        "their match.",
        "• 10 or more minutes late: issue them a match loss. If the player can’t be found for "
        "the entire round, drop them from the tournament so the situation doesn’t repeat in "
        "the next round.",
    ]
    assert doc.extraction["page_numbers_dropped"] == 2  # `i`, `ii`


def test_opp_1_0_formats_nest_three_deep() -> None:
    doc = parse_file(OPP_10)
    by_id = {r.id: r for r in doc.records}
    assert by_id["sec:snapshot"].parent == "sec:supported-formats"
    assert by_id["sec:snapshot-mwl-1-0"].parent == "sec:snapshot"
    assert by_id["sec:snapshot-mwl-1-0"].depth == 3
    # a centred table caption is text of its section, its rows one per line
    rows = by_id["sec:snapshot"].text.split("\n")
    assert rows[1:3] == ["Product Legality", "Legal: Not legal:"]
    assert "Flashpoint Cycle" in rows and "Red Sand Cycle" in rows


def parse_file(path: str) -> Document:
    """Through the registry entry, as import parses it."""
    source = next(s for s in load_registry(NAMES) if s.document == DOCUMENTS[path])
    assert source.family == "headed-sections" and source.options.get("archive_only")
    return parse_bytes((SHARED / path).read_bytes(), request_for(source, what=path))
