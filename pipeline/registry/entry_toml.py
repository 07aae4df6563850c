"""A registry entry written as TOML, as `sources.toml` holds it: the `[[source]]` table, then
its `[source.scheme]` with one inline table per level.

Deterministic: keys in the model's order, values in TOML's basic forms, so the
same entry is the same bytes. `load_registry` reads it back to the same
Source (tests check that round trip).
"""

from __future__ import annotations

import json
from typing import Any

from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.models.sources import Source

# Written whatever their value: what inference decides, so the reader sees each decision.
SCHEME_KEYS = (
    "prefix", "title", "statements", "date_is", "example", "note", "bullets", "keywords",
    "brackets", "wraps", "ends",
)  # fmt: skip
LEVEL_KEYS = ("kind", "segment", "width", "join", "printed", "dot", "title")


def toml_value(value: Any) -> str:
    """A TOML value: a basic string (JSON's escapes are TOML's), a number, a boolean, an
    array or an inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def level_table(level: LevelScheme) -> str:
    fields = level.model_dump(mode="json")
    return toml_value({k: fields[k] for k in LEVEL_KEYS if fields[k] is not None})


def scheme_lines(scheme: NumberedScheme) -> list[str]:
    fields = scheme.model_dump(mode="json", exclude={"levels"})
    changed = scheme.model_dump(mode="json", exclude={"levels"}, exclude_defaults=True)
    keys = [k for k in fields if k in SCHEME_KEYS or k in changed]
    lines = [f"{k} = {toml_value(fields[k])}" for k in keys if fields[k] is not None]
    lines.append("levels = [")
    lines.extend(f"  {level_table(level)}," for level in scheme.levels)
    lines.append("]")
    return lines


def entry_toml(source: Source, comments: list[str] | None = None) -> str:
    """The entry as a `[[source]]` table (after `comments`, each a `#` line) with its
    `[source.scheme]`."""
    fields = source.model_dump(mode="json", exclude={"scheme"}, exclude_defaults=True)
    for key in ("id", "game", "document", "title", "family", "rendition"):
        fields.setdefault(key, getattr(source, key))
    lines = [f"# {c}" if c else "#" for c in comments or []]
    lines.append("[[source]]")
    lines.extend(f"{k} = {toml_value(v)}" for k, v in fields.items())
    if source.scheme is not None:
        lines += ["", "[source.scheme]", *scheme_lines(source.scheme)]
    return "\n".join(lines) + "\n"
