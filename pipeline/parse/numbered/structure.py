"""Structure a reader sees and skips: tables of contents and page furniture.

Both are recognised from the document itself, never from a list of a publisher's
words:

- a table of contents is a run of numbered headings (or of entries with dot leaders
  and a page number) whose headings appear again later with their body: the same
  number and the same title, whatever mark follows the number (`1. Game Overview` in
  the contents, `1) Game Overview` in the body). An unnumbered entry (`Glossary`)
  belongs to the run when its text stands again later on a line of its own;
- page furniture (running headers and footers, page numbers, copyright and site
  lines) is text that stands at the same place on many pages: in a PDF the same
  height on the page, in a text export of a PDF (pages split by form feeds) the same
  line counted from the page's top or foot. Digits are ignored when comparing, so
  `Page 3` and `Page 4` are one furniture line.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence

from pipeline.models.content import Line

# `1. Game Overview`, `1) Game Overview`, `1-1. Number of Players`, `100. Overview`,
# `9.攻击和战斗`: a number, its mark, a title.
_ENTRY = re.compile(r"^(?P<number>[0-9]+(?:[.\-][0-9]+)*[a-z]?)(?:[.)]\s*|\s+)(?P<title>\S.*)$")
# `Game Overview ........ 1`, `Game Overview … 1`: dot leaders and a page number.
_LEADER = re.compile(r"^(?P<title>.*?\S)\s*(?:(?:[.．·・･]\s*){3,}|[…‥]+|_{3,})\s*\d{1,4}$")
# A page number standing alone: `12`, `- 12 -`, `Page 12`, `12 / 40`.
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?[-–]?\s*(\d{1,4})\s*[-–]?(?:\s*/\s*\d{1,4})?$", re.I)
LEAST_PAGE_RUN = 0.8  # of consecutive page numbers that go up by one
_PAGE_AFTER = re.compile(r"\s+\d{1,4}$")
_SENTENCE_END = (".", "。", "!", "?", ":", ";", "：")
HEADING_WORDS = 12
HEADING_CHARS = 40  # a heading in a script written without spaces
LEAST_ENTRIES = 3
# Lines this far from a page's top or foot may be furniture; the rest are the page's body.
REACH = 3
LEAST_PAGES = 3
SHARE_OF_PAGES = 0.25


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def _heading(text: str) -> tuple[str, str] | None:
    """(number, title) of a numbered heading line, titles squeezed; None for anything else."""
    leader = _LEADER.match(text)
    body = leader.group("title") if leader else text
    match = _ENTRY.match(body)
    if match is None:
        return None
    title = match.group("title").strip()
    if leader is None:
        title = _PAGE_AFTER.sub("", title) if len(title.split()) > 1 else title
        too_long = len(title.split()) > HEADING_WORDS or len(title) > HEADING_CHARS * 3
        if too_long or title.endswith(_SENTENCE_END):
            return None
    return re.sub(r"[.\-]", ".", match.group("number")), _squeeze(title)


def _same_title(a: str, b: str) -> bool:
    """`规则处理` and `规则处理·规则检查` are one heading: a contents may shorten a title."""
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= 2 and longer.startswith(shorter)


def find_contents(texts: Sequence[str]) -> set[int]:
    """Indexes of the texts that are entries of a table of contents (see the module)."""
    numbered = [_heading(text) for text in texts]
    later: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for index, text in enumerate(texts):
        if (match := _ENTRY.match(text)) is not None:
            number = re.sub(r"[.\-]", ".", match.group("number"))
            later[number].append((index, _squeeze(_PAGE_AFTER.sub("", match.group("title")))))
    plain_at: dict[str, list[int]] = defaultdict(list)
    for index, text in enumerate(texts):
        plain_at[_squeeze(text)].append(index)

    def again(index: int) -> bool:
        """The entry stands again later, with its body."""
        if _LEADER.match(texts[index]):
            return True
        heading = numbered[index]
        if heading is None:
            return any(i > index for i in plain_at[_squeeze(texts[index])])
        number, title = heading
        return any(i > index and _same_title(title, t) for i, t in later[number])

    found: set[int] = set()
    index = 0
    while index < len(texts):
        run: list[int] = []
        numbers: set[str] = set()
        while index < len(texts):
            heading = numbered[index]
            if heading is not None and heading[0] in numbers:
                break  # the first heading again: the body begins
            plain = heading is None and not _LEADER.match(texts[index])
            if plain and not (run and _short(texts[index]) and again(index)):
                break
            run.append(index)
            numbers.update([heading[0]] if heading else [])
            index += 1
        while run and not again(run[-1]):
            run.pop()
        entries = [i for i in run if numbered[i] is not None or _LEADER.match(texts[i])]
        repeated = sum(again(i) for i in entries)
        if len(entries) >= LEAST_ENTRIES and repeated * 3 >= len(entries) * 2:
            found.update(run)
        index = max(index, (run[-1] + 1) if run else index + 1)
    return found


def _short(text: str) -> bool:
    return len(text.split()) <= HEADING_WORDS and len(text) <= HEADING_CHARS * 3


def digitless(text: str) -> str:
    """A line's text with its numbers as `#` and its spacing squeezed: `Page 3` and
    `Page  4` are one furniture line."""
    return re.sub(r"\d+", "#", " ".join(text.split()))


def repeated_on_pages(
    pages: Sequence[Sequence[tuple[int, str, Hashable]]], keep: Callable[[str], bool]
) -> set[int]:
    """Line numbers of the furniture of `pages`: each page its non-blank lines in reading
    order as (line number, text, place), `place` the line's position on the page (None:
    counted from the page's top and foot). A line near a page's top or foot is furniture
    when its text (digits aside) stands at the same place on many pages; `keep` spares the
    lines a reader takes for the document's own (its numbered entries)."""
    least = max(LEAST_PAGES, math.ceil(SHARE_OF_PAGES * len(pages)))
    if len(pages) < least:
        return set()
    seen: dict[tuple[str, Hashable], set[int]] = defaultdict(set)
    candidates: list[tuple[int, list[tuple[str, Hashable]]]] = []
    for page_index, page in enumerate(pages):
        ends = list(enumerate(page))
        near_ends = ends[:REACH] + [e for e in ends[-REACH:] if e[0] >= REACH]
        for position, (number, text, place) in near_ends:
            if keep(text):
                continue
            places = (
                [place]
                if place is not None
                else [("top", position), ("foot", len(page) - position)]
            )
            keys = [(digitless(text), where) for where in places]
            for key in keys:
                seen[key].add(page_index)
            candidates.append((number, keys))
    return {number for number, keys in candidates if any(len(seen[k]) >= least for k in keys)}


