"""What the aligner compares: records reduced to their comparable forms, the pairing it
builds, and the rare-word index that keeps similarity search cheap. Pure."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol, TypeVar

from pipeline.diff.text import mask_citations, tokenize
from pipeline.models.text import fold_typography

RARE_TOKENS = 4
_WORD = re.compile(r"[^\w#]+")


class Item:
    """One comparable record: a rule or a glossary term, reduced to what the diff needs.
    The normalised forms are computed on first use: most records are unchanged and
    paired on content alone, which keeps a 3,000-rule diff well under a second."""

    def __init__(
        self,
        pos: int,
        id_: str,
        number: str,
        parent: str | None,
        depth: int,
        title: str,
        text: str,
        extras: Sequence[str],
        references: Sequence[str],
        key: str | None = None,
    ) -> None:
        self.pos, self.id, self.number, self.parent, self.depth = pos, id_, number, parent, depth
        self.key = key  # the publisher's stable symbolic key, where the source has one
        self.fields: tuple[str, ...] = (title, text, *extras)
        self.references = tuple(references)
        self.content = (title, text, tuple(extras), self.references)

    @cached_property
    def tokens(self) -> list[str]:
        return tokenize(" ".join(f for f in self.fields if f))

    @cached_property
    def folded(self) -> tuple[str, ...]:
        return tuple(fold_typography(f) for f in self.fields)

    @cached_property
    def masked(self) -> tuple[str, ...]:
        return tuple(mask_citations(f) for f in self.folded)

    @cached_property
    def masked_tokens(self) -> list[str]:
        return tokenize(" ".join(f for f in self.masked if f))

    @cached_property
    def key_tokens(self) -> list[str]:
        """What similarity compares: masked tokens, lower-cased (a publisher's new
        capital, 'Created' for 'created', is not a different word)."""
        return [t.lower() for t in self.masked_tokens]

    @cached_property
    def words(self) -> frozenset[str]:
        """Lower-cased words without punctuation, for the rare-word candidate index."""
        return frozenset(w for w in (_WORD.sub("", t) for t in self.key_tokens) if w)


@dataclass(frozen=True)
class Pair:
    """One pairing: the new position, how it was made, its score and its evidence."""

    new: int
    method: str
    score: float | None = None
    evidence: str = ""


@dataclass
class Alignment:
    """The pairing: old position -> Pair; splits and merges apart."""

    pairs: dict[int, Pair] = field(default_factory=dict)
    new_taken: dict[int, int] = field(default_factory=dict)
    splits: list[tuple[int, list[int]]] = field(default_factory=list)
    merges: list[tuple[list[int], int]] = field(default_factory=list)
    # ("split", old position) or ("merge", new position) -> (method, share of words found)
    # for groups made by containment; groups of consecutive siblings are not listed.
    group_scores: dict[tuple[str, int], tuple[str, float]] = field(default_factory=dict)
    old_in_group: set[int] = field(default_factory=set)
    new_in_group: set[int] = field(default_factory=set)
    # Left over, yet their words stand on the other side in records paired elsewhere:
    # old position -> (new positions, share) and new position -> (old positions, share).
    possible: dict[int, tuple[list[int], float]] = field(default_factory=dict)
    sources: dict[int, tuple[list[int], float]] = field(default_factory=dict)


class RareIndex:
    """Candidate restriction: a record can only be similar to one sharing a rare word."""

    def __init__(self, items: list[Item]) -> None:
        self.postings: dict[str, list[Item]] = defaultdict(list)
        for item in items:
            for word in item.words:  # postings stay in document order whatever this order
                self.postings[word].append(item)

    def candidates(self, item: Item) -> list[Item]:
        words = sorted(
            (w for w in item.words if w in self.postings), key=lambda w: (len(self.postings[w]), w)
        )
        seen: dict[int, Item] = {}
        for word in words[:RARE_TOKENS]:
            for other in self.postings[word]:
                seen.setdefault(other.pos, other)
        return [seen[p] for p in sorted(seen)]


class _Keyed(Protocol):
    @property
    def key(self) -> str | None: ...


K = TypeVar("K", bound=_Keyed)


def unique_keys(items: Sequence[K]) -> dict[str, K]:
    """Stable key -> item, for keys that occur once (a key used twice identifies nothing)."""
    found: dict[str, K] = {}
    twice: set[str] = set()
    for item in items:
        if item.key is not None:
            if item.key in found:
                twice.add(item.key)
            found[item.key] = item
    return {k: v for k, v in found.items() if k not in twice}
