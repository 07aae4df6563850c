"""Riftbound Tournament Rules (2026-07-16 text extraction) as `riftbound/tr`: the Core
Rules' numbering scheme and family, ids `tr:` from the registry's `prefix` option,
every numbered entry checked against a count of the raw text made here."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pipeline.models.records import Document
from pipeline.registry.loader import load_registry
from pipeline.runner.families import parse_bytes
from pipeline.runner.family_names import NAMES
from pipeline.runner.request import ParseRequest, request_for
from tests.conftest import ParseReal
from tests.support.helpers import SHARED

TXT = "riftbound/tournament-rules/2026-07-16/Tournament-Rules-2026-07-16.txt"
KINDS = ["rule", "subrule", "clause", "subclause", "item", "subitem", "point"]


@pytest.fixture(scope="module")
def doc(parse_real: ParseReal) -> Document:
    return parse_real(TXT, "riftbound-cr", document="riftbound/tr", prefix="tr")


def raw_numbers() -> list[str]:
    """The numbers that open a line of the raw bytes: `204.3.d.` followed by a space.
    A line opening with a range (`505.4-505.8 but ...`, a wrap) does not count."""
    text = (SHARED / TXT).read_bytes().decode("utf-8")
    found = re.findall(r"^(\d{3}(?:\.(?:\d+|[a-z]))*)\.(?=\s)", text, re.M)
    return list(found)


def test_zero_warnings_and_the_stated_date(doc: Document) -> None:
    assert doc.warnings == []
    assert doc.title == "Riftbound Tournament Rules"
    assert (doc.version, doc.published) == ("2026-07-16", "2026-07-16")  # Last Updated 7/16/2026
    assert doc.parser.family == "riftbound-cr"


def test_every_numbered_entry_is_a_record_in_order(doc: Document) -> None:
    numbers = raw_numbers()
    assert len(numbers) == 935
    assert [r.number for r in doc.records] == numbers
    by_depth = Counter(len(n.split(".")) for n in numbers)
    assert max(by_depth) == 7  # seven levels: 602.4.b.2.a.1.a
    assert by_depth == Counter({3: 307, 2: 276, 4: 214, 1: 68, 5: 57, 6: 12, 7: 1})
    for depth, kind in enumerate(KINDS, start=1):
        assert doc.counts[f"{kind}s"] == by_depth[depth]
    assert doc.counts["records"] == 935


def test_ids_depth_parent_and_references(doc: Document) -> None:
    ids = {r.id for r in doc.records}
    for record in doc.records:
        parts = record.number.split(".")
        assert record.id == f"tr:{record.number}"
        assert record.depth == len(parts)
        assert record.kind == KINDS[len(parts) - 1]
        assert record.parent == (f"tr:{'.'.join(parts[:-1])}" if len(parts) > 1 else None)
    by_id = {r.id: r for r in doc.records}
    assert by_id["tr:204.3.d"].text == (
        "Staffing the event with the necessary tournament officials and support."
    )
    assert by_id["tr:204.3.d"].parent == "tr:204.3"
    assert by_id["tr:103.2"].references == ["tr:204.8"]  # "See 204.8 for more information"
    assert by_id["tr:103.3"].references == ["tr:205"]
    cited = [ref for r in doc.records for ref in r.references]
    assert cited and all(ref in ids for ref in cited)
    deepest = next(r for r in doc.records if r.depth == 7)
    assert deepest.parent in ids and deepest.kind == "point"
    # `(Example: …)` in parentheses is part of its sentence, like `(Example card: …)`: it
    # stays in the text (the engine once split it into `… chain. (` and `Overzealous Fan)`)
    fan = by_id["tr:506.3.e.9"]
    assert fan.text.endswith("on the chain. (Example: Overzealous Fan)") and fan.examples == []
    assert by_id["tr:506.3.e.1"].text.endswith("(Example card: Ahri, Alluring)")


def test_the_registry_entry_parses_it_through_the_riftbound_family() -> None:
    """The registry source is the Core Rules' family with `prefix = "tr"`: no code of its own."""
    source = next(s for s in load_registry(NAMES) if s.document == "riftbound/tr")
    assert (source.family, source.options.get("prefix")) == ("riftbound-cr", "tr")
    assert source.manifest is not None and source.manifest.document == "tournament-rules"
    data = (SHARED / TXT).read_bytes()
    doc = parse_bytes(data, request_for(source, what=TXT))
    assert doc.warnings == [] and len(doc.records) == 935
    assert doc.records[0].id == "tr:000"
    # the same bytes without the option: the Core Rules' own prefix
    plain = parse_bytes(data, ParseRequest("riftbound-cr", "riftbound/tr", "txt", what=TXT))
    assert plain.records[0].id == "cr:000"
