"""What changed, in a reader's words: the kinds of change as a judge names them, and one
sentence per change. The evidence a diff keeps (similarity, how a pairing was made) is
the changes page's fine print, not its wording."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from pipeline.models.changes import Change
from pipeline.report.common import listed

_CITATION_PREFIX = re.compile(r"\b[a-z][a-z-]*:(?=\d)")
METHODS = {
    "exact": "the same text",
    "typography": "the same text but for punctuation",
    "masked": "the same text but for the rule numbers it cites",
    "same-text": "the same text",
    "similar": "similar wording",
    "children": "the rules under it",
    "structural": "its place in the document",
    "split": "consecutive pieces of one text",
    "merge": "consecutive pieces of one text",
    "contained": "sentence by sentence",
    "definition": "the glossary term's definition",
    "key": "its number",
}
KINDS = {
    "added": "added",
    "removed": "removed",
    "reworded": "reworded",
    "renumbered": "renumbered",
    "moved": "moved",
    "split": "split",
    "merged": "merged",
    "typography-only": "punctuation or spelling only",
    "reference-only": "cited rule numbers only",
    "example-or-note-only": "examples or notes only",
    "cards-changed": "cards changed",
}


def kind_of(cls: str) -> str:
    return KINDS.get(cls, cls.replace("-", " "))


def counts_in_words(summary: Mapping[str, int]) -> str:
    """`12 reworded, 3 added`: the non-zero kinds of change of a version, in order."""
    return ", ".join(f"{n} {kind_of(cls)}" for cls, n in summary.items() if n) or "no changes"


def sentence(change: Change, old_name: Callable[[str], str], new_name: Callable[[str], str]) -> str:
    """One sentence saying what happened; numbers are the publisher's, never ids."""
    olds = [old_name(i) for i in (change.old_ids or ([change.old_id] if change.old_id else []))]
    news = [new_name(i) for i in (change.new_ids or ([change.new_id] if change.new_id else []))]
    old, new = listed(olds) if olds else "", listed(news) if news else ""
    text_too = {
        None: "Its text is unchanged.",
        "typography-only": "Only its punctuation or spelling changed.",
        "reference-only": "Only the rule numbers it cites changed.",
    }
    match change.cls:
        case "added":
            return f"{new} is new."
        case "removed":
            return f"{old} was removed."
        case "reworded":
            return f"{new} was reworded."
        case "renumbered" | "moved":
            verb = "renumbered" if change.cls == "renumbered" else "moved"
            tail = text_too.get(change.text_change, "Its wording changed too.")
            return f"{old} was {verb}: it is now {new}. {tail}"
        case "split":
            return f"{old} was split into {new}."
        case "merged":
            return (
                f"{old} were merged into {new}."
                if len(olds) > 1
                else f"{old} was merged into {new}."
            )
        case "typography-only":
            return f"{new or old}: only punctuation or spelling changed."
        case "reference-only":
            return f"{new or old}: only the rule numbers it cites changed."
        case "example-or-note-only":
            return f"{new or old}: only its examples or notes changed."
        case "cards-changed":
            return f"{new or old}: the cards it is filed under changed."
    return f"{new or old}: {kind_of(change.cls)}."


def evidence(change: Change) -> str:
    """How the diff matched the two texts, for a reader who wants to check it."""
    parts = []
    if change.similarity is not None:
        parts.append(f"{change.similarity:.0%} of the words in common")
    if change.method:
        parts.append("matched by " + METHODS.get(change.method, change.method))
    if change.evidence:
        # The diff's note names records by citation id (`under cr:500`): a reader reads
        # the number.
        parts.append(_CITATION_PREFIX.sub("", change.evidence))
    if change.weak:
        parts.append("a weak match: compare the two texts before relying on it")
    return "; ".join(parts)
