"""canonical_json writes models with orjson (store/canonical.py): the bytes must be exactly
those of the json module's `json.dumps(..., ensure_ascii=False, sort_keys=True, indent=2)`,
for real documents and diffs and for odd values (unicode, escapes, floats of every
size, NaN, huge integers, nested empties), and a value orjson would write otherwise
must take the json module's path."""

from __future__ import annotations

import json
from enum import Enum
from typing import Any, Literal

import pytest
from conftest import ParseReal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from pipeline.diff.documents import diff_documents
from pipeline.diff.models import DocumentDiff, RenumberingMap
from pipeline.models.records import Document
from pipeline.models.sources import FetchResult, Lock
from pipeline.store.canonical import canonical_json, may_hold_floats, model_json
from pipeline.store.corpus import Index

MTG = "mtg/comprehensive-rules/{0}/MagicCompRules {0}.txt"
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reference(value: BaseModel) -> bytes:
    """What canonical_json wrote before orjson: the json module's bytes."""
    data = value.model_dump(mode="json", by_alias=True)
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode()


def assert_same(value: BaseModel) -> None:
    try:
        expected = reference(value)
    except UnicodeEncodeError:  # a lone surrogate: both refuse it, the same way
        with pytest.raises(UnicodeEncodeError):
            canonical_json(value)
        assert model_json(value) is None
        return
    assert canonical_json(value) == expected
    fast = model_json(value)
    assert fast is None or fast == expected


class Anything(BaseModel):
    value: Any


class Floats(BaseModel):
    x: float
    xs: list[float]
    by_name: dict[str, float]


class Texts(BaseModel):
    s: str
    items: list[str]
    by_name: dict[str, str | None]
    n: int
    nested: list[list[dict[str, int]]]


# Every code point, surrogates and controls included, and the characters json escapes.
CHARS = st.characters(codec=None, categories=None) | st.sampled_from('"\\/\b\f\n\r\t\x00\x1f\x7f')
TEXT = st.text(CHARS, max_size=12)
FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0.0, -0.0, 1e-4, 9.999e-5, 1e-5, 1e-7, 5e-324, 1e15, 9999999999999998.0, 1e16, 1e300, 0.1]
)
INTS = st.integers() | st.sampled_from([2**63 - 1, 2**63, 2**64, -(2**63), -(2**63) - 1])
LEAVES = st.none() | st.booleans() | INTS | FLOATS | TEXT
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)


@SETTINGS
@given(VALUES)
def test_any_value_gives_the_json_modules_bytes(value: Any) -> None:
    assert_same(Anything(value=value))


@SETTINGS
@given(FLOATS, st.lists(FLOATS, max_size=5), st.dictionaries(TEXT, FLOATS, max_size=3))
def test_floats_of_every_size_give_the_json_modules_bytes(
    x: float, xs: list[float], by_name: dict[str, float]
) -> None:
    assert_same(Floats(x=x, xs=xs, by_name=by_name))


@SETTINGS
@given(
    TEXT,
    st.lists(TEXT, max_size=5),
    st.dictionaries(TEXT, st.none() | TEXT, max_size=5),
    INTS,
    st.lists(st.lists(st.dictionaries(TEXT, INTS, max_size=3), max_size=3), max_size=3),
)
def test_odd_strings_and_keys_give_the_json_modules_bytes(
    s: str,
    items: list[str],
    by_name: dict[str, str | None],
    n: int,
    nested: list[list[dict[str, int]]],
) -> None:
    assert_same(Texts(s=s, items=items, by_name=by_name, n=n, nested=nested))


@pytest.mark.parametrize(
    "x", [1e-5, 2.5e-5, 1e-7, 5e-324, 1e16, 1.5e300, float("nan"), float("inf"), -float("inf")]
)
def test_a_float_orjson_writes_otherwise_takes_the_json_modules_path(x: float) -> None:
    value = Floats(x=1.0, xs=[0.5, x], by_name={"a": 2.0})
    assert model_json(value) is None
    assert canonical_json(value) == reference(value)


def test_usual_floats_and_texts_take_the_fast_path() -> None:
    value = Floats(x=0.87, xs=[1e-4, 0.0, -0.0, 123.456], by_name={"1e5": 1.0, "x": 1e15})
    assert model_json(value) == reference(value)
    # Keys past the BMP sort by code point, as json sorts them (not by UTF-16 unit).
    keys = {"\uffff": "a", "\U0001d11e": "b", "\ue000": None, "z": ""}
    text = Texts(s='a "b" \\ \n\t\x00 é ✓ 𝄞', items=[], by_name=keys, n=2**63 - 1, nested=[[{}]])
    assert model_json(text) == reference(text)


def test_a_value_that_does_not_fit_its_field_takes_the_json_modules_path() -> None:
    # model_copy does not validate: the int field holds a float orjson would write apart.
    value = Texts(s="", items=[], by_name={}, n=1, nested=[]).model_copy(update={"n": 1e-7})
    assert model_json(value) is None
    with pytest.warns(UserWarning):
        assert canonical_json(value) == reference(value)


class Extra(BaseModel):
    model_config = ConfigDict(extra="allow")
    a: int


class Rate(Enum):
    HALF = 0.5


class WithEnum(BaseModel):
    rate: Rate


class WithLiteral(BaseModel):
    kind: Literal["a", 1]


def test_which_models_may_hold_floats() -> None:
    for floatless in (Document, Index, Lock, FetchResult, Texts, WithLiteral):
        assert not may_hold_floats(floatless), floatless
    for floating in (DocumentDiff, RenumberingMap, Floats, Anything, Extra, WithEnum):
        assert may_hold_floats(floating), floating
    extra = Extra(a=1, b=1e-5)  # type: ignore[call-arg]
    assert model_json(extra) is None
    assert canonical_json(extra) == reference(extra)


@pytest.fixture(scope="module")
def mtg_versions(parse_real: ParseReal) -> tuple[Document, Document]:
    old, new = (
        parse_real(MTG.format(version), "mtg-cr", document="mtg/cr")
        for version in ("20250725", "20251114")
    )
    return old, new


def test_real_documents_and_their_diff_take_the_fast_path(
    mtg_versions: tuple[Document, Document],
) -> None:
    old, new = mtg_versions
    diff = diff_documents(old, new)
    assert any(change.similarity for change in diff.changes)  # floats in the JSON
    for value in (old, new, diff):
        fast = model_json(value)
        assert fast is not None, type(value)
        assert fast == reference(value)
        assert canonical_json(value) == fast