def text_pages(lines: Sequence[Line]) -> list[list[tuple[int, str, Hashable]]]:
    """A text export's non-blank lines page by page: a form feed starts a page; without
    form feeds, a page ends at its page number, when the document numbers its pages
    (lines that are a number alone, going up one by one); else a single page."""
    written = [(line.line, line.text.strip(), line.text.startswith("\f")) for line in lines]
    written = [w for w in written if w[1]]
    feeds = any(feed for _, _, feed in written[1:])
    feet = set() if feeds else _page_feet([(number, text) for number, text, _ in written])
    pages: list[list[tuple[int, str, Hashable]]] = [[]]
    for number, text, feed in written:
        if feed and pages[-1]:
            pages.append([])
        pages[-1].append((number, text, None))
        if number in feet:
            pages.append([])
    return [page for page in pages if page]


def _page_feet(lines: Sequence[tuple[int, str]]) -> set[int]:
    """Line numbers of the page numbers of a text without form feeds: lines that are a
    number alone, when most of them go up by one from the last."""
    found = [(n, int(m.group(1))) for n, t in lines if (m := _PAGE_NUMBER.match(t))]
    if len(found) < LEAST_PAGES:
        return set()
    steps = sum(b[1] - a[1] == 1 for a, b in itertools.pairwise(found))
    return {n for n, _ in found} if steps >= LEAST_PAGE_RUN * (len(found) - 1) else set()


def pdf_pages(lines: Sequence[Line]) -> list[list[tuple[int, str, Hashable]]]:
    """A PDF's non-blank lines page by page, placed by their height on the page."""
    pages: dict[int | None, list[tuple[int, str, Hashable]]] = {}
    for line in lines:
        if text := line.text.strip():
            place = round(line.top) if line.top is not None else None
            pages.setdefault(line.page, []).append((line.line, text, place))
    return list(pages.values())
