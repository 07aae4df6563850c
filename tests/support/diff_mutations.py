"""Older versions made at test time from a real document, the way a publisher rewrites a
section: the real document is the newer version, and the mutation writes what the older
one said. Nothing here is parsed output kept on disk: each mutation edits records read
from ../shared/sources in the test run.

Each mutation returns the older Document and the answer a reader gives (old id -> new id).
"""

from __future__ import annotations

import re

from pipeline.models.records import Document, Rule

_ORDINALS = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"]
_LEAD = re.compile(r"^cr:(\d+)\.(\d+)(.*)$")


def _parent_of(ident: str) -> str:
    """MTG's tree: cr:508.2a under cr:508.2, cr:508.2 under cr:508."""
    if re.search(r"\d[a-z]$", ident):
        return ident[:-1]
    return ident.rsplit(".", 1)[0]


def _with_id(rule: Rule, ident: str, **changes: object) -> Rule:
    """The rule at another number (its parent and depth follow from the number)."""
    parent = _parent_of(ident)
    depth = 4 if re.search(r"\d[a-z]$", ident) else 3
    return rule.model_copy(
        update={"id": ident, "number": ident[3:], "parent": parent, "depth": depth, **changes}
    )


def _shift(ident: str, section: str, from_rule: int, by: int) -> str:
    """cr:508.3b -> cr:508.4b when rules from 508.3 on move `by` numbers."""
    m = _LEAD.match(ident)
    if m is None or m.group(1) != section or int(m.group(2)) < from_rule:
        return ident
    return f"cr:{section}.{int(m.group(2)) + by}{m.group(3)}"


def _replace_section(doc: Document, section: str, rules: list[Rule]) -> Document:
    head = f"cr:{section}."
    out: list[Rule] = []
    placed = False
    for r in doc.records:
        if r.id.startswith(head):
            if not placed:
                out.extend(rules)
                placed = True
            continue
        out.append(r)
    return doc.model_copy(update={"records": out, "version": "mutated"})


def _ordinal_of(text: str) -> int:
    word = text.split(",", 1)[0]
    return _ORDINALS.index(word)


def steps_before_rewrite(doc: Document, sections: list[str]) -> tuple[Document, dict[str, str]]:
    """Each section's "Nth, the active player gets priority." rule with its subrule "Any
    abilities that triggered ... are put onto the stack before the active player gets
    priority" written as it stood before such a rewrite: the subrule is the step's own rule
    ("Nth, any abilities that triggered ... are put onto the stack."), and the priority
    rule is the next number, with the next ordinal, every later rule one number up."""
    answer: dict[str, str] = {}
    for section in sections:
        rules = [r for r in doc.records if r.id.startswith(f"cr:{section}.")]
        by_id = {r.id: r for r in rules}
        priority = next(
            r
            for r in rules
            if r.depth == 3 and "the active player gets priority" in r.text and "," in r.text
        )
        trigger = next(
            r
            for r in rules
            if r.parent == priority.id and r.text.startswith("Any abilities that triggered")
        )
        k = int(priority.number.split(".")[1])
        nth = _ordinal_of(priority.text)
        what = trigger.text[len("Any abilities that triggered") :]
        what = re.split(r" or that triggered| are put onto the stack", what)[0]
        step_text = (
            f"{_ORDINALS[nth]}, any abilities that triggered{what} go on the stack. "
            "(See rule 603, “Handling Triggered Abilities.”)"
        )
        old_priority = (
            f"{_ORDINALS[nth + 1]}, the active player gets priority. "
            "Players may cast spells and activate abilities."
        )
        old: list[Rule] = []
        letters = iter("abcdefghijkmnpqrstuvwxyz")
        for r in rules:
            if r.id == priority.id:
                step_id = f"cr:{section}.{k}"
                old.append(_with_id(trigger, step_id, text=step_text, references=[]))
                answer[step_id] = trigger.id
                moved = f"cr:{section}.{k + 1}"
                old.append(_with_id(r, moved, text=old_priority))
                answer[moved] = r.id
            elif r.parent == priority.id:
                if r.id == trigger.id:
                    continue
                moved = f"cr:{section}.{k + 1}{next(letters)}"
                old.append(_with_id(r, moved))
                answer[moved] = r.id
            else:
                moved = _shift(r.id, section, k + 1, 1)
                old.append(_with_id(r, moved) if moved != r.id else r)
                answer[moved] = r.id
        assert by_id[trigger.id].parent == priority.id
        doc = _replace_section(doc, section, old)
    return doc, answer


