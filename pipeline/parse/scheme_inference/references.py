"""How a document cites its own rules: the words that stand before cited numbers (`see
rule 355.6`, `Section 1.10`) and numbers in brackets (`[1.0.1a]`, `（10.5.1）`).

Learnt from the text: a word is a keyword when it stands before numbers the
document prints as rules several times and often enough among all its uses
(`see` before `11.`, not `in` before `2 cards`); brackets when several bracketed
numbers are numbers of the document.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from pipeline.models.content import Line
from pipeline.parse.numbered.numbers import Numbering
from pipeline.parse.numbered.references import LIST

BRACKETED = re.compile(r"\[([^\]]+)\]|（([^）]+)）")
WORD = re.compile(r"(?<!\w)([^\W\d_]+)\b")
MIN_CITATIONS = 3
LONG = 3  # digits of a number of one segment that is no count (`rule 346`, not `draw 2`)
SHARE = 0.2  # of a word's uses that stand before a number of the document


def infer_references(
    lines: Sequence[Line], numbering: Numbering, numbers: set[str]
) -> tuple[list[str], bool]:
    """The keywords (lower case, singular when the document writes both) and whether
    bracketed numbers are references; `numbers` are the numbers the document's rules print."""
    cited = re.compile(rf"\s+(?:{numbering.cited()})(?![A-Za-z0-9])")
    uses: Counter[str] = Counter()
    before: dict[str, set[str]] = {}
    brackets = 0
    for line in lines:
        text = line.text
        for match in WORD.finditer(text):
            word = match.group(1).casefold()
            uses[word] += 1
            after = cited.match(text, match.end())
            number = after.group(0).strip() if after is not None else ""
            # a short number of one segment is a count as often as a citation (`draw 2`)
            if number in numbers and (numbering.parent_of(number) or len(number) >= LONG):
                before.setdefault(word, set()).add(number)
        for bracketed in BRACKETED.finditer(text):
            parts = LIST.split((bracketed.group(1) or bracketed.group(2)).strip())
            brackets += all(p in numbers for p in parts)
    # several different numbers: `version 1.3` and `version 1.4` cite no rule
    words = sorted(
        w for w, n in before.items() if len(n) >= MIN_CITATIONS and len(n) >= SHARE * uses[w]
    )
    keywords = [w for w in words if not (w.endswith("s") and w[:-1] in words)]
    return keywords, brackets >= MIN_CITATIONS
