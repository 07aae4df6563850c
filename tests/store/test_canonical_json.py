"""canonical_json, the corpus's one serialisation: sorted keys at every level, a 2-space
indent, the text's own characters in UTF-8 and a final newline, so equal values are equal
bytes whatever order their fields were built in, and a real document reads back whole."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from pipeline.models.records import Document
from pipeline.store.canonical import canonical_json
from tests.conftest import ParseReal

MTG_TXT = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"


class Anything(BaseModel):
    value: Any


KEYS = st.text(max_size=6)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)


def test_the_layout_is_sorted_indented_utf8_with_a_final_newline() -> None:
    written = canonical_json({"b": 1, "a": {"d": "déjà «vu»", "c": []}})
    assert written == (
        b'{\n  "a": {\n    "c": [],\n    "d": "d\xc3\xa9j\xc3\xa0 \xc2\xabvu\xc2\xbb"\n  },\n'
        b'  "b": 1\n}\n'
    )


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=6))
def test_equal_values_are_equal_bytes_whatever_their_order(value: dict[str, Any]) -> None:
    backwards = dict(reversed(list(value.items())))
    written = canonical_json(Anything(value=value))
    assert written == canonical_json(Anything(value=backwards))
    assert json.loads(written) == {"value": value}
    assert written.endswith(b"\n") and not written.endswith(b"\n\n")


def test_a_real_document_reads_back_as_the_same_bytes(parse_real: ParseReal) -> None:
    doc = parse_real(MTG_TXT, "mtg-cr", document="mtg/cr")
    written = canonical_json(doc)
    assert len(doc.records) > 1000
    assert canonical_json(Document.model_validate_json(written)) == written
    assert list(json.loads(written)) == sorted(json.loads(written))
