"""The numbering a document prints at the start of its lines, as levels of a scheme.

A reader learns a numbering from the numbers themselves: `1-2-2-1.` is four
levels joined by hyphens with a dot after; `702.19c` adds a letter to a rule
with no join; `903.2i-i` a roman numeral after a hyphen. Each line start is
split into segments (digits, lower-case letters, capitals) and the joins
printed between them; each level is what most numbers of that depth agree on,
and a depth too few numbers reach is no level (a wrapped `10-2.` is not one).
Only numbering the document prints becomes a level: nothing is invented.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.models.content import Line
from pipeline.models.scheme import MAX_LEVELS, LevelScheme
from pipeline.parse.numbered.engine import SENTENCE_END, is_title
from pipeline.parse.numbered.numbers import ROMANS

# A number at the start of a line is its first word: segments (digits first) with their
# joins, then a dot or the `)` of a body's chapter marker (such a level: `dot = "paren"`).
# Split by a scan of the word, not one regex of optional joins, which backtracks
# exponentially on a long word that is no number.
SEGMENT = re.compile(r"([.\-]?)([0-9]+|[a-z]+|[A-Z]+)")
MARKS = ".)"
MARK = {"required": ".", "paren": ")"}
# Chinese and Japanese end sentences with full-width marks and write no spaces between words
CJK_ENDS = ("\u3002", "\uff0e", "\uff1b", "\uff1a", "\uff01", "\uff1f", "\uff0c", "\u3001")
# a sentence may end in a closing quote or a reference after its stop (`hero-card.[1.3.2a]`);
# a heading may end in parentheses (`Lv. (Level)`, `Create (token)`)
CLOSERS = re.compile(r"(?:\[[^\]]*\]|[\"'\u201d\u2019])+\s*$")
MAX_HEADING = 60  # columns: a longer line is a sentence whatever its spaces
# An own segment printed alone (`a.`, `iv.`): the path comes from the outline.
OWN = re.compile(r"^(?P<n>[a-z]{1,4})\.\s+(?P<rest>\S.*)$")
MIN_SHARE = 0.01  # a depth fewer numbers than this reach is noise (wrapped references)
MIN_LEVEL = 3  # numbers a level needs at the least, however short the document
DOT_SURE = 0.8  # this share of a level's numbers carry a dot: the dot is required (the rest
# are references wrapped to a line start, `1 card`)
TITLE_ALWAYS, TITLE_SOMETIMES = 0.9, 0.05
HEADED = 0.5  # a level mostly of headings is named as one (section), not as a rule
KINDS_BEFORE = ["section", "chapter", "part"]  # headed levels, innermost first
KINDS_AFTER = ["rule", "subrule", "item", "point", "subpoint", "clause", "subclause"]


@dataclass(frozen=True)
class Numbered:
    """A line that starts with a number: its segments (join, text), mark, rest and line."""

    segments: tuple[tuple[str, str], ...]
    mark: str
    rest: str
    line: Line

    @property
    def number(self) -> str:
        return "".join(join + text for join, text in self.segments)

    @property
    def shape(self) -> tuple[tuple[str, str], ...]:
        return tuple((join, segment_kind(text)) for join, text in self.segments)


def segment_kind(text: str) -> str:
    if text.isdigit():
        return "digits"
    return "letter" if text.islower() else "upper"


def read_start(line: Line) -> Numbered | None:
    """The number a line starts with, split into segments, or None."""
    words = line.text.split(maxsplit=1)
    if not words:
        return None
    word, rest = words[0], words[1:]
    mark = word[-1] if word[-1] in MARKS else ""
    number = word[:-1] if mark else word
    if not number[:1].isdigit():
        return None
    segments = tuple(SEGMENT.findall(number))
    # deeper than any scheme may declare: no rule number (and a thousand-deep outline
    # would cost every later step its depth again)
    if len(segments) > MAX_LEVELS or "".join(j + t for j, t in segments) != number:
        return None
    return Numbered(segments, mark, rest[0].strip() if rest else "", line)


def read_starts(lines: Sequence[Line]) -> list[Numbered]:
    return [found for line in lines if (found := read_start(line)) is not None]


@dataclass(frozen=True)
class Level:
    """One inferred level: the join before it, its segment kind and the numbers of its depth."""

    join: str
    kind: str
    numbers: list[Numbered]


def infer_chain(starts: list[Numbered]) -> list[Level]:
    """The levels most numbers agree on, outermost first: at each depth the join and segment
    kind most numbers reaching it print, while enough numbers reach it."""
    floor = max(MIN_LEVEL, round(MIN_SHARE * len(starts)))
    chain: list[tuple[str, str]] = []
    levels: list[Level] = []
    pool = starts
    while True:
        depth = len(chain)
        votes = Counter(s.shape[depth] for s in pool if len(s.shape) > depth)
        if not votes:
            return levels
        (join, kind), support = votes.most_common(1)[0]
        deeper = [s for s in pool if len(s.shape) > depth and s.shape[depth] == (join, kind)]
        exact = [s for s in deeper if len(s.shape) == depth + 1]
        # few numbers reach a deep level (`1-2-1-1-1-1.` nine times in a thousand rules):
        # it is one when they run in sequence under their parents; wrapped references do not
        if support < MIN_LEVEL or (support < floor and run_share(exact, starts) < DOT_SURE):
            return levels
        chain.append((join, kind))
        pool = deeper
        levels.append(Level(join, kind, exact))


def run_share(numbers: list[Numbered], starts: list[Numbered]) -> float:
    """The share of `numbers` that a reader sees run in sequence: the first under a parent
    printed before it, or the next after a number printed before it."""
    seen: set[str] = set()
    following = 0
    wanted = {id(n) for n in numbers}
    for start in starts:
        if id(start) in wanted:
            parent = "".join(j + t for j, t in start.segments[:-1])
            first = start.segments[-1][1] in ("1", "a", "i", "A") and parent in seen
            following += first or predecessor(start) in seen
        seen.add(start.number)
    return following / len(numbers) if numbers else 0.0


def fits(start: Numbered, levels: list[Level]) -> bool:
    shape = [(level.join, level.kind) for level in levels]
    return 0 < len(start.shape) <= len(shape) and list(start.shape) == shape[: len(start.shape)]


def level_segment(level: Level, depth: int, all_starts: list[Numbered]) -> str:
    """digits, letter, roman or upper: the segments the level's numbers print at its depth."""
    if level.kind != "letter":
        return level.kind
    seen = {s.segments[depth][1] for s in all_starts if len(s.segments) > depth}
    romans = set(ROMANS)
    # i, ii, iii: a run of roman numerals (a lettered level has no `ii`)
    return "roman" if seen <= romans and any(len(s) > 1 for s in seen) else "letter"


