"""reconcile(): publisher change lists against diffs, hand-built and NISEI 1.1 -> 1.2."""

from __future__ import annotations

from pipeline.diff.reconcile import covers, is_descendant, reconcile
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import PublisherChange


def make_diff(*changes: Change) -> DocumentDiff:
    return DocumentDiff(
        document="netrunner/cr", old_version="1.1", new_version="1.2", changes=list(changes)
    )


def change(cls: str, old: str | None = None, new: str | None = None, **extra: object) -> Change:
    return Change.model_validate({"class": cls, "old_id": old, "new_id": new, **extra})


def test_descendants_in_both_numbering_styles() -> None:
    assert is_descendant("cr:1.5.4d", "cr:1.5.4")
    assert is_descendant("cr:1.5.4", "cr:1.5")
    assert is_descendant("cr:383.4.a.1", "cr:383.4")
    assert not is_descendant("cr:1.5.40", "cr:1.5.4")
    assert not is_descendant("cr:1.5", "cr:1.5")
    assert not is_descendant("cr:10.1", "cr:1")


def test_section_citations_also_accept_ancestors_but_not_chapters() -> None:
    assert covers("cr:6.8.2", "cr:6.8", as_section=True)
    assert not covers("cr:6.8.2", "cr:6.8", as_section=False)
    assert not covers("cr:6.8.2", "cr:6", as_section=True)


def test_found_not_found_and_unnamed() -> None:
    named = [
        PublisherChange(text="Fixed rule 10.1.3 to handle swaps.", cites=["cr:10.1.3"]),
        PublisherChange(text="Expanded section 6.5 on encounters.", cites=["cr:6.5"]),
        PublisherChange(text="Clarified section 4.2.2 searching.", cites=["cr:4.2.2"]),
        PublisherChange(text="Issued errata to Chum.", cites=[]),
        PublisherChange(text="Defined a term (rule 2.2.2).", cites=["cr:2.2.2"]),
    ]
    diff = make_diff(
        change("reworded", "cr:10.1.3a", "cr:10.1.3a"),  # subrule of a named rule
        change("added", None, "cr:6.5.7"),  # inside a named section
        change("reworded", "cr:4.2", "cr:4.2"),  # ancestor of a named "section 4.2.2"
        change("removed", "cr:3.3.1", None),  # nobody named it
        change("renumbered", "cr:3.4.1", "cr:3.4.2"),  # pure follow-on renumbering
        change("renumbered", "cr:3.5.1", "cr:3.5.2", text_change="reworded"),
        change("split", "cr:7.1.1", None, new_ids=["cr:7.1.1", "cr:7.1.2"]),
    )
    result = reconcile(named, diff)
    assert [c.text for c in result.named_found] == [named[0].text, named[1].text, named[2].text]
    assert [c.text for c in result.named_not_found] == [named[3].text, named[4].text]
    assert result.found_not_named == ["cr:3.3.1", "cr:3.5.2", "cr:7.1.1"]


def test_renumbered_id_counts_on_either_side() -> None:
    named = [
        PublisherChange(text="Moved up rule 5.2.2 (previously rule 5.2.3).", cites=["cr:5.2.2"])
    ]
    result = reconcile(named, make_diff(change("moved", "cr:5.2.3", "cr:5.2.2")))
    assert result.named_found == named and result.found_not_named == []
    only_old = reconcile(named, make_diff(change("removed", "cr:5.2.2", None)))
    assert only_old.named_found == named


def test_empty_inputs_and_determinism() -> None:
    assert reconcile([], make_diff()).model_dump() == {
        "named_not_found": [],
        "found_not_named": [],
        "named_found": [],
    }
    named = [PublisherChange(text="rule 1.1.1", cites=["cr:1.1.1"])]
    diff = make_diff(change("added", None, "cr:1.1.1"), change("added", None, "cr:9.9.9"))
    assert reconcile(named, diff).model_dump_json() == reconcile(named, diff).model_dump_json()


def test_nisei_1_1_to_1_2_against_its_summary_of_changes() -> None:
    """The real diff, reconciled with 1.2's own list (figures reported in docs/diffs.md)."""
    from pipeline.diff.documents import diff_documents
    from tests.parse.test_netrunner import parsed

    old, new = parsed("1.1"), parsed("1.2")
    diff = diff_documents(old, new)
    named = new.publisher_changes
    result = reconcile(named, diff)
    assert len(result.named_found) + len(result.named_not_found) == len(named) == 22
    # Every item naming a rule or section is found; what the diff misses are the items that
    # cite no number at all (card errata, "Decoupled the [trash] icon", the checkpoint rework).
    assert all(c.cites for c in result.named_found)
    assert all(not c.cites for c in result.named_not_found)
    assert len(result.named_found) == sum(1 for c in named if c.cites)
    # The new appendix 13 is named ("a new appendix, section 13") and shows up in the diff.
    assert any(c.cites == ["cr:13"] for c in result.named_found)
    # Changes the publisher did not list by number: the diff finds them
    # (e.g. the checkpoint rules 10.3).
    assert any(i.startswith("cr:10.3.") for i in result.found_not_named)
