"""A document's numbers across its stored versions: which page each (version, number) is
read on, the pages for old numbers, and each current rule's history.

An old number gets a page of its own when it no longer names the same rule: the rule was
renumbered (the number now lives elsewhere, or names another rule) or removed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from itertools import pairwise

from pipeline.corpus import CorpusReader, Followed
from pipeline.corpus.site_queries import follow_version
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Rule
from pipeline.report.common import anchor_ids
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
    records: dict[str, list[Rule]] = field(default_factory=dict)  # older version -> records
    followed: dict[str, dict[str, Followed]] = field(default_factory=dict)
    # an older version's page whose text stands unchanged later -> the page it stands on
    light: dict[str, str] = field(default_factory=dict)

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
    versions = reader.stored.published(document)
    lineage = Lineage(document, versions)
    stored = set(reader.diffs(document))
    for old, new in pairwise(versions):
        if (old, new) in stored:
            diff = reader.diff(document, old, new)
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
    records = {v: paged_records(reader, document, v) for v in versions}
    for rule in records[current]:
        lineage.pages[(current, rule.id)] = paths.rule_page(document, rule.number)
    # Newest first: a version's page of a number whose text (its whole subtree) stands
    # unchanged under the same number in the next version leads to where that text stands.
    digests = digests_of(records[current])
    standing = {r.number: (digests[r.id], lineage.pages[(current, r.id)]) for r in records[current]}
    for version in reversed(versions[:-1]):
        lineage.records[version] = records[version]
        followed = follow_version(reader, document, version)
        lineage.followed[version] = followed
        here: dict[str, tuple[str, str]] = {}
        digests = digests_of(records[version])
        for rule in records[version]:
            digest = digests[rule.id]
            own = paths.old_number_page(document, version, rule.number)
            later = standing.get(rule.number)
            target = later[1] if later and later[0] == digest else own
            if target != own:
                lineage.light[own] = target
            lineage.pages[(version, rule.id)] = target
            here[rule.number] = (digest, target)
            where = followed[rule.id]
            if where.citation != rule.id or (current, rule.id) not in lineage.pages:
                lineage.old_numbers.append(
                    OldNumber(version, rule, where.citation, where.removed_in, own)
                )
        standing = here
    lineage.old_numbers.sort(key=lambda o: versions.index(o.version))
    # current id -> [(version, old rule)] for the history rows
    earlier: dict[str, list[tuple[str, Rule]]] = {}
    for version in versions[:-1]:
        for rule in records[version]:
            where = lineage.followed[version][rule.id]
            if where.citation is not None:
                earlier.setdefault(where.citation, []).append((version, rule))
    for rule in records[current]:
        steps = [_step(lineage, version, old) for version, old in earlier.get(rule.id, [])]
        steps.append(_step(lineage, current, rule))
        lineage.history[rule.id] = steps
    return lineage


def children_of(records: list[Rule]) -> dict[str, list[Rule]]:
    """Each rule's children among the records, in document order."""
    known = {r.id for r in records}
    out: dict[str, list[Rule]] = {}
    for rule in records:
        if rule.parent in known:
            out.setdefault(rule.parent, []).append(rule)
    return out


def digests_of(records: list[Rule]) -> dict[str, str]:
    """What a reader reads of each rule, as a digest: its subtree's numbers and texts."""
    children = children_of(records)
    out: dict[str, str] = {}
    for rule in reversed(records):
        parts = [rule.number, rule.title or "", rule.text, *rule.examples, *rule.notes]
        parts += [*rule.bullets, *(out[c.id] for c in children.get(rule.id, []))]
        out[rule.id] = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    return out


def _step(lineage: Lineage, version: str, rule: Rule) -> Step:
    change = lineage.classes.get(version, {}).get(rule.id)
    return Step(
        version=version,
        number=rule.number,
        page=lineage.pages[(version, rule.id)],
        change=change,
        changes_page=lineage.change_link(version, rule.id) if change else None,
    )
