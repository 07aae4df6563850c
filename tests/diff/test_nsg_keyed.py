"""Key-paired against content-aligned diffs between the real NSG YAML versions.

The publisher's keys say exactly which record became which; the content aligner
(`diff_documents`) has to work it out from the text. Every keyed record where the two
disagree is printed (`pytest -s` shows them). Reviewed on 22.12 -> 25.04 (32) and
25.04 -> 26.03 (17), none is an aligner mistake on text it should have matched: they
are keys the publisher renamed over unchanged text (`rule_plaintext_symbolds` ->
`rule_plaintext_symbols`, the `rule_checkpoint_*` list), rules rewritten under their
key past recognition (the 25.04 overhaul of positions, 26.03's "end the run" rework),
and keys moved to new text while the old text moved to a new key
(`rule_terminal_checkpoint`). So the bound below is loose on purpose: the aligner is
being improved and may pair more of the rewritten ones, never fewer key pairs.
"""

from __future__ import annotations

from functools import cache

import pytest

from pipeline.diff.documents import diff_documents
from pipeline.diff.keyed import compare_with_alignment, content_pairing, key_pairs
from pipeline.models.records import Document
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest
from tests.support.helpers import SHARED

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

BUNDLES = SHARED / "netrunner" / "comprehensive-rules-yaml-source"


@cache
def real(version: str) -> Document:
    data = (BUNDLES / version / f"nsg-cr-yaml-v{version}.tar.gz").read_bytes()
    request = ParseRequest(
        family="nsg-yaml",
        document="netrunner/cr",
        rendition="tar.gz",
        what=version,
        version=version,
    )
    return parse_bytes(data, request)


@pytest.mark.parametrize(
    ("old", "new", "shared", "renumbered"),
    [("22.12", "25.04", 1423, 81), ("25.04", "26.03", 1521, 56)],
)
def test_key_pairing_is_exact_by_construction(
    old: str, new: str, shared: int, renumbered: int
) -> None:
    a, b = real(old), real(new)
    pairs = key_pairs(a, b)
    old_by_id = {r.id: r for r in a.records}
    new_by_id = {r.id: r for r in b.records}
    assert len(pairs) == len({r.key for r in a.records} & {r.key for r in b.records}) == shared
    for pair in pairs:
        assert old_by_id[pair.old_id].key == new_by_id[pair.new_id].key == pair.key
    assert len({p.new_id for p in pairs}) == len(pairs)  # one to one
    assert sum(p.renumbered for p in pairs) == renumbered


@pytest.mark.parametrize(("old", "new"), [("22.12", "25.04"), ("25.04", "26.03")])
def test_content_alignment_against_key_pairing(old: str, new: str) -> None:
    a, b = real(old), real(new)
    diff = diff_documents(a, b, by_key=False)  # content alone, to check it against the keys
    comparison = compare_with_alignment(a, b, diff)
    print(
        f"\n{old} -> {new}: {len(comparison.pairs)} shared keys, "
        f"{len(comparison.renumbering)} renumbered by key, {len(diff.renumbering)} by content, "
        f"{len(comparison.disagreements)} disagreements"
    )
    for disagreement in comparison.disagreements:
        print(f"  {disagreement!r}")
    # Every keyed old record is either agreed on or listed, never dropped.
    pairing = content_pairing(a, b, diff)
    agreed = [p for p in comparison.pairs if pairing[p.old_id][0] == p.new_id]
    listed = {d.old_id for d in comparison.disagreements}
    assert all(p.old_id not in listed for p in agreed)
    assert len(agreed) + sum(d.by_key is not None for d in comparison.disagreements) == len(
        comparison.pairs
    )
    # Most renumbering the aligner finds is the publisher's own.
    by_key = {(p.old_id, p.new_id) for p in comparison.renumbering}
    confirmed = [e for e in diff.renumbering if (e.old_id, e.new_id) in by_key]
    assert len(confirmed) >= 0.8 * len(diff.renumbering)
    # The disagreements stay a small share of the shared keys.
    assert len(comparison.disagreements) <= 0.05 * len(comparison.pairs)


@pytest.mark.parametrize(("old", "new"), [("22.12", "25.04"), ("25.04", "26.03")])
def test_the_stored_diff_pairs_by_key_and_lists_where_content_disagreed(old: str, new: str) -> None:
    from pipeline.jobs.versions import diff_versions

    a, b = real(old), real(new)
    stored = diff_versions("nsg-yaml", a, b)
    by_key = {(p.old_id, p.new_id) for p in key_pairs(a, b) if p.renumbered}
    # Every renumbering of a shared key is the key's, exactly.
    assert by_key <= {(e.old_id, e.new_id) for e in stored.renumbering}
    assert all(e.method == "key" for e in stored.renumbering if (e.old_id, e.new_id) in by_key)
    content = compare_with_alignment(a, b, diff_documents(a, b, by_key=False))
    assert stored.key_disagreements is not None
    assert [d.old_id for d in stored.key_disagreements] == [d.old_id for d in content.disagreements]
    # A key both versions carry is never paired otherwise; what remains are keys the
    # publisher dropped or renamed, which content pairs on its own evidence.
    assert all(d.by_key is None for d in compare_with_alignment(a, b, stored).disagreements)
