"""The typed changes a diff gives between two versions of a document."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from pipeline.models.base import Model

ChangeClass = Literal[
    "added",
    "removed",
    "reworded",
    "renumbered",
    "moved",
    "split",
    "merged",
    "possibly-moved",
    "reference-only",
    "typography-only",
    "example-or-note-only",
    "cards-changed",
]


class WordOp(Model):
    op: Literal["equal", "insert", "delete"]
    text: str


class Change(Model):
    cls: ChangeClass = Field(alias="class")
    old_id: str | None = None
    new_id: str | None = None
    old_ids: list[str] = Field(default_factory=list)
    new_ids: list[str] = Field(default_factory=list)
    similarity: float | None = None
    text_change: ChangeClass | None = Field(
        default=None,
        description="for renumbered, moved, split and merged: how the text changed as well "
        "(typography-only, reference-only, example-or-note-only or reworded); null if identical",
    )
    words: list[WordOp] = Field(default_factory=list)
    cards_gained: list[str] = Field(default_factory=list, description="rulings: cards attached")
    cards_lost: list[str] = Field(default_factory=list, description="rulings: cards detached")
    method: str | None = Field(
        default=None,
        description="how the old and new records were paired: exact, typography, masked, "
        "same-text, similar, children, structural, sequence (in order inside a parent), "
        "split or merge (consecutive pieces), contained (sentence by sentence, or by content "
        "words: in place, a split, a merge or a possible move), definition "
        "(a glossary term whose head changed) or key (null: added or removed)",
    )
    weak: bool = Field(
        default=False,
        description="a pairing made on similarity, children, structure or containment with "
        "less than 0.85 of its words in common (containment: of the old words found): a "
        "reader should check it",
    )
    evidence: str | None = Field(
        default=None,
        description="why a judged pairing was made; for possibly-moved, where its words "
        "stand; for an added record, where its words stood, if anywhere",
    )

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