def skipped_letters(levels: list[LevelScheme], starts: list[Numbered]) -> str:
    """Letters a lettered level never prints though the letter after it is printed often:
    the publisher skips them (MTG's `l` and `o`)."""
    used: Counter[str] = Counter()
    for depth, level in enumerate(levels):
        if level.segment == "letter":
            used.update(s.segments[depth][1] for s in starts if len(s.segments) > depth)
    singles = [letter for letter in used if len(letter) == 1]
    if not singles:
        return ""
    last = max(singles)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    return "".join(
        c
        for i, c in enumerate(alphabet[: alphabet.index(last)])
        if not used[c] and used[alphabet[i + 1]] >= 2
    )


def level_width(depth: int, starts: list[Numbered]) -> int | None:
    """(Nearly) every number prints this level with the same count of digits, zero-padded
    (`000.`): the width, so a wrapped `1 Champion Legend` is no number of it."""
    digits = [s.segments[depth][1] for s in starts if len(s.segments) > depth]
    widths = Counter(len(d) for d in digits if d.isdigit())
    if not widths or not any(len(d) > 1 and d.startswith("0") for d in digits):
        return None
    width, count = widths.most_common(1)[0]
    return width if count >= DOT_SURE * sum(widths.values()) else None


def predecessor(number: Numbered) -> str | None:
    """The number before it at its level (`130.3` before `130.4`), or None for a first."""
    join, last = number.segments[-1]
    if last.isdigit() and int(last) > 1:
        before = str(int(last) - 1).zfill(len(last))
    elif len(last) == 1 and last.isalpha() and last not in "aA":
        before = chr(ord(last) - 1)
    else:
        return None
    return "".join(j + t for j, t in number.segments[:-1]) + join + before