def reword(text: str) -> str:
    """A rewording a reader still recognises: the parenthetical citation dropped, the
    first sentence opened another way, and a few words changed in the rest."""
    text = re.sub(r"\s*\(See rule[^)]*\)", "", text)
    for before, after in (
        ("Once it begins,", "As soon as this step starts,"),
        ("trigger as", "are triggered when"),
        ("expire at", "end at"),
        ("has no", "does not have any"),
    ):
        text = text.replace(before, after)
    return "During this step, " + text[0].lower() + text[1:]


def swapped(doc: Document, first: str, second: str) -> tuple[Document, dict[str, str]]:
    """Two sibling rules that traded numbers and were both reworded: the older version says
    each one's text, reworded, at the other's number."""
    by_id = {r.id: r for r in doc.records}
    a, b = by_id[first], by_id[second]
    out = []
    for r in doc.records:
        if r.id == first:
            out.append(_with_id(b, first, text=reword(b.text)))
        elif r.id == second:
            out.append(_with_id(a, second, text=reword(a.text)))
        else:
            out.append(r)
    return doc.model_copy(update={"records": out, "version": "mutated"}), {
        first: second,
        second: first,
    }


def pushed_down(doc: Document, subrule: str) -> tuple[Document, dict[str, str]]:
    """A subrule (cr:503.1a) that stood a level up in the older version: the rule after its
    parent (cr:503.2), reworded, every later rule of the section one number up."""
    by_id = {r.id: r for r in doc.records}
    sub = by_id[subrule]
    parent = by_id[_parent_of(subrule)]
    section = parent.number.split(".")[0]
    k = int(parent.number.split(".")[1])
    rules = [r for r in doc.records if r.id.startswith(f"cr:{section}.")]
    old: list[Rule] = []
    answer: dict[str, str] = {}
    for r in rules:
        if r.id == subrule:
            continue
        moved = _shift(r.id, section, k + 1, 1)
        old.append(_with_id(r, moved) if moved != r.id else r)
        answer[moved] = r.id
        if r.id == parent.id:
            up = f"cr:{section}.{k + 1}"
            old.append(_with_id(sub, up, text=sub.text.replace("Any abilities", "All abilities")))
            answer[up] = subrule
    return _replace_section(doc, section, old), answer


def examples_cut(doc: Document, rule_id: str, reworded_tail: str) -> tuple[Document, str]:
    """The older version of a rule that kept its number and its opening: its last sentence
    said otherwise and it had four more examples (the newer one's text and examples are the
    real ones)."""
    by_id = {r.id: r for r in doc.records}
    rule = by_id[rule_id]
    sentences = rule.text.split(". ")
    text = ". ".join([*sentences[:-1], reworded_tail])
    extra = [
        f"Example {n}: an attacking creature blocked by {n + 1} creatures divides its damage "
        "in the damage assignment order its controller announced for it, assigning lethal "
        "damage to each creature in that order before the next."
        for n in range(1, 5)
    ]
    out = [
        r.model_copy(update={"text": text, "examples": [*r.examples, *extra]})
        if r.id == rule_id
        else r
        for r in doc.records
    ]
    return doc.model_copy(update={"records": out, "version": "mutated"}), rule_id
