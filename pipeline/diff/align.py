"""Align the records of two document versions: which old record became which new one.

Content first. A shared number proves nothing: insert a rule mid-section and every
later sibling shifts, so old cr:1.2.4 lives at cr:1.2.5 and a different rule now
holds cr:1.2.4. Records are therefore paired globally by what they say, and the
number and the place in the tree (parent, position) only break ties between equal
candidates, pair identical texts, and back a pairing that the text already
supports; they never force one. Tiers, each among the records still unpaired:

1. equal content: exact, then typography folded, then cited numbers masked, then
   title and text only (examples or notes differ). A content found once on each side
   pairs at once; a content found several times is held for its copies and paired
   after the similar tier, when the parents are known (identical texts such as
   Netrunner's "A checkpoint occurs." follow their parent, then the number);
2. splits and merges (one record's text spread over 2-3 consecutive siblings);
3. similar content: word similarity of the masked, lower-cased texts at or above
   `min_similarity` (0.7 by default), best first, ties to the structural preference;
4. headings by their children: a record whose subrules mostly moved under one new
   record is that record, however its own few words changed (Riftbound's
   "The Trash" became "Trashes");
5. in place: the same number under a corresponding parent, where either text is the
   other's sentences plus more, or both open alike (see pipeline.diff.containment);
6. structure: the same number (or the same suffix under a renumbered parent) with
   the parents corresponding and similarity at or above `structural_floor` (0.5);
7. containment: a record mostly found, sentence by sentence, in other records is split
   over them or merged into one, even one already paired (see pipeline.diff.containment).

Whatever is left is added or removed: a number that now holds a different rule is a
renumbering plus an addition, not a rewording. Every pairing carries its method and
its evidence, so a report can show the weak ones.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable

from pipeline.diff.groups import find_groups
from pipeline.diff.items import Alignment, Item, Pair, RareIndex
from pipeline.diff.text import Scorer

SIMILAR = 0.7
STRUCTURAL = 0.5
SHORT, SHORT_SIMILAR, SHORT_STRUCTURAL = 10, 0.85, 0.6

# How a pairing was made, from the most to the least certain.
EXACT, TYPOGRAPHY, MASKED, SAME_TEXT = "exact", "typography", "masked", "same-text"
KEY = "key"
SIMILAR_TEXT, CHILDREN, STRUCTURE = "similar", "children", "structural"
CONTENT_METHODS = (EXACT, TYPOGRAPHY, MASKED, SAME_TEXT)


Key = Callable[[Item], object]
Preference = tuple[bool, bool, int, bool, int, int, int]


class Aligner:
    """The pairing in progress: the records left free on each side and the tiers."""

    def __init__(self, old: list[Item], new: list[Item]) -> None:
        self.old, self.new = old, new
        self.new_by_id: dict[str, Item] = {}
        for item in new:
            self.new_by_id.setdefault(item.id, item)
        self.old_children = _children(old)
        self.new_children = _children(new)
        self.result = Alignment()
        self.id_map: dict[str, str] = {}
        self.new_ids_taken: set[str] = set()
        self.reserved_old: set[int] = set()
        self.reserved_new: set[int] = set()

    # ------------------------------------------------------------------ state
    def is_free_old(self, o: Item) -> bool:
        return o.pos not in self.result.pairs and o.pos not in self.result.old_in_group

    def is_free_new(self, n: Item) -> bool:
        return n.pos not in self.result.new_taken and n.pos not in self.result.new_in_group

    def free_old(self) -> list[Item]:
        return [o for o in self.old if self.is_free_old(o)]

    def free_new(self) -> list[Item]:
        return [n for n in self.new if self.is_free_new(n)]

    def pair(
        self, o: Item, n: Item, method: str, score: float | None = None, evidence: str = ""
    ) -> None:
        self.result.pairs[o.pos] = Pair(n.pos, method, score, evidence)
        self.result.new_taken[n.pos] = o.pos
        self.id_map.setdefault(o.id, n.id)
        self.new_ids_taken.add(n.id)

    def parent_consistent(self, o: Item, n: Item) -> bool:
        if o.parent is None or n.parent is None:
            return o.parent == n.parent
        mapped = self.id_map.get(o.parent)
        if mapped is not None:
            return mapped == n.parent
        return o.parent == n.parent and n.parent not in self.new_ids_taken

    def same_suffix(self, o: Item, n: Item) -> bool:
        """The same id, or the same last step under the parent's new home."""
        if o.id == n.id:
            return True
        if o.parent is None or n.parent is None or not o.id.startswith(o.parent):
            return False
        return self.id_map.get(o.parent) == n.parent and n.id == n.parent + o.id[len(o.parent) :]

    def children_agree(self, o: Item, n: Item) -> int:
        """How many of the old record's subrules are paired with subrules of the new one."""
        count = 0
        for kid in self.old_children.get(o.id, []):
            pair = self.result.pairs.get(kid.pos)
            if pair is not None and self.new[pair.new].parent == n.id:
                count += 1
        return count

    def preference(self, o: Item, n: Item) -> Preference:
        """Structure breaks ties: the parent corresponds, then the same number (or suffix),
        then subrules paired under it, then the same depth, then the nearest position;
        positions make it total."""
        return (
            self.parent_consistent(o, n),
            self.same_suffix(o, n),
            self.children_agree(o, n),
            o.depth == n.depth,
            -abs(o.pos - n.pos),
            -o.pos,
            -n.pos,
        )

    def tree_offers_another(self, o: Item, n: Item) -> bool:
        """Whether a content found once on each side is left for the later tiers: the tree
        contradicts the pairing (o's parent went elsewhere) and offers `n` another old
        record, free, of the same content but for cited numbers, at the same suffix under
        the old parent now at n's parent. Insert a rule before two siblings whose subrules
        differ only in citing their own numbers (MTG's 723.1a and 723.2a), and the first's
        renumbered citation makes its text the second's old text, at the second's old id."""
        if self.parent_consistent(o, n) or n.parent is None:
            return False
        new_parent = self.new_by_id.get(n.parent)
        old_pos = self.result.new_taken.get(new_parent.pos) if new_parent is not None else None
        if old_pos is None:
            return False
        return any(
            self.is_free_old(other)
            and other.masked == n.masked
            and self.parent_consistent(other, n)
            and self.same_suffix(other, n)
            for other in self.old_children.get(self.old[old_pos].id, [])
        )

    def take_greedy(
        self,
        ordered: list[tuple[Item, Item]],
        method: str,
        scores: dict[tuple[int, int], float] | None = None,
    ) -> None:
        for o, n in ordered:
            if self.is_free_old(o) and self.is_free_new(n):
                self.pair(o, n, method, (scores or {}).get((o.pos, n.pos)))

    # ------------------------------------------------------------------ tiers
    def match_equal(self, key: Key, method: str) -> list[tuple[list[Item], list[Item]]]:
        """Pair contents found once on each side; return the groups with several copies,
        whose members are held back from the similar tier for their own copies."""
        groups: dict[object, tuple[list[Item], list[Item]]] = {}
        for o in self.free_old():
            k = key(o)
            if k and o.pos not in self.reserved_old:
                groups.setdefault(k, ([], []))[0].append(o)
        for n in self.free_new():
            k = key(n)
            if k in groups and n.pos not in self.reserved_new:
                groups[k][1].append(n)
        held: list[tuple[list[Item], list[Item]]] = []
        score = 1.0 if method == EXACT else None
        for olds, news in groups.values():
            if len(olds) > 1 or len(news) > 1:
                # A copy still at its own number under its own parent is unchanged there.
                for o in olds:
                    same = self.new_by_id.get(o.id)
                    if same is not None and same in news and self.parent_consistent(o, same):
                        self.pair(o, same, method, score)
                olds = [o for o in olds if self.is_free_old(o)]
                news = [n for n in news if self.is_free_new(n)]
            if len(olds) == 1 and len(news) == 1:
                if not self.tree_offers_another(olds[0], news[0]):
                    self.pair(olds[0], news[0], method, score)
            elif olds and news:
                held.append((olds, news))
                self.reserved_old.update(o.pos for o in olds)
                self.reserved_new.update(n.pos for n in news)
        return held

    def match_held(
        self, held: list[tuple[list[Item], list[Item], str]], last: bool = False
    ) -> None:
        """Copies of one content: parents first, and a copy pairs only with a copy whose
        parent corresponds (the closest number and position decide between those). On the
        `last` pass a single copy left on each side pairs too (there is no choice to make);
        any other leftover is no evidence of anything and stays for the structural tier."""
        held.sort(key=lambda g: (min(i.depth for i in g[0]), g[0][0].pos))
        for olds, news, method in held:
            candidates = sorted(
                (
                    (self.preference(o, n), o, n)
                    for o in olds
                    for n in news
                    if self.parent_consistent(o, n)
                ),
                key=lambda c: c[0],
                reverse=True,
            )
            self.take_greedy([(o, n) for _, o, n in candidates], method)
            left_old = [o for o in olds if self.is_free_old(o)]
            left_new = [n for n in news if self.is_free_new(n)]
            if last and len(left_old) == 1 and len(left_new) == 1:
                self.pair(
                    left_old[0],
                    left_new[0],
                    method,
                    None,
                    "the one copy of this text left on each side",
                )

    def release(self) -> None:
        self.reserved_old.clear()
        self.reserved_new.clear()

    def unreserved(self) -> tuple[list[Item], list[Item]]:
        """The free records of each side that no held copy reserves."""
        return (
            [o for o in self.free_old() if o.pos not in self.reserved_old],
            [n for n in self.free_new() if n.pos not in self.reserved_new],
        )

    def match_groups(self) -> None:
        """Splits (one old over consecutive new siblings) and merges (the reverse)."""
        olds, news = self.unreserved()
        for single, group in find_groups(olds, news):
            self.result.splits.append((single.pos, [p.pos for p in group]))
            self.result.old_in_group.add(single.pos)
            self.result.new_in_group.update(p.pos for p in group)
        olds, news = self.unreserved()  # the splits' records are no longer free
        for single, group in find_groups(news, olds):
            self.result.merges.append(([p.pos for p in group], single.pos))
            self.result.new_in_group.add(single.pos)
            self.result.old_in_group.update(p.pos for p in group)

    def match_similar(self, threshold: float) -> None:
        olds, news = self.unreserved()
        index = RareIndex(news)
        scored: list[tuple[float, Preference, Item, Item]] = []
        for o in olds:
            scorer = Scorer(o.key_tokens)
            for n in index.candidates(o):
                sim = scorer.at_least(n.key_tokens, threshold)
                if sim is None:
                    continue
                preference = self.preference(o, n)
                # One word in a short sentence is a large share of it ("this turn" and
                # "this combat" effects): away from its parent a short text needs more.
                if (
                    not preference[0]
                    and max(len(o.key_tokens), len(n.key_tokens)) < SHORT
                    and sim < SHORT_SIMILAR
                ):
                    continue
                scored.append((sim, preference, o, n))
        # Scores within a hundredth are a tie, and structure decides it.
        scored.sort(key=lambda s: (round(s[0], 2), s[1], s[0]), reverse=True)
        for sim, _, o, n in scored:
            if self.is_free_old(o) and self.is_free_new(n):
                self.pair(o, n, SIMILAR_TEXT, sim)

    def match_by_children(self) -> None:
        """A record whose subrules mostly moved under one new record is that record."""
        for o in sorted(self.free_old(), key=lambda i: (-i.depth, i.pos)):
            kids = self.old_children.get(o.id, [])
            if not kids or not self.is_free_old(o):
                continue
            votes: Counter[int] = Counter()
            paired = 0
            for kid in kids:
                pair = self.result.pairs.get(kid.pos)
                parent = self.new[pair.new].parent if pair is not None else None
                target = self.new_by_id.get(parent) if parent is not None else None
                if target is not None:
                    paired += 1
                    votes[target.pos] += 1
            if not votes:
                continue
            best = max(votes, key=lambda p: (votes[p], self.preference(o, self.new[p])))
            n, count = self.new[best], votes[best]
            # Most of the subrules that survive went there, and they are a fair share of all.
            if (
                not self.is_free_new(n)
                or count < min(2, len(kids))
                or 2 * count <= paired
                or 3 * count < len(kids)
            ):
                continue
            score = Scorer(o.key_tokens).at_least(n.key_tokens, 0.0)
            # At its own number its subrules did not move: they are still under it.
            went = "are still under it" if n.id == o.id else f"moved under {n.id}"
            self.pair(o, n, CHILDREN, score, f"{count} of its {len(kids)} subrules {went}")

    def home_of(self, o: Item) -> str | None:
        """Where the old record's parent lives now: its pairing, else where most of its
        paired siblings went, else the same id if that is still free."""
        if o.parent is None:
            return None
        mapped = self.id_map.get(o.parent)
        if mapped is not None:
            return mapped
        votes: Counter[str] = Counter()
        siblings = self.old_children.get(o.parent, [])
        for sib in siblings:
            pair = self.result.pairs.get(sib.pos)
            parent = self.new[pair.new].parent if pair is not None else None
            if parent is not None:
                votes[parent] += 1
        if votes:
            best, count = max(votes.items(), key=lambda v: (v[1], v[0] == o.parent, v[0]))
            if 2 * count > sum(votes.values()):
                return best
        return o.parent if o.parent not in self.new_ids_taken else None

    def match_structure(self, floor: float) -> None:
        """Under the parent's new home (or, at the top, at the same number), the free record
        with the most text in common, if it shares at least `floor` of its words: a
        rewording in place, not a different rule."""
        for o in sorted(self.free_old(), key=lambda i: (i.depth, i.pos)):
            home = self.home_of(o)
            if o.parent is None:
                same = self.new_by_id.get(o.id)
                candidates = [same] if same is not None and same.parent is None else []
            elif home is None:
                continue
            else:
                candidates = self.new_children.get(home, [])
            scorer = Scorer(o.key_tokens)
            best: tuple[float, Preference, Item] | None = None
            for n in candidates:
                if not self.is_free_new(n):
                    continue
                # Two words of a heading share one by chance ("Triggered Abilities",
                # "Static Abilities"): a short text needs more in common.
                short = max(len(o.key_tokens), len(n.key_tokens)) < SHORT
                score = scorer.at_least(
                    n.key_tokens, max(floor, SHORT_STRUCTURAL) if short else floor
                )
                if score is None:
                    continue
                entry = (score, self.preference(o, n), n)
                if best is None or entry[:2] > best[:2]:
                    best = entry
            if best is not None:
                score, _, n = best
                where = "same number" if o.id == n.id else f"under {n.parent or 'the top'}"
                self.pair(o, n, STRUCTURE, score, f"{where}, similarity {score:g}")


def _children(items: list[Item]) -> dict[str, list[Item]]:
    out: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        if item.parent is not None:
            out[item.parent].append(item)
    return out