def level_dot(numbers: list[Numbered]) -> str:
    """A dot after the number: required, none, or optional where the document prints a
    number of a dotted level without one (the next rule after a dotted one, never printed
    with a dot elsewhere: not a reference wrapped to a line start) or the next number of an
    undotted level with one; paren where (nearly) every number of the level closes with
    `)`. A lone number is a page number."""
    numbers = [n for n in numbers if n.rest]
    if numbers and sum(1 for n in numbers if n.mark == ")") >= DOT_SURE * len(numbers):
        return "paren"  # `1) Game Overview`: the body's chapter markers
    numbers = [n for n in numbers if n.mark != ")"]
    dotted = {n.number for n in numbers if n.mark == "."}
    printed = {n.number for n in numbers}
    if sum(1 for n in numbers if n.mark == ".") <= (1 - DOT_SURE) * len(numbers):
        # `119.1c In a Commander game …` then `119.1d. In a two-player Brawl game …`: the
        # next number, with a dot its level never prints, is still a rule
        slips = [n for n in numbers if n.mark == "." and predecessor(n) in printed]
        return "optional" if slips else "none"
    bare = [
        n for n in numbers if not n.mark and n.number not in dotted and predecessor(n) in dotted
    ]
    return "optional" if bare else "required"


def width(text: str) -> int:
    """Columns the text takes: a Chinese or Japanese character two, as a reader sees it."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def is_heading_text(text: str) -> bool:
    """A heading, in any script: short, and no sentence (no full stop of either width)."""
    stripped = CLOSERS.sub("", text).strip() or text
    ends = SENTENCE_END + CJK_ENDS
    short = width(text) <= MAX_HEADING
    return short and is_title(text, ends=ends) and is_title(stripped, ends=ends)


def is_short_line(text: str) -> bool:
    """A line no longer than a heading that ends no sentence."""
    return width(text) <= MAX_HEADING and not text.endswith(SENTENCE_END + CJK_ENDS)


def heading_share(numbers: list[Numbered]) -> float:
    """The share of the level's numbers that head a title (1 when none has text)."""
    texts = [n.rest for n in numbers if n.rest]
    return sum(1 for t in texts if is_heading_text(t)) / len(texts) if texts else 1.0


def level_title(numbers: list[Numbered]) -> str:
    """always: (nearly) every number of the level heads a title; short: some do."""
    texts = [n.rest for n in numbers if n.rest]
    share = heading_share(numbers)
    if share >= TITLE_ALWAYS:
        return "always"
    # `short` asks the engine's test, which knows spaces and ASCII stops only: where it
    # would take a sentence of the level for a heading (one without spaces), never
    misread = any(is_title(t) for t in texts if not is_heading_text(t))
    return "short" if share >= TITLE_SOMETIMES and not misread else "never"


def kind_names(shares: list[float]) -> list[str]:
    """Names by place: the levels before the first level mostly of sentences (`shares`: of
    headings) are sections, chapters and parts; that level is the rule, the deeper ones
    subrules, items, ..."""
    first = next((i for i, share in enumerate(shares) if share < HEADED), len(shares) - 1)
    titles = shares
    headed = [
        KINDS_BEFORE[first - 1 - i] if first - 1 - i < len(KINDS_BEFORE) else f"heading{i + 1}"
        for i in range(first)
    ]
    rest = [
        KINDS_AFTER[i] if i < len(KINDS_AFTER) else f"level{first + i + 1}"
        for i in range(len(titles) - first)
    ]
    return headed + rest


def own_level(lines: Sequence[Line], segment: str) -> LevelScheme | None:
    """A level printed as its own segment only (`a.` under `1.2.3.`), when lines start with
    `a.` and `b.` often enough to be one. Under a lettered level (`1.0.1a`) such lines are
    list items, not a deeper level of letters."""
    firsts = [ln for ln in lines if (m := OWN.match(ln.text.strip())) and m.group("n") == "a"]
    seconds = [ln for ln in lines if (m := OWN.match(ln.text.strip())) and m.group("n") == "b"]
    if len(firsts) < MIN_LEVEL or len(seconds) < MIN_LEVEL or segment == "letter":
        return None
    return LevelScheme(kind="", segment="letter", join="", printed="own", dot="required")


