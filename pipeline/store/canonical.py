"""The corpus's one serialisation, `canonical_json`, and the
orjson writer of a model's, byte for byte what the json module writes.

The serialisation is
`json.dumps(value, ensure_ascii=False, sort_keys=True, indent=2) + "\\n"` in UTF-8.
With an indent the json module encodes in pure Python: 60 ms for the MTG CR, on
every parse, import and reproduction check. orjson writes the same bytes (the same
separators, escapes, key order and empty containers) in 2 ms, except for values it
writes otherwise, for which `model_json` gives up (None) and the json module writes:

- floats below 1e-4 or from 1e16 (json `1e-05`, orjson `0.00001`; exponents are
  written apart), and NaN and infinities (json `NaN`, orjson `null`). A model
  whose schema has no float (`may_hold_floats`; the Document has none) cannot
  hold one; in any other, they are looked for in a compact encoding by
  pydantic-core, which writes non-finite floats as json does;
- what orjson refuses: integers past 64 bits, lone surrogates (json's bytes would
  not encode either).

Only models come here: their JSON-mode dump holds plain dicts with string keys,
lists, strings, numbers, booleans and None (a value that does not fit its field is
an error here, and the json module's path then dumps it as before), where orjson
and json agree; a plain dict may hold a UUID or an enum that json refuses and
orjson would write. tests/test_canonical_json.py holds the two to the same bytes.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import orjson
import pydantic_core
from pydantic import BaseModel

_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE
# Core-schema nodes that never give a float in a JSON-mode dump (an enum or literal
# only with string or integer values). Anything else, a custom serializer included,
# may.
_FLOATLESS = frozenset(
    {
        "definitions",
        "definition-ref",
        "model",
        "model-fields",
        "model-field",
        "computed-field",
        "default",
        "nullable",
        "union",
        "tagged-union",
        "list",
        "tuple",
        "set",
        "frozenset",
        "dict",
        "str",
        "int",
        "bool",
        "none",
        "literal",
        "enum",
    }
)
# A number in compact JSON follows a key's `":`, a `[` or a `,`: one with an exponent,
# starting 0.0000 or of 17 digits or more is written apart by the two, and so are the
# non-finite ones. A string that merely looks so costs the json module's path.
_UNLIKE_NUMBER = re.compile(rb'(?:":|[,\[])-?(?:[0-9.]+[eE]|0\.0000|[0-9]{17}|Infinity|NaN)')


@cache
def may_hold_floats(model: type[BaseModel]) -> bool:
    """Whether a JSON-mode dump of `model` may hold a float: its core schema has a node
    not known to be floatless, or lets a model keep extra fields."""
    return _may_hold_floats(model.__pydantic_core_schema__)


def _may_hold_floats(node: Any) -> bool:
    if isinstance(node, list | tuple):
        return any(_may_hold_floats(item) for item in node)
    if not isinstance(node, dict):
        return False
    kind = node.get("type")
    if isinstance(kind, str):
        if kind not in _FLOATLESS:
            return True
        if kind == "enum" and node.get("sub_type") not in ("str", "int"):
            return True
        if kind == "literal" and not all(
            isinstance(value, str | int) for value in node.get("expected", [])
        ):
            return True
    if "allow" in (node.get("extra_behavior"), node.get("extra_fields_behavior")):
        return True
    return any(_may_hold_floats(value) for value in node.values())


def model_json(value: BaseModel) -> bytes | None:
    """`value` as canonical JSON, or None when orjson would not write what json writes."""
    try:
        data = value.model_dump(mode="json", by_alias=True, warnings="error")
        out = orjson.dumps(data, option=_OPTIONS)
    except (TypeError, ValueError):  # orjson.JSONEncodeError, PydanticSerializationError
        return None
    if may_hold_floats(type(value)) and _UNLIKE_NUMBER.search(
        pydantic_core.to_json(data, inf_nan_mode="constants")
    ):
        return None
    return out


def canonical_json(value: BaseModel | dict[str, Any] | list[Any]) -> bytes:
    """The one serialisation of the corpus: sorted keys, 2-space indent, UTF-8, final newline.

    A model is written by orjson when it gives the same bytes (`model_json`, 30 times
    faster), by the json module otherwise and for plain dicts and lists."""
    fast = model_json(value) if isinstance(value, BaseModel) else None
    if fast is not None:
        return fast
    data = value.model_dump(mode="json", by_alias=True) if isinstance(value, BaseModel) else value
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode("utf-8")
