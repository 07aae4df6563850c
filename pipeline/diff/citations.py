"""Rule citations in free text (notes, Markdown, HTML, source code), and rewriting them. Pure.

The forms the documents and their communities write, each read into the citation
id it names (`cr:` + the publisher's number):

    cr:6.6.1          the corpus's own id form (any prefix the document uses: cr, trp, ppg)
    CR 702.19c        "CR" then a number (also CR702.19c)
    rule 702.19c      rule(s) / section(s) / step(s) then a number or a list of them
                      (rules 601.2a and 601.2b; See rule 355.6.; sections 8.3, 8.4)
    rules 601.2a-h    a range: both ends are cited (601.2a and 601.2h)
    step 6.9.5a       "step" only with a dotted number ("step 4" of a run is no rule)
    [1.0.1a]          a bracketed number (FaB's cross-references)
    702.19c           a bare number specific enough to be a rule (three parts, a letter,
                      or three digits before the dot: 6.6.1, 1.0.1a, 355.6, not 2.4 or
                      3.11), and only when some version of the document has it

A number is digits, then dotted parts of digits (with an optional letter) or single
letters: 702.19c, 1.0.1a, 383.4.c.2.a. A full stop after it ends a sentence.

`parse_citation` reads one citation a person asks for (`show`, `history`, the API) with
the same forms, plus a glossary term by name (`glossary:Trample`, `Trample`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Literal, NamedTuple

from pipeline.errors import UsageError
from pipeline.models.slugs import slugify

Form = Literal["id", "cr", "keyword", "bracket", "bare"]

NUMBER = r"\d+(?:\.(?:\d+[a-z]?|[a-z]))*"
_DASH = r"[-\u2010\u2011\u2012\u2013\u2014\u2212]"
# Compiled on first use: `show` reads one citation in the time Python takes to start, and
# compiling every free-text pattern would cost more than its whole answer.
_SOURCES: dict[str, str] = {
    "id": rf"(?<![\w:])(?P<prefix>[a-z]+):(?P<num>{NUMBER})(?![\w])",
    "cr": rf"(?<![\w.])CR ?(?P<num>{NUMBER})(?![\w])",
    "keyword": (
        rf"(?i:\b(?:rules?|sections?|steps?)\s+)"
        rf"(?P<list>{NUMBER}(?:{_DASH}[a-z0-9]+)?"
        rf"(?:(?:\s*,\s*|\s+)(?:(?:and|or|through|to)\s+)?{NUMBER}(?:{_DASH}[a-z0-9]+)?)*)"
    ),
    "list_item": rf"(?P<num>{NUMBER})(?:(?P<dash>{_DASH})(?P<end>[a-z0-9]+))?",
    "bracket": r"\[(?P<num>\d+(?:\.(?:\d+[a-z]?|[a-z]))+)\]",
    "bare": r"(?<![\w.:/\-#\[])(?P<num>\d+(?:\.(?:\d+[a-z]?|[a-z]))+)(?![\w\-]|\.\d)",
}


@cache
def _rx(name: str) -> re.Pattern[str]:
    return re.compile(_SOURCES[name])


class Found(NamedTuple):
    """One citation in one line: where the number sits (0-based columns), what it names.
    (Named tuples, not dataclasses: `show` must not pay for importing dataclasses.)"""

    line: int
    start: int
    end: int
    number: str
    prefix: str
    form: Form
    written: str  # the citation as written, keyword included
    in_range: bool = False

    @property
    def id(self) -> str:
        return f"{self.prefix}:{self.number}"


def _range_end(start: str, end: str) -> str | None:
    """'601.2a' with 'h' -> '601.2h'; '702.19' with '21' -> '702.21'; else None."""
    if end.isalpha() and start[-1:].isalpha():
        return start[:-1] + end
    if end.isdigit():
        head, _, last = start.rpartition(".")
        if last.isdigit() and head:
            return f"{head}.{end}"
    return None


def is_specific(number: str) -> bool:
    """A bare number that reads as a rule, not a decimal or a version: three parts or more,
    a letter at the end, or three digits before the first dot."""
    parts = number.split(".")
    if len(parts) >= 4 and all(p.isdigit() for p in parts):
        return False  # an address or a build number (127.0.0.1): rules this deep have letters
    return len(parts) >= 3 or number[-1].isalpha() or len(parts[0]) >= 3


def find_in_line(
    text: str, line: int, prefix: str = "cr", prefixes: Iterable[str] = ("cr",)
) -> list[Found]:
    """Every citation in one line of text, left to right, none overlapping."""
    # One mark per character a citation took: testing a span costs its length, so a line
    # of thousands of numbers takes time linear in its length (a list of spans took each
    # number's test once per number before it).
    taken = bytearray(len(text))
    found: list[Found] = []
    known = set(prefixes) | {prefix}

    def free(a: int, b: int) -> bool:
        return taken.find(1, a, b) < 0

    def take(span: tuple[int, int]) -> None:
        taken[span[0] : span[1]] = b"\x01" * (span[1] - span[0])

    def add(f: Found, span: tuple[int, int]) -> None:
        take(span)
        found.append(f)

    def add_match(m: re.Match[str], form: Form, cited: str = prefix) -> None:
        num = m.group("num")
        add(Found(line, m.start("num"), m.end("num"), num, cited, form, m.group(0)), m.span())

    for m in _rx("id").finditer(text):
        if m.group("prefix") in known:
            add_match(m, "id", m.group("prefix"))
    for m in _rx("cr").finditer(text):
        if free(*m.span()):
            add_match(m, "cr")
    for m in _rx("keyword").finditer(text):
        if not free(*m.span()):
            continue
        base = m.start("list")
        keyword = m.group(0)[: base - m.start()].split()[0]
        steps = keyword.lower().startswith("step")
        for index, item in enumerate(_rx("list_item").finditer(m.group("list"))):
            if steps and "." not in item.group("num"):
                continue
            s, e = base + item.start("num"), base + item.end("num")
            ranged = item.group("end") is not None
            # The first of a list as written with its keyword, the others by number.
            written = f"{keyword} {item.group(0)}" if index == 0 else item.group(0)
            add(Found(line, s, e, item.group("num"), prefix, "keyword", written, ranged), (s, e))
            if ranged:
                end = _range_end(item.group("num"), item.group("end"))
                if end is not None:
                    es, ee = base + item.start("end"), base + item.end("end")
                    found.append(Found(line, es, ee, end, prefix, "keyword", written, True))
        take(m.span())
    for m in _rx("bracket").finditer(text):
        if free(*m.span()):
            add_match(m, "bracket")
    for m in _rx("bare").finditer(text):
        if free(*m.span()) and is_specific(m.group("num")):
            add_match(m, "bare")
    return sorted(found, key=lambda f: (f.start, f.end))


def find_citations(text: str, prefix: str = "cr", prefixes: Iterable[str] = ("cr",)) -> list[Found]:
    """Every citation in a text, line by line (1-based line numbers)."""
    out: list[Found] = []
    for number, line in enumerate(text.splitlines(), start=1):
        out.extend(find_in_line(line, number, prefix, prefixes))
    return out


def rewrite(text: str, replacements: dict[tuple[int, int, int], str]) -> str:
    """The text with numbers replaced: (line, start, end) of a number -> its new number.
    Line endings and everything else are kept byte for byte."""
    lines = text.splitlines(keepends=True)
    by_line: dict[int, list[tuple[int, int, str]]] = {}
    for (line, start, end), number in replacements.items():
        by_line.setdefault(line, []).append((start, end, number))
    for line, edits in by_line.items():
        current = lines[line - 1]
        for start, end, number in sorted(edits, reverse=True):
            current = current[:start] + number + current[end:]
        lines[line - 1] = current
    return "".join(lines)


ACCEPTED = "cr:702.19c, 702.19c, CR 702.19c, rule 702.19c, glossary:Trample or Trample"
_ASKED_PREFIXED = re.compile(r"(?P<prefix>[A-Za-z][\w-]*):\s*(?P<rest>\S.*)")
_ASKED_NUMBER = re.compile(
    rf"(?:(?:CR|rules?|sections?|steps?)\s*)?\[?(?P<num>{NUMBER})\]?\.?", re.IGNORECASE
)
_ASKED_TERM = re.compile(r"[^\W\d_][\w' -]*", re.UNICODE)


class Asked(NamedTuple):
    """One citation as asked: `ident` when the form names the id (`cr:702.19c`,
    `glossary:trample`), else `number` (any prefix the document uses) or `term`."""

    written: str
    ident: str | None = None
    number: str | None = None
    term: str | None = None


def parse_citation(text: str) -> Asked:
    """A citation as people write it, read into what it names; UsageError naming the
    accepted forms when it is no citation. Letters of a number are lower case in every
    document (`702.19C` is 702.19c); a glossary term is found by its slug."""
    written = text.strip()
    if m := _ASKED_PREFIXED.fullmatch(written):
        prefix, rest = m.group("prefix").lower(), m.group("rest").strip()
        if prefix == "glossary":
            return Asked(written, ident=f"glossary:{slugify(rest)}")
        if re.fullmatch(NUMBER, rest.lower()):
            return Asked(written, ident=f"{prefix}:{rest.lower()}")
        return Asked(written, ident=f"{prefix}:{rest}")  # a ruling's or passage's own id
    if m := _ASKED_NUMBER.fullmatch(written):
        return Asked(written, number=m.group("num").lower())
    if written and _ASKED_TERM.fullmatch(written) and written.lower() not in ("cr", "rule"):
        return Asked(written, term=slugify(written))
    raise UsageError(f"{text!r} is not a citation; write it as one of: {ACCEPTED}")
