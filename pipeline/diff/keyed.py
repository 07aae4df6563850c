"""Pairing by the publisher's own keys, and a free check of the content aligner. Pure.

Null Signal Games' YAML source gives every entry a stable symbolic key
(`rule_player_definitions`), so between two versions a record's counterpart is
known exactly: the record with the same key. `key_pairs` is that pairing (exact by
construction: nothing is guessed). `compare_with_alignment` sets it beside what the
content-based diff (`pipeline.diff.documents.diff_documents`) concluded for the
same records and lists every record where the two disagree; each disagreement is
either an aligner mistake or a key the publisher moved to other content, and the
list says which pairing each side made so a person can tell.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.diff.items import unique_keys
from pipeline.models.diffs import DocumentDiff, KeyDisagreement
from pipeline.models.records import Document


@dataclass(frozen=True)
class KeyPair:
    """One key present in both versions, with its record id in each."""

    key: str
    old_id: str
    new_id: str

    @property
    def renumbered(self) -> bool:
        return self.old_id != self.new_id


@dataclass(frozen=True)
class KeyedComparison:
    pairs: list[KeyPair]  # every shared key, in old-document order
    disagreements: list[KeyDisagreement]
    old_keys: int  # records of the old version that carry a key
    new_keys: int

    @property
    def renumbering(self) -> list[KeyPair]:
        """The key-based renumbering map: shared keys whose record id changed."""
        return [p for p in self.pairs if p.renumbered]


def key_pairs(old: Document, new: Document) -> list[KeyPair]:
    """Every key both versions carry, paired; old-document order. A key that appears twice
    in one version pairs nothing (the parser warns about duplicates)."""
    new_ids = _unique_keys(new)
    old_ids = _unique_keys(old)
    return [
        KeyPair(key, old_ids[key], new_ids[key])
        for key in (r.key for r in old.records if r.key is not None)
        if key in old_ids and key in new_ids
    ]


def _unique_keys(doc: Document) -> dict[str, str]:
    return {key: record.id for key, record in unique_keys(doc.records).items()}


def content_pairing(
    old: Document, new: Document, diff: DocumentDiff
) -> dict[str, tuple[str | None, str]]:
    """For every old record id: the new id the content diff paired it with and how.

    Records the diff does not mention kept their id (unchanged); the renumbering map,
    the changes under the same id, removals, splits and merges say the rest."""
    new_ids = {r.id for r in new.records}
    out: dict[str, tuple[str | None, str]] = {}
    for record in old.records:
        out[record.id] = (record.id, "unchanged") if record.id in new_ids else (None, "removed")
    for change in diff.changes:
        if change.cls == "removed" and change.old_id:
            out[change.old_id] = (None, "removed")
        elif change.cls in ("split", "merged"):
            joined = "+".join(change.new_ids)
            for old_id in change.old_ids:
                out[old_id] = (joined, change.cls)
        elif change.old_id and change.new_id and change.old_id == change.new_id:
            out[change.old_id] = (change.new_id, "changed")
    for entry in diff.renumbering:
        out[entry.old_id] = (entry.new_id, "renumbered")
    return out


def compare_with_alignment(old: Document, new: Document, diff: DocumentDiff) -> KeyedComparison:
    """Key pairs, and every keyed old record where the content diff paired otherwise."""
    pairs = key_pairs(old, new)
    by_key = {p.old_id: p.new_id for p in pairs}
    by_content = content_pairing(old, new, diff)
    old_keys = _unique_keys(old)
    disagreements = []
    for record in old.records:
        if record.key is None or record.key not in old_keys:
            continue
        expected = by_key.get(record.id)
        found, how = by_content.get(record.id, (None, "removed"))
        if expected != found:
            disagreements.append(
                KeyDisagreement(
                    key=record.key,
                    old_id=record.id,
                    by_key=expected,
                    by_content=found,
                    content_class=how,
                )
            )
    return KeyedComparison(
        pairs=pairs,
        disagreements=disagreements,
        old_keys=len(old_keys),
        new_keys=len(_unique_keys(new)),
    )
