"""`search WORDS`: the records of the current versions that hold every word, best first, each
with its citation and a snippet. JSON only, like `store.reader`.

A scan, not an index: each searched version's file is decoded once per reader (the MTG
rules, 2.8 MB, in a few hundredths of a second), so search needs no export and no index
that could fall out of step with the stored versions. A word matches the start of a
word in the text (`tramp` finds "trample"), case and accents aside.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

from pipeline.errors import UsageError
from pipeline.store.reader import StoredCorpus

# Where a word is found counts for more in a heading than in an example.
WEIGHTS = {"title": 6.0, "term": 6.0, "cards": 4.0, "text": 2.0, "definition": 2.0,
           "question": 2.0, "answer": 2.0, "examples": 1.0, "notes": 1.0}  # fmt: skip
HEADINGS = ("title", "term", "cards")
EXACT = 20.0  # a record whose heading is the query itself comes first
KINDS = {"records": "rule", "glossary": "glossary", "rulings": "ruling"}
SNIPPET = 160  # characters of context around the first match
_WORD = re.compile(r"\w+")
_MARKS = re.compile(r"[\u0300-\u036f]")  # combining accents, apart after NFKD


@dataclass(frozen=True)
class Hit:
    """One record that holds every word: where it is, how well it matched, a snippet."""

    document: str
    version: str
    citation: str
    kind: str  # rule, glossary or ruling
    heading: str | None
    snippet: str
    score: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def fold(text: str) -> str:
    """Lower case without accents: how both the words and the records are compared."""
    return _MARKS.sub("", unicodedata.normalize("NFKD", text)).casefold()


def words_of(query: str) -> list[str]:
    """The query's words, folded, each once: a word asked twice is found by one look, so
    the time of a search grows with the words it names, not with how often they repeat."""
    words = list(dict.fromkeys(_WORD.findall(fold(query))))
    if not words:
        raise UsageError(f"search {query!r}: give at least one word to look for")
    return words


def _fields(kind: str, record: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, text) pairs a record is searched in."""
    if kind == "glossary":
        return [("term", record.get("term") or ""), ("definition", record.get("definition") or "")]
    if kind == "rulings":
        cards = " ".join(record.get("card_titles") or [])
        parts = ("question", "answer", "text")
        return [("cards", cards), *((p, record.get(p) or "") for p in parts)]
    return [
        ("title", record.get("title") or ""),
        ("text", record.get("text") or ""),
        *(("examples", e) for e in record.get("examples") or []),
        *(("notes", n) for n in record.get("notes") or []),
    ]


def _snippet(text: str, at: int) -> str:
    start = max(0, at - SNIPPET // 3)
    end = min(len(text), start + SNIPPET)
    piece = " ".join(text[start:end].split())
    return ("…" if start else "") + piece + ("…" if end < len(text) else "")


def score_record(
    kind: str, record: dict[str, Any], words: list[str], patterns: list[re.Pattern[str]]
) -> tuple[float, str] | None:
    """(score, snippet) when every word starts a word of the record, else None."""
    fields = [(name, text, fold(text)) for name, text in _fields(kind, record) if text]
    joined = " ".join(folded for _, _, folded in fields)
    if not all(word in joined for word in words):
        return None  # the cheap test first: most records lack a word outright
    score, first = 0.0, None
    for pattern in patterns:
        found = 0.0
        for name, text, folded in fields:
            hits = pattern.findall(folded)
            if hits:
                found += WEIGHTS[name] * len(hits)
                if first is None and name not in HEADINGS:
                    match = pattern.search(folded)
                    first = (text, match.start() if match else 0)
        if not found:
            return None
        score += found
    heading = _WORD.findall(next((f for n, _, f in fields if n in HEADINGS), ""))
    if list(dict.fromkeys(heading)) == words:  # the record is named exactly what was asked for
        score += EXACT
    if first is None:  # matched only in the heading: the text's start says what it is
        body = next((t for n, t, _ in fields if n not in HEADINGS), "")
        first = (body or fields[0][1], 0)
    return score, _snippet(*first)


def search_corpus(
    stored: StoredCorpus,
    query: str,
    *,
    document: str | None = None,
    version: str | None = None,
    limit: int | None = 20,
) -> list[Hit]:
    """Every record holding all the words, best first (then in document order)."""
    words = words_of(query)
    patterns = [re.compile(rf"\b{re.escape(w)}") for w in words]
    if version is not None and document is None:
        raise UsageError("search --version needs --doc (versions belong to one document)")
    names = [document] if document else stored.documents()
    hits: list[tuple[float, int, Hit]] = []
    order = 0
    for name in names:
        if version is None and stored.current(name) is None:
            continue
        here = stored.version(name, version)
        data = here.whole()
        for key, kind in KINDS.items():
            for record in data.get(key) or []:
                order += 1
                found = score_record(key, record, words, patterns)
                if found is None:
                    continue
                heading = record.get("title") or record.get("term")
                if key == "rulings":
                    heading = ", ".join(record.get("card_titles") or []) or None
                hit = Hit(name, here.version, record["id"], kind, heading, found[1], found[0])
                hits.append((-found[0], order, hit))
    hits.sort(key=lambda item: (item[0], item[1]))
    chosen = hits if limit is None else hits[:limit]
    return [hit for _, _, hit in chosen]
