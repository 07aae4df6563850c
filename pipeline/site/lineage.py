"""A document's numbers across its stored versions: which page each (version, number) is
read on, the pages for old numbers, and each current rule's history.

An old number gets a page of its own when it no longer names the same rule: the rule was
renumbered (the number now lives elsewhere, or names another rule) or removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from pipeline.corpus import CorpusReader
from pipeline.corpus.site_queries import follow_version, published_versions, stored_diff
from pipeline.diff.models import DocumentDiff
from pipeline.models.records import Rule
from pipeline.report.html import anchor_ids
from pipeline.site import paths


@dataclass(frozen=True)
class OldNumber:
    """A number of an older version that no longer names the same rule."""

    version: str
    rule: Rule
    now: str | None  # its citation id in the current version; None: removed
    removed_in: str | None
    page: str


@dataclass(frozen=True)
class Step:
    """One row of a rule's history: what it was numbered and what changed in a version."""

    version: str
    number: str
    page: str
    change: str | None  # the diff's class for this version, None: unchanged or first stored
    changes_page: str | None


@dataclass
class Lineage:
    document: str
    versions: list[str]  # published, oldest first; the last one is current
    diffs: dict[str, DocumentDiff] = field(default_factory=dict)  # by its new version
    # version -> citation id -> the anchor of its change, by the id it had after the change
    # (`new`) and before it (`old`)
    anchors: dict[str, dict[str, str]] = field(default_factory=dict)
    old_anchors: dict[str, dict[str, str]] = field(default_factory=dict)
    classes: dict[str, dict[str, str]] = field(default_factory=dict)  # version -> new id -> class
    old_numbers: list[OldNumber] = field(default_factory=list)
    pages: dict[tuple[str, str], str] = field(default_factory=dict)  # (version, id) -> page
    history: dict[str, list[Step]] = field(default_factory=dict)  # current id -> steps

    @property
    def current(self) -> str:
        return self.versions[-1]

    def page_of(self, version: str, citation: str) -> str | None:
        return self.pages.get((version, citation))

    def change_link(self, version: str, citation: str, *, before: bool = False) -> str | None:
        """The changes page (with its anchor) that says what happened in `version` to the
        record numbered `citation` after it (or, `before`, numbered so before it); None
        when that version changed nothing about it."""
        table = self.old_anchors if before else self.anchors
        anchor = table.get(version, {}).get(citation)
        if anchor is None:
            return None
        return f"{paths.changes_page(self.document, version)}#{anchor}"

    def first_change(self, since: str, citation: str) -> str | None:
        """The first change after version `since` to the record numbered `citation` there."""
        for version in self.versions[self.versions.index(since) + 1 :]:
            link = self.change_link(version, citation, before=True)
            if link is not None:
                return link
        return None


def paged_records(reader: CorpusReader, document: str, version: str) -> list[Rule]:
    """The version's numbered records that get a page: the first of any that share a
    citation id or a page (a document the parser warned about can repeat a number)."""
    seen: set[str] = set()
    out = []
    for rule in reader.records(document, version):
        page = paths.rule_page(document, rule.number)
        if rule.id not in seen and page not in seen:
            seen.update((rule.id, page))
            out.append(rule)
    return out


def read_lineage(reader: CorpusReader, document: str) -> Lineage:
    """Follow every numbered record of every stored version into the current one."""
    versions = published_versions(reader, document)
    lineage = Lineage(document, versions)
    stored = set(reader.diffs(document))
    for old, new in pairwise(versions):
        if (old, new) in stored:
            diff = stored_diff(reader, document, old, new)
            lineage.diffs[new] = diff
            table: dict[str, str] = {}
            old_table: dict[str, str] = {}
            classes: dict[str, str] = {}
            for change, anchor in zip(diff.changes, anchor_ids(diff.changes), strict=True):
                for cid in (change.new_id, *change.new_ids):
                    if cid:
                        classes.setdefault(cid, change.cls)
                        table.setdefault(cid, anchor)
                for cid in (change.old_id, *change.old_ids):
                    if cid:
                        old_table.setdefault(cid, anchor)
            lineage.anchors[new] = table
            lineage.old_anchors[new] = old_table
            lineage.classes[new] = classes
    if not versions:
        return lineage
    current = lineage.current
    for rule in paged_records(reader, document, current):
        lineage.pages[(current, rule.id)] = paths.rule_page(document, rule.number)
    # current id -> [(version, old rule)] for the history rows
    earlier: dict[str, list[tuple[str, Rule]]] = {}
    for version in versions[:-1]:
        followed = follow_version(reader, document, version)
        for rule in paged_records(reader, document, version):
            where = followed[rule.id]
            if where.citation is not None:
                earlier.setdefault(where.citation, []).append((version, rule))
            if where.citation == rule.id and (current, rule.id) in lineage.pages:
                lineage.pages[(version, rule.id)] = lineage.pages[(current, rule.id)]
                continue
            page = paths.old_number_page(document, version, rule.number)
            lineage.pages[(version, rule.id)] = page
            lineage.old_numbers.append(
                OldNumber(version, rule, where.citation, where.removed_in, page)
            )
    for rule in paged_records(reader, document, current):
        steps = [_step(lineage, version, old) for version, old in earlier.get(rule.id, [])]
        steps.append(_step(lineage, current, rule))
        lineage.history[rule.id] = steps
    return lineage


def _step(lineage: Lineage, version: str, rule: Rule) -> Step:
    change = lineage.classes.get(version, {}).get(rule.id)
    return Step(
        version=version,
        number=rule.number,
        page=lineage.pages[(version, rule.id)],
        change=change,
        changes_page=lineage.change_link(version, rule.id) if change else None,
    )
