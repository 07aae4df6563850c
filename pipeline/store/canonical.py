"""The corpus's one serialisation, `canonical_json`: what every stored version, diff,
index and cached parse is written as, so the same value is the same bytes on any machine.

`json.dumps(value, ensure_ascii=False, sort_keys=True, indent=2) + "\\n"` in UTF-8: keys
sorted at every level, so field order in a model never shows; text as the publisher's
characters, not escapes, so a stored version reads and diffs as text.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel


def canonical_json(value: BaseModel | dict[str, Any] | list[Any]) -> bytes:
    """The one serialisation of the corpus: sorted keys, 2-space indent, UTF-8, final newline."""
    data = value.model_dump(mode="json", by_alias=True) if isinstance(value, BaseModel) else value
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode("utf-8")
