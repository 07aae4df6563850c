"""Every tier of the alignment, in order (pipeline.diff.align says what each does): the
publisher's own keys first where asked, equal content, groups, similar content, headings by
their children, copies by their parents, in place, structure, in order inside a parent,
containment, and a last look at what is left by its words.
Pure: records in, the alignment and the old id -> new id map out.
"""

from __future__ import annotations

from pipeline.diff.align import (
    CHILDREN,
    EXACT,
    KEY,
    MASKED,
    SAME_TEXT,
    SIMILAR,
    SIMILAR_TEXT,
    STRUCTURAL,
    STRUCTURE,
    TYPOGRAPHY,
    Aligner,
    Key,
)
from pipeline.diff.containment import CONTAINED, match_contained, match_in_place
from pipeline.diff.items import Alignment, Item, unique_keys
from pipeline.diff.leftovers import match_leftovers, sources_of_added
from pipeline.diff.siblings import SEQUENCE, match_in_order


def align_items(
    old: list[Item], new: list[Item], *, min_similarity: float | None = None, by_key: bool = False
) -> tuple[Alignment, dict[str, str]]:
    """Pair old and new records; returns the alignment and the old id -> new id map.
    `min_similarity` replaces both similarity thresholds (the similar tier's 0.7 and the
    structural tier's 0.5): raise it to accept fewer, surer pairings. With `by_key`,
    records that carry the same stable key (once in each version) are paired first."""
    similar = SIMILAR if min_similarity is None else min_similarity
    floor = STRUCTURAL if min_similarity is None else min_similarity
    aligner = Aligner(old, new)
    if by_key:
        match_keys(aligner, old, new)
    tiers: list[tuple[Key, str]] = [
        (lambda i: i.content if any(i.fields) else None, EXACT),
        (lambda i: i.folded if any(i.folded) else None, TYPOGRAPHY),
        (lambda i: i.masked if any(i.masked) else None, MASKED),
        (lambda i: i.masked[:2] if any(i.masked[:2]) else None, SAME_TEXT),
    ]
    held: list[tuple[list[Item], list[Item], str]] = []
    for key, method in tiers:
        held += [(olds, news, method) for olds, news in aligner.match_equal(key, method)]
    aligner.match_groups()
    aligner.match_similar(similar)
    aligner.match_held(held)
    aligner.match_by_children()
    aligner.match_held(held, last=True)  # copies whose parent only the children tier placed
    aligner.release()
    match_in_place(aligner, min_similarity)
    aligner.match_structure(floor)
    match_in_order(aligner, aligner.old_children, aligner.new_children, min_similarity)
    match_contained(
        aligner, (SIMILAR_TEXT, CHILDREN, STRUCTURE, CONTAINED, SEQUENCE), min_similarity
    )
    if min_similarity is None:
        aligner.result.possible = match_leftovers(aligner, aligner.new_children)
        aligner.result.sources = sources_of_added(aligner, aligner.result.possible)
    return aligner.result, aligner.id_map


def match_keys(aligner: Aligner, old: list[Item], new: list[Item]) -> None:
    """The publisher's own identity: the same key in both versions is the same record,
    whatever its number or text now (a key used twice in a version pairs nothing)."""
    news = unique_keys(new)
    for key, o in sorted(unique_keys(old).items(), key=lambda kv: kv[1].pos):
        if key in news:
            aligner.pair(o, news[key], KEY, 1.0, f"key {key}")
