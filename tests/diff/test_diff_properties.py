"""Property tests: mutate a real parsed document (MTG 20251114, FaB 2.14.0) the way a
publisher would, and check the diff classifies every change exactly.

Each mutation knows what it did (which rule it inserted, which numbers shifted,
which citations it rewrote), so the expected classification comes from the edit,
not from the diff. Renumbering rewrites every citation of a shifted number in
rules and glossary, as the publishers do; those citers must come out
reference-only (or, when renumbered themselves, renumbered with a reference-only
text change) and nothing else.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.diff.documents import CHANGE_CLASSES, diff_documents
from pipeline.extract.text import extract_text_lines
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document, ParseOptions, Rule
from pipeline.models.text import fold_typography
from pipeline.parse.fab import cr as fab
from pipeline.parse.mtg import cr as mtg
from pipeline.report.html import render_html
from pipeline.report.markdown import render_markdown
from tests.support.helpers import SHARED

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

REAL = {
    "mtg": ("mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt", mtg.parse, "20251114"),
    "fab": ("fab/comprehensive-rules/2.14.0/en-fab-cr.txt", fab.parse, "2.14.0"),
}
LETTERS = "abcdefghijkmnpqrstuvwxyz"  # MTG subrule letters skip l and o
NONSENSE = [
    "brindle",
    "quasp",
    "morrow",
    "tallith",
    "vexen",
    "plurn",
    "odrick",
    "sallow",
    "wimble",
    "crantor",
    "feldspur",
    "yarrow",
    "gimlet",
    "hoskin",
    "umbral",
    "zephyrine",
]
_CITATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)*[a-z]?(?!\w)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(])")
# Each example diffs a whole real document (about a second): make test runs a few per
# property, and RULESCORPUS_PROPERTY_EXAMPLES=200 a long search.
PROPERTY = settings(
    max_examples=int(os.environ.get("RULESCORPUS_PROPERTY_EXAMPLES", "6")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@cache
def real_document(name: str) -> Document:
    path, parse, version = REAL[name]
    lines = extract_text_lines((SHARED / path).read_bytes())
    return parse(lines, {}, ParseOptions(f"{name}/cr", "txt", version))


# --------------------------------------------------------------------------- document surgery


def number_of(rule_id: str) -> str:
    return rule_id.split(":", 1)[1]


def id_of(template: str, number: str) -> str:
    return template.split(":", 1)[0] + ":" + number


def next_number(number: str) -> str | None:
    if number[-1].isalpha():
        i = LETTERS.find(number[-1])
        return None if i < 0 or i + 1 >= len(LETTERS) else number[:-1] + LETTERS[i + 1]
    head, tail = re.fullmatch(r"(.*?)(\d+)", number).groups()  # type: ignore[union-attr]
    return head + str(int(tail) + 1)


def children_of(records: list[Rule]) -> dict[str | None, list[Rule]]:
    children: dict[str | None, list[Rule]] = defaultdict(list)
    for rule in records:
        children[rule.parent].append(rule)
    return children


def subtree(records: list[Rule], root: str) -> list[str]:
    """The root and every descendant, in document order."""
    inside = {root}
    for rule in records:
        if rule.parent in inside:
            inside.add(rule.id)
    return [r.id for r in records if r.id in inside]


def shift_map(records: list[Rule], old_id: str, new_id: str) -> dict[str, str]:
    """A record renumbered with its subtree: cr:1.2.4a follows cr:1.2.4 to cr:1.2.5a."""
    return {d: new_id + d[len(old_id) :] for d in subtree(records, old_id)}


def end_of_subtree(records: list[Rule], root: str) -> int:
    last = subtree(records, root)[-1]
    return next(i for i, r in enumerate(records) if r.id == last) + 1


@cache
def sibling_groups(name: str) -> list[list[str]]:
    """Rules or subrules sharing a parent (never chapters or sections), two or more, whose
    last number can be incremented."""
    groups = []
    for parent, kids in children_of(real_document(name).records).items():
        if parent is None or len(kids) < 2 or {k.kind for k in kids} - {"rule", "subrule"}:
            continue
        if len({k.kind for k in kids}) == 1 and next_number(kids[-1].number) is not None:
            groups.append([k.id for k in kids])
    return groups


@dataclass
class Expected:
    added: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)
    reworded: set[str] = field(default_factory=set)
    typography: set[str] = field(default_factory=set)
    reference_only: set[str] = field(default_factory=set)
    renumbered: dict[str, str] = field(default_factory=dict)
    moved: dict[str, str] = field(default_factory=dict)
    split: list[tuple[list[str], list[str]]] = field(default_factory=list)
    merged: list[tuple[list[str], list[str]]] = field(default_factory=list)
    rewritten: set[str] = field(default_factory=set)
    targets: set[str] = field(default_factory=set)


def rewrite(
    doc: Document,
    records: list[Rule],
    id_map: dict[str, str],
    cite_map: dict[str, str] | None = None,
) -> tuple[Document, set[str]]:
    """Renumber records by id_map and rewrite every citation of a renumbered number in
    rules and glossary. Returns the new document and the (old) ids whose content changed."""
    refs = {**id_map, **(cite_map or {})}
    numbers = {number_of(k): number_of(v) for k, v in refs.items() if not k.startswith("new:")}

    def cite(text: str) -> str:
        return _CITATION.sub(lambda m: numbers.get(m.group(0), m.group(0)), text)

    def cite_refs(references: list[str]) -> list[str]:
        return list(dict.fromkeys(refs.get(r, r) for r in references))

    changed: set[str] = set()
    out: list[Rule] = []
    for rule in records:
        update = {
            "text": cite(rule.text),
            "examples": [cite(e) for e in rule.examples],
            "notes": [cite(n) for n in rule.notes],
            "bullets": [cite(b) for b in rule.bullets],
            "references": cite_refs(rule.references),
        }
        if any(getattr(rule, k) != v for k, v in update.items()):
            changed.add(rule.id)
        new_id = id_map.get(rule.id, rule.id)
        parent = id_map.get(rule.parent, rule.parent) if rule.parent else None
        if rule.id in changed or new_id != rule.id or parent != rule.parent:
            update |= {"id": new_id, "number": number_of(new_id), "parent": parent}
            rule = rule.model_copy(update=update)
        out.append(rule)
    glossary = []
    for term in doc.glossary:
        update = {"definition": cite(term.definition), "references": cite_refs(term.references)}
        if any(getattr(term, k) != v for k, v in update.items()):
            changed.add(term.id)
        glossary.append(term.model_copy(update=update))
    return doc.model_copy(update={"records": out, "glossary": glossary}), changed


def new_rule(like: Rule, words: list[str], **fields: object) -> Rule:
    return Rule(
        id="new:1",
        number="new",
        kind=like.kind,
        parent=like.parent,
        depth=like.depth,
        text=" ".join(words).capitalize() + ".",
        location=like.location,
    ).model_copy(update=fields)


def mutate_insert(
    doc: Document, group: list[str], j: int, words: list[str]
) -> tuple[Document, Expected]:
    records = list(doc.records)
    by_id = {r.id: r for r in records}
    numbers = [by_id[s].number for s in group[j:]]
    numbers.append(next_number(numbers[-1]))  # type: ignore[arg-type]
    id_map: dict[str, str] = {}
    for sib, number in zip(group[j:], numbers[1:], strict=True):
        id_map |= shift_map(records, sib, id_of(sib, number))
    at = next(i for i, r in enumerate(records) if r.id == group[j])
    records.insert(at, new_rule(by_id[group[j]], words))
    new_doc, changed = rewrite(doc, records, {**id_map, "new:1": group[j]})
    return new_doc, Expected(added={group[j]}, renumbered=id_map, rewritten=changed)


def mutate_delete(doc: Document, group: list[str], j: int) -> tuple[Document, Expected]:
    records = list(doc.records)
    gone = subtree(records, group[j])
    id_map: dict[str, str] = {}
    for prev, sib in zip(group[j:], group[j + 1 :], strict=False):
        id_map |= shift_map(records, sib, prev)
    records = [r for r in records if r.id not in gone]
    new_doc, changed = rewrite(doc, records, id_map)
    return new_doc, Expected(removed=set(gone), renumbered=id_map, rewritten=changed)


def mutate_move(
    doc: Document, group: list[str], j: int, target: list[str]
) -> tuple[Document, Expected]:
    records = list(doc.records)
    rule = group[j]
    moved_to = id_of(rule, next_number(number_of(target[-1])))  # type: ignore[arg-type]
    id_map = shift_map(records, rule, moved_to)
    for prev, sib in zip(group[j:], group[j + 1 :], strict=False):
        id_map |= shift_map(records, sib, prev)
    inside = set(subtree(records, rule))
    block = [r for r in records if r.id in inside]
    rest = [r for r in records if r.id not in inside]
    at = end_of_subtree(rest, target[-1])
    section = next(r.parent for r in records if r.id == target[-1])
    block[0] = block[0].model_copy(update={"parent": section})
    records = rest[:at] + block + rest[at:]
    new_doc, changed = rewrite(doc, records, id_map)
    renumbered = {k: v for k, v in id_map.items() if k != rule}
    return new_doc, Expected(
        moved={rule: moved_to}, renumbered=renumbered, rewritten=changed, targets={rule}
    )


def split_points(text: str) -> list[int]:
    """Character offsets of sentence breaks leaving both halves a fair share of the words
    (a 2-word tail is a rewording plus an addition, not a split)."""
    total = len(text.split())
    points = []
    for m in _SENTENCE_END.finditer(text):
        head = len(text[: m.start()].split())
        if min(head, total - head) >= max(3, 0.15 * total):
            points.append(m.start())
    return points


def mutate_split(doc: Document, group: list[str], j: int, choice: int) -> tuple[Document, Expected]:
    records = list(doc.records)
    by_id = {r.id: r for r in records}
    rule = by_id[group[j]]
    cut = split_points(rule.text)[choice % len(split_points(rule.text))]
    numbers = [by_id[s].number for s in group[j + 1 :]]
    numbers.append(next_number(by_id[group[-1]].number))  # type: ignore[arg-type]
    id_map: dict[str, str] = {}
    for sib, number in zip(group[j + 1 :], numbers[1:], strict=True):
        id_map |= shift_map(records, sib, id_of(sib, number))
    second_id = id_of(rule.id, numbers[0])
    head = rule.model_copy(
        update={"text": rule.text[:cut].strip(), "examples": [], "notes": [], "bullets": []}
    )
    tail = new_rule(
        rule,
        [],
        text=rule.text[cut:].strip(),
        examples=rule.examples,
        notes=rule.notes,
        bullets=rule.bullets,
    )
    at = end_of_subtree(records, rule.id)
    records[records.index(rule)] = head
    records.insert(at, tail)
    new_doc, changed = rewrite(doc, records, {**id_map, "new:1": second_id})
    return new_doc, Expected(
        split=[([rule.id], [rule.id, second_id])],
        renumbered=id_map,
        rewritten=changed,
        targets={rule.id, "new:1"},
    )


def mergeable(doc: Document, group: list[str], j: int) -> bool:
    by_id = {r.id: r for r in doc.records}
    a, b = by_id[group[j]], by_id[group[j + 1]]
    la, lb = len(a.text.split()), len(b.text.split())
    return (
        not a.examples
        and not a.notes
        and not a.bullets
        and not b.title
        and len(subtree(doc.records, b.id)) == 1
        and min(la, lb) >= max(3, 0.15 * (la + lb))
    )


def mutate_merge(doc: Document, group: list[str], j: int) -> tuple[Document, Expected]:
    records = list(doc.records)
    by_id = {r.id: r for r in records}
    a, b = by_id[group[j]], by_id[group[j + 1]]
    merged = a.model_copy(
        update={
            "text": f"{a.text} {b.text}",
            "examples": b.examples,
            "notes": b.notes,
            "bullets": b.bullets,
            "references": list(dict.fromkeys(a.references + b.references)),
        }
    )
    id_map: dict[str, str] = {}
    for prev, sib in zip(group[j + 1 :], group[j + 2 :], strict=False):
        id_map |= shift_map(records, sib, prev)
    records = [merged if r.id == a.id else r for r in records if r.id != b.id]
    new_doc, changed = rewrite(doc, records, id_map, cite_map={b.id: a.id})
    return new_doc, Expected(
        merged=[([a.id, b.id], [a.id])], renumbered=id_map, rewritten=changed, targets={a.id, b.id}
    )


def replace_rule(doc: Document, rule_id: str, **fields: object) -> Document:
    return doc.model_copy(
        update={
            "records": [r.model_copy(update=fields) if r.id == rule_id else r for r in doc.records]
        }
    )


# --------------------------------------------------------------------------- checking


def classes_of(diff: DocumentDiff) -> dict[str, list]:  # type: ignore[type-arg]
    by: dict[str, list] = defaultdict(list)  # type: ignore[type-arg]
    for change in diff.changes:
        by[change.cls].append(change)
    return by


def assert_classified(diff: DocumentDiff, exp: Expected) -> None:
    by = classes_of(diff)
    assert sorted(c.new_id for c in by["added"]) == sorted(exp.added)
    assert sorted(c.old_id for c in by["removed"]) == sorted(exp.removed)
    assert sorted(c.old_id for c in by["reworded"]) == sorted(exp.reworded)
    assert sorted(c.old_id for c in by["typography-only"]) == sorted(exp.typography)
    citers = {
        i
        for i in exp.rewritten
        if i not in exp.renumbered and i not in exp.moved and i not in exp.targets
    }
    assert sorted(c.old_id for c in by["reference-only"]) == sorted(citers | exp.reference_only)
    assert all(
        c.old_id == c.new_id
        for cls in ("reworded", "typography-only", "reference-only")
        for c in by[cls]
    )
    assert {c.old_id: c.new_id for c in by["renumbered"]} == exp.renumbered
    assert len(by["renumbered"]) == len(exp.renumbered)
    assert {c.old_id: c.new_id for c in by["moved"]} == exp.moved
    for c in by["renumbered"] + by["moved"]:
        assert c.text_change == ("reference-only" if c.old_id in exp.rewritten else None), c
    assert [(c.old_ids, c.new_ids) for c in by["split"]] == exp.split
    assert [(c.old_ids, c.new_ids) for c in by["merged"]] == exp.merged
    for c in by["split"] + by["merged"]:
        assert c.text_change in (None, "reference-only")
    assert not by["example-or-note-only"]
    expected_counts = {
        "added": len(exp.added),
        "removed": len(exp.removed),
        "reworded": len(exp.reworded),
        "renumbered": len(exp.renumbered),
        "moved": len(exp.moved),
        "split": len(exp.split),
        "merged": len(exp.merged),
        "reference-only": len(citers | exp.reference_only),
        "typography-only": len(exp.typography),
    }
    assert {k: v for k, v in diff.summary.items() if v} == {
        k: v for k, v in expected_counts.items() if v
    }
    assert list(diff.summary) == list(CHANGE_CLASSES)
    # The renumbering map is one-to-one and names exactly the matched records whose id changed.
    pairs = [(e.old_id, e.new_id) for e in diff.renumbering]
    assert len({o for o, _ in pairs}) == len(pairs) == len({n for _, n in pairs})
    assert dict(pairs) == exp.renumbered | exp.moved


# --------------------------------------------------------------------------- strategies

documents = st.sampled_from(sorted(REAL))
words = st.lists(st.sampled_from(NONSENSE), min_size=6, max_size=18)


def pick(data: st.DataObject, items: list, label: str):  # type: ignore[no-untyped-def,type-arg]
    return items[data.draw(st.integers(0, len(items) - 1), label=label)]


# --------------------------------------------------------------------------- properties


@PROPERTY
@given(name=documents, data=st.data())
def test_a_document_diffed_with_itself_is_empty(name: str, data: st.DataObject) -> None:
    doc = real_document(name)
    cut = data.draw(st.integers(1, len(doc.records)), label="prefix")
    a = doc.model_copy(update={"records": doc.records[:cut]})
    b = Document.model_validate_json(a.model_dump_json())  # equal, not identical objects
    diff = diff_documents(a, b)
    assert diff.changes == [] and diff.renumbering == []
    assert set(diff.summary.values()) == {0} and list(diff.summary) == list(CHANGE_CLASSES)


@PROPERTY
@given(name=documents, data=st.data(), words=words)
def test_insert_mid_section_shifts_the_following_siblings(
    name: str, data: st.DataObject, words: list[str]
) -> None:
    doc = real_document(name)
    group = pick(data, sibling_groups(name), "group")
    j = data.draw(st.integers(0, len(group) - 2), label="position")
    new, exp = mutate_insert(doc, group, j, words)
    assert exp.renumbered  # the following siblings did shift
    assert_classified(diff_documents(doc, new), exp)


def test_regression_insert_before_siblings_whose_subrules_cite_their_own_numbers() -> None:
    # Found by the property above: MTG's 723.1a and 723.2a say the same but cite 723.1f
    # and 723.2f. With a rule inserted at 723.1, the shifted 723.1a (now 723.2a, citing
    # 723.2f) had old 723.2a's exact text at old 723.2a's id, and was taken for it; old
    # 723.1a was sent to 723.3a as a move. The tree says otherwise, and now wins.
    doc = real_document("mtg")
    group = next(g for g in sibling_groups("mtg") if g[0] == "cr:723.1")
    new, exp = mutate_insert(doc, group, 0, ["brindle"] * 6)
    assert {"cr:723.1a": "cr:723.2a", "cr:723.2a": "cr:723.3a"}.items() <= exp.renumbered.items()
    assert_classified(diff_documents(doc, new), exp)


@PROPERTY
@given(name=documents, data=st.data())
def test_delete_removes_one_and_renumbers_the_rest(name: str, data: st.DataObject) -> None:
    doc = real_document(name)
    group = pick(data, sibling_groups(name), "group")
    j = data.draw(st.integers(0, len(group) - 2), label="position")
    new, exp = mutate_delete(doc, group, j)
    assert_classified(diff_documents(doc, new), exp)


@cache
def wordy_rules(name: str) -> list[Rule]:
    return [
        r
        for r in real_document(name).records
        if sum(t.isalpha() and len(t) > 2 for t in r.text.split()) >= 3
    ]


@PROPERTY
@given(name=documents, data=st.data())
def test_rewording_one_word_is_one_reworded_change_naming_the_word(
    name: str, data: st.DataObject
) -> None:
    doc = real_document(name)
    rule = pick(data, wordy_rules(name), "rule")
    tokens = rule.text.split()
    spots = [i for i, t in enumerate(tokens) if t.isalpha() and len(t) > 2]
    spot = pick(data, spots, "word")
    old_word, tokens[spot] = tokens[spot], "quibblewort"
    diff = diff_documents(doc, replace_rule(doc, rule.id, text=" ".join(tokens)))
    assert_classified(diff, Expected(reworded={rule.id}))
    ops = [(w.op, w.text) for w in diff.changes[0].words if w.op != "equal"]
    assert ops == [("delete", old_word), ("insert", "quibblewort")]


@cache
def citing_rules(name: str) -> list[Rule]:
    return [r for r in real_document(name).records if re.search(r"\d+\.\d+", r.text)]


@PROPERTY
@given(name=documents, data=st.data())
def test_changing_only_a_cited_number_is_reference_only(name: str, data: st.DataObject) -> None:
    doc = real_document(name)
    rule = pick(data, citing_rules(name), "rule")
    cited = re.search(r"(?<![\w.])\d+\.\d+[0-9a-z.]*?(?=[^\w]|$)", rule.text)
    assert cited is not None
    other = pick(
        data,
        [r for r in doc.records if r.kind in ("rule", "subrule") and r.number != cited.group(0)],
        "other",
    )
    text = rule.text[: cited.start()] + other.number + rule.text[cited.end() :]
    refs = [other.id if r == id_of(rule.id, cited.group(0)) else r for r in rule.references]
    diff = diff_documents(doc, replace_rule(doc, rule.id, text=text, references=refs))
    assert_classified(diff, Expected(reference_only={rule.id}))


TYPOGRAPHY: list[tuple[str, Callable[[str], str]]] = [
    ("’", lambda t: t.replace("’", "'", 1)),
    ("'", lambda t: t.replace("'", "’", 1)),
    ("“", lambda t: t.replace("“", '"').replace("”", '"')),
    ('"', lambda t: t.replace('"', "“", 1)),
    (", ", lambda t: t.replace(", ", " , ", 1)),
    ("—", lambda t: t.replace("—", " - ", 1)),
    (" ", lambda t: t.replace(" ", "  ", 1)),
]


@PROPERTY
@given(name=documents, data=st.data())
def test_changing_only_quotes_or_spacing_is_typography_only(name: str, data: st.DataObject) -> None:
    doc = real_document(name)
    rule = pick(data, wordy_rules(name), "rule")
    kinds = [f for mark, f in TYPOGRAPHY if mark in rule.text]
    text = pick(data, kinds, "edit")(rule.text)
    assert text != rule.text
    diff = diff_documents(doc, replace_rule(doc, rule.id, text=text))
    assert_classified(diff, Expected(typography={rule.id}))


@cache
def rule_groups(name: str) -> list[list[str]]:
    """Rule-level sibling groups under a section: where a rule can move to."""
    by_id = {r.id: r for r in real_document(name).records}
    return [g for g in sibling_groups(name) if by_id[g[0]].kind == "rule"]


@PROPERTY
@given(name=documents, data=st.data())
def test_moving_a_rule_to_another_section_is_moved(name: str, data: st.DataObject) -> None:
    doc = real_document(name)
    group = pick(data, rule_groups(name), "from")
    target = pick(data, [g for g in rule_groups(name) if g != group], "to")
    j = data.draw(st.integers(0, len(group) - 1), label="rule")
    new, exp = mutate_move(doc, group, j, target)
    assert_classified(diff_documents(doc, new), exp)


@cache
def splittable(name: str) -> list[tuple[list[str], int]]:
    by_id = {r.id: r for r in real_document(name).records}
    return [
        (g, j) for g in sibling_groups(name) for j, i in enumerate(g) if split_points(by_id[i].text)
    ]


@PROPERTY
@given(name=documents, data=st.data())
def test_splitting_a_rule_in_two_is_split(name: str, data: st.DataObject) -> None:
    doc = real_document(name)
    group, j = pick(data, splittable(name), "rule")
    new, exp = mutate_split(doc, group, j, data.draw(st.integers(0, 5), label="cut"))
    assert_classified(diff_documents(doc, new), exp)


@cache
def merge_pairs(name: str) -> list[tuple[list[str], int]]:
    doc = real_document(name)
    return [(g, j) for g in sibling_groups(name) for j in range(len(g) - 1) if mergeable(doc, g, j)]


@PROPERTY
@given(name=documents, data=st.data())
def test_merging_two_rules_is_merged(name: str, data: st.DataObject) -> None:
    doc = real_document(name)
    group, j = pick(data, merge_pairs(name), "pair")
    new, exp = mutate_merge(doc, group, j)
    assert_classified(diff_documents(doc, new), exp)


@PROPERTY
@given(name=documents, data=st.data(), words=words)
def test_reports_are_deterministic(name: str, data: st.DataObject, words: list[str]) -> None:
    doc = real_document(name)
    group = pick(data, sibling_groups(name), "group")
    new, _ = mutate_insert(doc, group, data.draw(st.integers(0, len(group) - 2)), words)
    diff = diff_documents(doc, new)
    again = diff_documents(
        Document.model_validate_json(doc.model_dump_json()),
        Document.model_validate_json(new.model_dump_json()),
    )
    assert again.model_dump_json(by_alias=True) == diff.model_dump_json(by_alias=True)
    reloaded = DocumentDiff.model_validate_json(diff.model_dump_json(by_alias=True))
    hide = data.draw(st.booleans(), label="hide")
    assert render_markdown(diff, doc, new, hide_renumbering=hide) == render_markdown(
        reloaded, doc, new, hide_renumbering=hide
    )
    assert render_html(diff, doc, new, hide_reference_only=hide) == render_html(
        reloaded, doc, new, hide_reference_only=hide
    )


# fold_typography as first written: one regular expression per step, each always run.
# The function skips a step that cannot match, and folds spaces with str.split.
_FOLD_STEPS = (
    (re.compile(r"\[\s*\.\.\.\s*\]"), "..."),
    (re.compile(r"\s+"), " "),
    (re.compile(r" ([.,;:!?)\]}])"), r"\1"),
    (re.compile(r"([(\[{]) "), r"\1"),
    (re.compile(r" ?- ?"), "-"),
)


def _fold_as_first_written(text: str) -> str:
    from pipeline.models.text import _TYPOGRAPHY

    folded = text.translate(_TYPOGRAPHY)
    for number, (pattern, replacement) in enumerate(_FOLD_STEPS):
        folded = pattern.sub(replacement, folded)
        if number == 1:
            folded = folded.strip()
    return folded


_TYPOGRAPHIC = st.text(
    alphabet=st.sampled_from(
        "ab1 .,;:!?()[]{}-\t\n\u00a0\u2009\u202f\u2026\u2013\u2014\u2019\u201c\u200b\u00ad"
        "\u2028\u3000\x1c\x85"
    ),
    max_size=40,
)


@given(_TYPOGRAPHIC)
@settings(max_examples=400, deadline=None)
def test_fold_typography_folds_as_its_regular_expressions_do(text: str) -> None:
    assert fold_typography(text) == _fold_as_first_written(text)
