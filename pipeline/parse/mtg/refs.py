"""Cross-references in MTG rules text, resolved to citation ids.

The Comprehensive Rules cite each other in prose: `rule 702.19c`, `rules
601.2a–h` (a letter range), `rules 119.7–8` and `rules 903.6–903.11` (number
ranges), `see section 7`, and bare numbers such as `as specified in 101.4a`.
A decimal rule number (`NNN.N`) is never anything but a reference in this
document, so it is taken wherever it stands; a bare three-digit number (`rule
903`) or a single digit (`section 7`) is taken only after the word `rule(s)`
or `section(s)`, because `20 life` or `layers 2–6` are not references.
"""

from __future__ import annotations

import re

# Subrule letters skip l and o (they look like 1 and 0).
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"

_DASH = "[\u2013\u2014-]"
# One cited item: 702.19c, 702.19, 903 — with an optional range tail.
_ITEM = (
    r"(?P<sec>\d{3})(?:\.(?P<rule>\d+)(?P<let>[a-z])?)?"
    rf"(?:{_DASH}(?:(?P<esec>\d{{3}})\.(?P<erule>\d+)(?P<elet>[a-z])?"
    r"|(?P<erule2>\d+)|(?P<elet2>[a-z])))?"
    r"(?![A-Za-z0-9])"
)
_ITEM_RE = re.compile(rf"(?<![\d.]){_ITEM}")
_DECIMAL_RE = re.compile(rf"(?<![\d.])(?=\d{{3}}\.\d){_ITEM}")
_LIST_SEPARATOR = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+")
_RULE_KEYWORD = re.compile(r"\brules?\s+", re.IGNORECASE)
_SECTION_LIST = re.compile(
    r"\bsections?\s+(?P<first>\d{1,3})(?P<rest>(?:(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)\d{1,3})*)"
    r"(?![\d.]\d)",
    re.IGNORECASE,
)


def _letter_span(first: str, last: str) -> list[str]:
    if first not in SUBRULE_LETTERS or last not in SUBRULE_LETTERS:
        return [first, last]
    lo, hi = SUBRULE_LETTERS.index(first), SUBRULE_LETTERS.index(last)
    return list(SUBRULE_LETTERS[lo : hi + 1]) if lo <= hi else [first, last]


def _expand(match: re.Match[str], known: set[str]) -> list[str]:
    """Ids one cited item names; a range keeps its endpoints and the existing ids between."""
    sec, rule, let = match.group("sec"), match.group("rule"), match.group("let") or ""
    if rule is None:
        return [f"cr:{sec}"]
    start = f"cr:{sec}.{rule}{let}"
    elet = match.group("elet2")
    if elet is not None:
        if not let:  # `123.4–b` is not a range form the document uses
            return [start]
        ids = [f"cr:{sec}.{rule}{x}" for x in _letter_span(let, elet)]
    else:
        esec = match.group("esec") or sec
        erule = match.group("erule") or match.group("erule2")
        elet_full = match.group("elet") or ""
        if erule is None:
            return [start]
        end = f"cr:{esec}.{erule}{elet_full}"
        if esec != sec or let or elet_full or int(erule) < int(rule):
            return [start, end]
        ids = [f"cr:{sec}.{n}" for n in range(int(rule), int(erule) + 1)]
    first, last = ids[0], ids[-1]
    return [i for i in ids if i in known or i in (first, last)]


def _keyword_items(text: str) -> list[tuple[int, re.Match[str]]]:
    """Items in lists introduced by `rule`/`rules` (the only place a bare `903` is a rule)."""
    found: list[tuple[int, re.Match[str]]] = []
    for keyword in _RULE_KEYWORD.finditer(text):
        pos = keyword.end()
        while True:
            item = _ITEM_RE.match(text, pos)
            if item is None:
                break
            found.append((item.start(), item))
            sep = _LIST_SEPARATOR.match(text, item.end())
            if sep is None:
                break
            pos = sep.end()
    return found


def find_references(text: str, known: set[str]) -> list[str]:
    """Every id the text cites, in order of appearance, without repeats."""
    items: dict[int, re.Match[str]] = {m.start(): m for m in _DECIMAL_RE.finditer(text)}
    for start, item in _keyword_items(text):
        items.setdefault(start, item)
    cited: list[tuple[int, list[str]]] = [(s, _expand(m, known)) for s, m in items.items()]
    for section in _SECTION_LIST.finditer(text):
        numbers = [section.group("first"), *re.findall(r"\d{1,3}", section.group("rest"))]
        cited.append((section.start(), [f"cr:{n}" for n in numbers]))
    out: list[str] = []
    for _, ids in sorted(cited, key=lambda pair: pair[0]):
        out.extend(i for i in ids if i not in out)
    return out
