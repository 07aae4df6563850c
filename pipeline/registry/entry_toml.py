"""A registry entry written as TOML, as `sources.toml` holds it: the `[[source]]` table, its
`[source.manifest]` and `[source.options]`, then its `[source.scheme]` with one inline table
per level.

Written by tomli-w, so every value is quoted and escaped as TOML reads it back; comments
(what was inferred, what a person should check) stand above the table, each made one line
by the terminal escape, so no text of a file (its name, its lines) can end a comment and
become a key. Deterministic: keys in the model's order, so the same entry is the same bytes.
`load_registry` reads it back to the same Source (tests check that round trip).
"""

from __future__ import annotations

from typing import Any

import tomli_w

from pipeline.errors import shorten
from pipeline.models.scheme import NumberedScheme
from pipeline.models.sources import Source

# Written whatever their value: what inference decides, so the reader sees each decision.
SCHEME_KEYS = (
    "prefix", "title", "statements", "date_is", "example", "note", "bullets", "keywords",
    "brackets", "wraps", "ends",
)  # fmt: skip
LEVEL_KEYS = ("kind", "segment", "width", "join", "printed", "dot", "title")
COMMENT_WIDTH = 300  # characters of one comment line before its middle is left out


def comment_lines(comments: list[str]) -> list[str]:
    """Each comment as `# text`: control characters (a line feed above all) made visible."""
    return [f"# {shorten(c, COMMENT_WIDTH, one_line=True)}" if c else "#" for c in comments]


def scheme_table(scheme: NumberedScheme) -> dict[str, Any]:
    fields = scheme.model_dump(mode="json", exclude={"levels"})
    changed = scheme.model_dump(mode="json", exclude={"levels"}, exclude_defaults=True)
    table = {
        k: fields[k] for k in fields if (k in SCHEME_KEYS or k in changed) and fields[k] is not None
    }
    levels = [level.model_dump(mode="json") for level in scheme.levels]
    table["levels"] = [{k: lv[k] for k in LEVEL_KEYS if lv[k] is not None} for lv in levels]
    return table


def entry_toml(
    source: Source,
    comments: list[str] | None = None,
    before: dict[str, list[str]] | None = None,
) -> str:
    """The entry as a `[[source]]` table (after `comments`, each a `#` line) with its
    `[source.scheme]`; `before` puts comment lines above the first line of a key."""
    fields = source.model_dump(mode="json", exclude={"scheme"}, exclude_defaults=True)
    for key in ("id", "game", "document", "title", "family", "rendition"):
        fields.setdefault(key, getattr(source, key))
    if source.scheme is not None:
        fields["scheme"] = scheme_table(source.scheme)
    body = tomli_w.dumps({"source": [fields]}).split("\n")
    for key, notes in (before or {}).items():
        at = next(i for i, line in enumerate(body) if line.startswith(f"{key} = "))
        body[at:at] = comment_lines(notes)
    lines = comment_lines(comments or [])
    return "\n".join(lines) + ("\n" if lines else "") + "\n".join(body)
