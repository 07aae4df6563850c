"""The slug of a glossary term, its citation id after `glossary:`. One rule for the parsers
that make the ids and the readers that find a term as a person writes it."""

from __future__ import annotations

import re
import unicodedata


def slugify(text: str) -> str:
    """Stable ASCII slug for glossary ids: 'Ability Keyword' -> 'ability-keyword'."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", norm.lower()).strip("-")
    return slug or "term"