def chapter_digits(numbers: list[Numbered]) -> int | None:
    """How many digits of the outermost numbers name a chapter printed on its own line before
    them: `1. Game Concepts`, then `100. General`, `101. The Magic Golden Rules`, then
    `2. Parts of a Card`, `200. General` (a section is its chapter's digit and two of its
    own). None unless most of the longer numbers open with the chapter last printed."""
    firsts = [n.segments[0][1] for n in numbers if n.segments[0][1].isdigit()]
    widths = Counter(len(f) for f in firsts)
    if len(widths) < 2:
        return None
    # the two widths most numbers print (a glossary's numbered senses may outnumber either)
    short, long = sorted(width for width, _ in widths.most_common(2))
    n_long = widths[long]
    # a section adds two digits at least to its chapter's (`1.` and `100.`); chapters
    # `9.` and `10.` are one level
    if widths[short] < MIN_LEVEL or long - short < 2:
        return None
    chapter, under = None, 0
    for first in firsts:
        if len(first) == short:
            chapter = first
        elif len(first) == long:
            under += chapter is not None and first[:short] == chapter
    return short if under >= DOT_SURE * n_long else None


def split_chapters(
    levels: list[LevelScheme], numbers: list[Numbered], name: str
) -> list[LevelScheme]:
    """The outermost level as two: its chapters (`1.`) and its sections (`100.`, the chapter's
    digits then the section's own), when the document prints them so (`chapter_digits`)."""
    digits = chapter_digits(numbers)
    if digits is None or levels[0].segment != "digits":
        return levels
    short = [n for n in numbers if len(n.segments[0][1]) == digits]
    long = [n for n in numbers if len(n.segments[0][1]) > digits]
    widths = Counter(len(n.segments[0][1]) for n in long)
    chapter = LevelScheme(
        kind=name, width=digits, join=".", dot=level_dot(short), title=level_title(short)
    )
    section = levels[0].model_copy(
        update={
            "width": widths.most_common(1)[0][0] - digits,
            "join": "",
            "dot": level_dot(long),
            "title": level_title(long),
        }
    )
    return [chapter, section, *levels[1:]]


def infer_levels(lines: Sequence[Line], contents: set[int]) -> tuple[list[LevelScheme], str]:
    """The scheme's levels and its skipped letters, from the numbered lines outside the
    contents (`contents`: their line numbers)."""
    starts = [s for s in read_starts(lines) if s.line.line not in contents]
    chain = infer_chain(starts)
    if not chain:
        return [], ""
    body = [s for s in starts if fits(s, chain)]
    segments = [level_segment(level, depth, body) for depth, level in enumerate(chain)]
    dots = [level_dot(level.numbers) for level in chain]
    # what follows a number the engine reads: with a dot required, only dotted ones (a
    # wrapped `2 名玩家` is a count, not a chapter)
    read = [
        [n for n in level.numbers if dot not in ("required", "paren") or n.mark == MARK[dot]]
        for level, dot in zip(chain, dots, strict=True)
    ]
    titles = [level_title(numbers) for numbers in read]
    own = own_level([ln for ln in lines if ln.line not in contents], segments[-1])
    names = kind_names([heading_share(numbers) for numbers in read] + ([0.0] if own else []))
    levels = [
        LevelScheme(
            kind=names[depth],
            segment=segments[depth],
            width=level_width(depth, body) if segments[depth] == "digits" else None,
            join=level.join if depth else ".",
            dot=dots[depth],
            title=titles[depth],
        )
        for depth, level in enumerate(chain)
    ]
    if own is not None:
        levels.append(own.model_copy(update={"kind": names[-1]}))
    skipped = skipped_letters(levels, body)
    outermost = [s for s in body if len(s.segments) == 1]
    return split_chapters(levels, outermost, outer_kind(names[0])), skipped


def outer_kind(name: str) -> str:
    """The name of a level around the one named `name`: a section's is the chapter, a
    chapter's the part; around rules, chapters."""
    if name not in KINDS_BEFORE:
        return KINDS_BEFORE[1]
    at = KINDS_BEFORE.index(name) + 1
    return KINDS_BEFORE[at] if at < len(KINDS_BEFORE) else f"{name}-group"
