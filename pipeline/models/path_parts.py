"""Which names may become part of a corpus path: document ids, source ids, versions and
citation prefixes come from the registry or from a document's own text, and each ends up
in a file name (`<game>/<doc>/<version>.<h>.json`, `fetch/<source>.<h>.json`) or in a
citation (`cr:702.19c`). One safe character set for all of them, so `../` or a separator
read from a document can never name a file outside the corpus.

Pure: the registry loader checks entries with it at load, the parsers before they take a
stated version, and the store's layout before it names a file.
"""

from __future__ import annotations

import re

MAX_PART = 64
# A word character or digit first (never a dot: no hidden files, no `..`), then letters,
# digits and the punctuation versions use (2.10.1, 2025-11-14, 2.10.1-prototype, 1.0+b).
_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
# A citation prefix is a word: `cr:702.19c` splits at the colon, a prefix holding one (or a
# slash) would make the citation read as another.
_PREFIX = re.compile(r"[a-z][a-z0-9_-]*")
MAX_PREFIX = 24
# Names a corpus folder (index.json, lock.json, fetch/, staged/) and a site's folder
# (index.html, search/, assets/, pagefind/) hold at their top, where each game gets a
# folder of its own: a game of one of these names would be laid over them.
RESERVED_GAMES = frozenset(
    {"index.json", "lock.json", "fetch", "staged", "index.html", "search", "assets", "pagefind"}
)


def part_problem(value: str, what: str = "name") -> str | None:
    """Why `value` cannot be one part of a corpus path (a folder or file name), or None."""
    if not value:
        return f"the {what} is empty"
    if len(value) > MAX_PART:
        return f"the {what} is longer than {MAX_PART} characters"
    if ".." in value:
        return f"the {what} contains `..`"
    if not _PART.fullmatch(value):
        return (
            f"the {what} may hold only letters, digits and . _ + - "
            "(starting with a letter or digit)"
        )
    return None


def document_problem(value: str) -> str | None:
    """Why `value` cannot be a document id `game/document`, or None."""
    if ".." in value:
        return "the document id contains `..`"
    parts = value.split("/")
    if len(parts) != 2:
        return "a document id is game/document: exactly one `/`"
    for part, what in zip(parts, ("game", "document name"), strict=True):
        problem = part_problem(part, what)
        if problem is not None:
            return problem
    return game_problem(parts[0])


def game_problem(value: str) -> str | None:
    """Why `value` cannot be a game (the first folder of its documents), or None."""
    problem = part_problem(value, "game")
    if problem is None and value.lower() in RESERVED_GAMES:
        names = ", ".join(sorted(RESERVED_GAMES))
        return f"the game may not be named {value}: the corpus and the site use {names}"
    return problem


def prefix_problem(value: str) -> str | None:
    """Why `value` cannot be a citation prefix (the `cr` of `cr:702.19c`), or None."""
    if not _PREFIX.fullmatch(value) or len(value) > MAX_PREFIX:
        return (
            f"a citation prefix is one lower-case word of at most {MAX_PREFIX} characters "
            "(letters, digits, _ and -; no `:` or `/`)"
        )
    return None
