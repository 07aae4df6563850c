"""Two versions of a document -> typed changes and a renumbering map. Pure.

Rules are aligned by content (see diff_align), so a renumbering is reported as
one map, not as hundreds of rewordings. Glossary terms are compared by id (a
term is its own name): reworded, typography-only or reference-only when the
definition differs, added or removed otherwise; their ids start `glossary:`.

Each pair whose content differs is classified by the first test it passes:
typography-only (quotes, dashes, ellipses, whitespace, punctuation spacing),
reference-only (only cited rule numbers differ: masked, or every changed number
follows the renumbering map), example-or-note-only (title and text the same),
else reworded. A pair whose id changed is renumbered (its parent maps onto the
new parent) or moved (it sits under another section or chapter); how its text
changed as well goes in `text_change`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from pipeline.diff.align import CHILDREN, SIMILAR_TEXT, STRUCTURE
from pipeline.diff.containment import CONTAINED
from pipeline.diff.items import Alignment, Item
from pipeline.diff.pairing import align_items
from pipeline.diff.siblings import SEQUENCE
from pipeline.diff.terms import align_same_id
from pipeline.diff.text import drop_citing_words, number_changes, similarity, tokenize, word_ops
from pipeline.models.changes import Change, ChangeClass
from pipeline.models.diffs import DocumentDiff, RenumberEntry
from pipeline.models.records import Document, GlossaryTerm, Rule

CHANGE_CLASSES: tuple[ChangeClass, ...] = get_args(ChangeClass)
# Renumbered changes whose text changed no more than this are the noise a reader hides.
_RENUMBERING_NOISE: tuple[ChangeClass | None, ...] = (None, "typography-only", "reference-only")
_RULES, _GLOSSARY = 0, 1
# A pairing made on similarity, children or structure below this is flagged for a reader.
WEAK_BELOW = 0.85
_JUDGED = (SIMILAR_TEXT, CHILDREN, STRUCTURE, CONTAINED, SEQUENCE)


def rule_items(records: list[Rule]) -> list[Item]:
    return [
        Item(
            pos,
            r.id,
            r.number,
            r.parent,
            r.depth,
            r.title or "",
            r.text,
            [*r.examples, *r.notes, *r.bullets],
            r.references,
            r.key,
        )
        for pos, r in enumerate(records)
    ]


def glossary_items(terms: list[GlossaryTerm]) -> list[Item]:
    return [
        Item(pos, t.id, t.id, None, 0, t.term, t.definition, [], t.references)
        for pos, t in enumerate(terms)
    ]


def classify_content(old: Item, new: Item, numbers: dict[str, str]) -> ChangeClass | None:
    """How the content of a pair differs; None when identical. `numbers` maps old rule
    numbers to new ones (the renumbering), so a shifted citation counts as a reference."""
    if old.content == new.content:
        return None
    if old.folded == new.folded:
        return "typography-only" if old.references == new.references else "reference-only"
    if old.masked == new.masked or _numbers_follow(old, new, numbers):
        return "reference-only"
    if [drop_citing_words(m) for m in old.masked] == [drop_citing_words(m) for m in new.masked]:
        return "reference-only"
    if old.masked[:2] == new.masked[:2]:
        return "example-or-note-only"
    return "reworded"


def _numbers_follow(old: Item, new: Item, numbers: dict[str, str]) -> bool:
    if len(old.folded) != len(new.folded):
        return False
    for a, b in zip(old.folded, new.folded, strict=True):
        pairs = number_changes(tokenize(a), tokenize(b))
        if pairs is None or any(numbers.get(x) != y for x, y in pairs):
            return False
    return True


def _joined(items: list[Item]) -> list[str]:
    return [t for item in items for t in item.tokens]


def _classify_joined(olds: list[Item], news: list[Item]) -> ChangeClass | None:
    """Text change of a split or merge: the records of each side joined."""
    if _joined(olds) == _joined(news):
        return None
    folded = [tokenize(" ".join(f for g in side for f in g.folded)) for side in (olds, news)]
    if folded[0] == folded[1]:
        return "typography-only"
    if [t for g in olds for t in g.masked_tokens] == [t for g in news for t in g.masked_tokens]:
        return "reference-only"
    return "reworded"


def _found_in(share: float | None, group: list[Item]) -> str | None:
    """Why a group made by containment was made: how much of the old text it holds."""
    if share is None:
        return None
    return f"{share:.0%} of the old words in sentences of " + ", ".join(g.id for g in group)


@dataclass(frozen=True)
class _Ordered:
    key: tuple[int, int, int, int]
    change: Change


def _anchor(pos: int, alignment: Alignment) -> int:
    """New position after which a record with no counterpart belongs: that of the nearest
    preceding old record that has one."""
    for p in range(pos - 1, -1, -1):
        if p in alignment.pairs:
            return alignment.pairs[p].new
    return -1


def is_weak(method: str, score: float | None) -> bool:
    """A pairing a reader should check: made on similarity, children or structure, and
    with less than WEAK_BELOW of the words in common."""
    return method in _JUDGED and (score is None or score < WEAK_BELOW)


def _group_change(
    cls: ChangeClass, olds: list[Item], news: list[Item], method: str, share: float | None
) -> Change:
    """A split (one old record, several new) or a merge (several old, one new)."""
    return Change(
        cls=cls,
        old_id=olds[0].id if cls == "split" else None,
        new_id=news[0].id if cls == "merged" else None,
        old_ids=[g.id for g in olds],
        new_ids=[g.id for g in news],
        method=method,
        similarity=similarity(_joined(olds), _joined(news)),
        text_change=_classify_joined(olds, news),
        words=word_ops(_joined(olds), _joined(news)),
        weak=share is not None and share < WEAK_BELOW,
        evidence=_found_in(share, news),
    )


def _collect(
    part: int,
    old: list[Item],
    new: list[Item],
    alignment: Alignment,
    id_map: dict[str, str],
    numbers: dict[str, str],
    renumbering: list[tuple[int, RenumberEntry]],
) -> list[_Ordered]:
    out: list[_Ordered] = []
    for o_pos, paired in alignment.pairs.items():
        n_pos, method = paired.new, paired.method
        o, n = old[o_pos], new[n_pos]
        content = classify_content(o, n, numbers)
        if o.id == n.id and content is None:
            continue
        sim = 1.0 if content is None else similarity(o.tokens, n.tokens)
        weak = is_weak(method, paired.score)
        cls, text_change = content, None
        if o.id != n.id:
            entry = RenumberEntry(
                old_id=o.id, new_id=n.id, method=method, similarity=sim, weak=weak
            )
            renumbering.append((n_pos, entry))
            parent_ok = (o.parent is None and n.parent is None) or (
                o.parent is not None and id_map.get(o.parent, o.parent) == n.parent
            )
            cls, text_change = ("renumbered" if parent_ok else "moved"), content
        change = Change(
            cls=cls,
            old_id=o.id,
            new_id=n.id,
            similarity=sim,
            text_change=text_change,
            method=method,
            weak=weak,
            evidence=paired.evidence or None,
            words=word_ops(o.tokens, n.tokens),
        )
        out.append(_Ordered((part, n_pos, 0, o_pos), change))
    for o_pos, n_list in alignment.splits:
        method, share = alignment.group_scores.get(("split", o_pos), ("split", None))
        change = _group_change("split", [old[o_pos]], [new[p] for p in n_list], method, share)
        out.append(_Ordered((part, n_list[0], 0, o_pos), change))
    for o_list, n_pos in alignment.merges:
        method, share = alignment.group_scores.get(("merge", n_pos), ("merge", None))
        change = _group_change("merged", [old[p] for p in o_list], [new[n_pos]], method, share)
        out.append(_Ordered((part, n_pos, 0, o_list[0]), change))
    for o in old:
        if o.pos not in alignment.pairs and o.pos not in alignment.old_in_group:
            out.append(
                _Ordered((part, _anchor(o.pos, alignment), 1, o.pos), _left_old(o, new, alignment))
            )
    for n in new:
        if n.pos not in alignment.new_taken and n.pos not in alignment.new_in_group:
            out.append(_Ordered((part, n.pos, 0, -1), _left_new(n, old, alignment)))
    return out


def _left_old(o: Item, new: list[Item], alignment: Alignment) -> Change:
    """Removed, or, where its words stand in rules paired with others, possibly moved."""
    if o.pos not in alignment.possible:
        return Change(cls="removed", old_id=o.id, words=word_ops(o.tokens, []))
    targets, share = alignment.possible[o.pos]
    group = [new[t] for t in targets]
    joined = _joined(group)
    return Change(
        cls="possibly-moved",
        old_id=o.id,
        new_id=group[0].id,
        new_ids=[g.id for g in group],
        similarity=similarity(o.tokens, joined),
        text_change=_classify_joined([o], group),
        method=CONTAINED,
        weak=True,
        evidence=f"{share:.0%} of its content words in sentences of "
        + ", ".join(g.id for g in group)
        + ", which stand for other rules too",
        words=word_ops(o.tokens, joined),
    )


def _left_new(n: Item, old: list[Item], alignment: Alignment) -> Change:
    """Added; where its words stood in rules paired with others, it says where."""
    if n.pos not in alignment.sources:
        return Change(cls="added", new_id=n.id, words=word_ops([], n.tokens))
    sources, share = alignment.sources[n.pos]
    return Change(
        cls="added",
        new_id=n.id,
        evidence="possibly moved from "
        + ", ".join(old[s].id for s in sources)
        + f" ({share:.0%} of its content words stood in its sentences)",
        words=word_ops([], n.tokens),
    )


def diff_documents(
    old: Document,
    new: Document,
    *,
    min_similarity: float | None = None,
    by_key: bool | None = None,
) -> DocumentDiff:
    """Every change from `old` to `new` (any two versions), sorted in new-document order.
    `min_similarity` raises (or lowers) the similarity a pairing made on similarity or
    structure needs; None keeps the defaults (0.7 similar, 0.5 structural). `by_key`
    pairs records by the publisher's stable key first (exact by construction); by
    default it does so when both versions carry keys (Null Signal Games' YAML source)."""
    if by_key is None:
        by_key = any(r.key for r in old.records) and any(r.key for r in new.records)
    old_rules, new_rules = rule_items(old.records), rule_items(new.records)
    alignment, id_map = align_items(
        old_rules, new_rules, min_similarity=min_similarity, by_key=by_key
    )
    numbers = {
        old_rules[o].number: new_rules[p.new].number
        for o, p in alignment.pairs.items()
        if old_rules[o].id != new_rules[p.new].id
    }
    renumbering: list[tuple[int, RenumberEntry]] = []
    ordered = _collect(_RULES, old_rules, new_rules, alignment, id_map, numbers, renumbering)
    old_terms, new_terms = glossary_items(old.glossary), glossary_items(new.glossary)
    ordered += _collect(
        _GLOSSARY, old_terms, new_terms, align_same_id(old_terms, new_terms), {}, numbers, []
    )
    ordered.sort(key=lambda o: o.key)
    changes = [o.change for o in ordered]
    summary = {cls: 0 for cls in CHANGE_CLASSES}
    for change in changes:
        summary[change.cls] += 1
    return DocumentDiff(
        document=new.document,
        old_version=old.version or "",
        new_version=new.version or "",
        summary=summary,
        changes=changes,
        renumbering=[entry for _, entry in sorted(renumbering, key=lambda r: r[0])],
        min_similarity=min_similarity,
    )


def is_renumbering_noise(change: Change) -> bool:
    """A renumbering whose text is unchanged but for typography or shifted citations."""
    return change.cls == "renumbered" and change.text_change in _RENUMBERING_NOISE


def filter_changes(
    diff: DocumentDiff, hide_renumbering: bool = False, hide_reference_only: bool = False
) -> list[Change]:
    """The changes a reader asked to see. A renumbered rule that was also reworded stays
    visible; moves, splits and merges always do. The JSON keeps everything."""
    return [
        c
        for c in diff.changes
        if not (hide_renumbering and is_renumbering_noise(c))
        and not (hide_reference_only and c.cls == "reference-only")
    ]
