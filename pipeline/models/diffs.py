"""What a diff gives: two Documents' changes (models.Change) gathered into a DocumentDiff,
the renumbering map from each old citation id to its id in the newer version, the
reconciliation with the publisher's own list of changes, and the checks of keyed
alignment. Written by pipeline.diff; read by report, jobs and the corpus API.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from pipeline.models.base import Model
from pipeline.models.changes import Change, ChangeClass
from pipeline.models.records import PublisherChange


class RenumberEntry(Model):
    old_id: str
    new_id: str
    method: str
    similarity: float
    weak: bool = False


class Reconciliation(Model):
    named_not_found: list[PublisherChange] = Field(default_factory=list)
    found_not_named: list[str] = Field(default_factory=list)
    named_found: list[PublisherChange] = Field(default_factory=list)


class MapStep(Model):
    """One version along a map across several versions: where the record was in it and how
    it got there."""

    version: str
    id: str | None = Field(description="the record's id in this version (null: removed)")
    cls: ChangeClass | Literal["unchanged"] = Field(alias="class")
    method: str | None = None

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class MapEntry(Model):
    """Where one old citation id lives in the newer version, and how it changed."""

    old_id: str
    new_id: str | None = Field(description="its id in the newer version; null: removed")
    new_ids: list[str] = Field(
        default_factory=list,
        description="a split (or a possible move): every record the old text went to, in "
        "document order (new_id is the first)",
    )
    old_ids: list[str] = Field(
        default_factory=list,
        description="a merge: every old record whose text went into new_id, this one "
        "included, in document order",
    )
    cls: ChangeClass = Field(
        alias="class",
        description="renumbered, moved, split or merged (the number changed); possibly-moved "
        "(its words stand in new_ids, rules paired with others too: a reader should check); "
        "removed; or the text class of a change at the same number (reworded, ...)",
    )
    text_change: ChangeClass | None = Field(
        default=None, description="how the text changed as well, when the number changed"
    )
    method: str | None = Field(default=None, description="how the records were paired")
    similarity: float | None = None
    weak: bool = Field(default=False, description="a pairing a reader should check")
    evidence: str | None = None
    steps: list[MapStep] = Field(
        default_factory=list,
        description="a map across several versions: the record in each later version",
    )

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class RenumberingMap(Model):
    """Old citation id -> id in the newer version, for every old id that did not stay the
    same at the same number (an old id the map does not list is unchanged). Written with
    each stored diff, and read off the lineage from any stored version to another."""

    document: str
    old_version: str
    new_version: str
    via: list[str] = Field(
        default_factory=list, description="the versions composed, oldest first (both ends)"
    )
    entries: list[MapEntry] = Field(default_factory=list)
    added: list[str] = Field(
        default_factory=list, description="ids in the newer version that hold a new record"
    )


class KeyDisagreement(Model):
    """A keyed record the diff paired by its key where content alone would have paired it
    otherwise: a free check of the content aligner (Null Signal Games' YAML keys)."""

    key: str
    old_id: str
    by_key: str | None = Field(description="the new id of the same key; null: the key is gone")
    by_content: str | None = Field(description="where content alone sends it; null: removed")
    content_class: str


class DocumentDiff(Model):
    document: str
    old_version: str
    new_version: str
    summary: dict[str, int] = Field(default_factory=dict)
    changes: list[Change] = Field(default_factory=list)
    renumbering: list[RenumberEntry] = Field(default_factory=list)
    reconciliation: Reconciliation | None = None
    min_similarity: float | None = Field(
        default=None, description="the --min-similarity the diff was made with (null: defaults)"
    )
    key_disagreements: list[KeyDisagreement] | None = Field(
        default=None,
        description="where both versions carry stable keys: the records content alone "
        "would have paired otherwise (null: the versions carry no keys)",
    )
