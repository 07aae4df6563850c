"""A rule as a reader reads it in print: its text, examples, notes and list, then every
rule under it, each with an anchor of its own. The current version's rule pages and
every older version's pages show a rule through these blocks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipeline.models.records import Rule
from pipeline.site import paths
from pipeline.site.linking import Linker

# Above this many rules under it, a rule's page shows the rules directly under it (each
# whole, with a link to its own page) rather than all their descendants: a keyword
# chapter's section holds over a thousand, and a page stays small enough for a phone.
WHOLE_UP_TO = 200
_NAME_CHARS = 60


def heading_of(rule: Rule, has_children: bool) -> str | None:
    """A rule's title; a rule with rules under it whose whole text is a short name
    (702.19 "Trample") is printed as a heading, and reads as one."""
    if rule.title:
        return rule.title
    text = rule.text.strip()
    short = bool(text) and len(text) <= _NAME_CHARS and text[-1] not in ".:;,)"
    alone = not (rule.examples or rule.notes or rule.bullets) and "\n" not in text
    return text if has_children and short and alone else None


def block_of(
    rule: Rule, linker: Linker, page: str, depth: int, has_children: bool
) -> dict[str, Any]:
    refs = rule.references
    heading = heading_of(rule, has_children)
    return {
        "number": rule.number,
        "anchor": paths.number_slug(rule.number),
        "page": page,
        "depth": depth,
        "title": heading,
        "text": linker.segments("" if heading and not rule.title else rule.text, refs),
        "examples": [linker.segments(e, refs) for e in rule.examples],
        "notes": [linker.segments(n, refs) for n in rule.notes],
        "bullets": [linker.segments(b, refs) for b in rule.bullets],
    }


def subtree_blocks(
    rule: Rule,
    children: dict[str, list[Rule]],
    linker: Linker,
    page_of: Callable[[Rule], str],
) -> tuple[list[dict[str, Any]], bool]:
    """The blocks of every rule under `rule` in document order (the rule itself not
    included), and whether they are the whole subtree (False: its children only)."""
    below: list[tuple[Rule, int]] = []
    stack = [(c, 1) for c in reversed(children.get(rule.id, []))]
    while stack:
        current, depth = stack.pop()
        below.append((current, depth))
        stack += [(c, depth + 1) for c in reversed(children.get(current.id, []))]
    whole = len(below) <= WHOLE_UP_TO
    if not whole:
        below = [(r, d) for r, d in below if d == 1]
    blocks = [block_of(r, linker, page_of(r), d, r.id in children) for r, d in below]
    return blocks, whole
