"""Rulings diff: the real snapshots, and a hand-edited copy re-packed from the real tarball."""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

from pipeline.diff.rulings import diff_rulings
from pipeline.extract.tarball import read_tar_members
from pipeline.models.records import Document, ParseOptions, Ruling
from pipeline.parse import rulings
from tests.support.helpers import SHARED

RULINGS = SHARED / "netrunner" / "rulings-netrunnerdb"


def tarball(version: str) -> Path:
    return RULINGS / version / f"netrunnerdb-v2-rulings-{version}.tar.gz"


@cache
def snapshot(version: str) -> Document:
    files = read_tar_members(tarball(version).read_bytes(), what=version)
    return rulings.parse(files, {}, ParseOptions("netrunner/rulings", "tar.gz", version))


def repack(files: dict[str, bytes], path: Path) -> bytes:
    """Write `files` as a .tar.gz in tmp (as a maintainer would re-pack an edited copy)."""
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path.read_bytes()


def edit_card_file(
    files: dict[str, bytes], card: str, edit: Callable[[list[dict[str, object]]], None]
) -> None:
    name = f"v2/rulings/{card}.json"
    entries = json.loads(files[name])
    edit(entries)
    files[name] = json.dumps(entries, indent=2, ensure_ascii=False).encode()


def only(doc: Document, card: str, start: str) -> Ruling:
    hits = [r for r in doc.rulings if card in r.cards and (r.question or "").startswith(start)]
    assert len(hits) == 1
    return hits[0]


def test_real_snapshots_diff_is_empty() -> None:
    diff = diff_rulings(snapshot("2023-03-12"), snapshot("2024-01-15"))
    assert diff.changes == [] and diff.summary == {}
    assert (diff.old_version, diff.new_version) == ("2023-03-12", "2024-01-15")


def test_hand_edited_copy_gives_exactly_those_changes(tmp_path: Path) -> None:
    old = snapshot("2024-01-15")
    edited_ruling = only(old, "carnivore", "Can the Runner use Carnivore to trash an operation")
    removed_ruling = only(old, "virtuoso", "Does Virtuoso work with Docklands Pass?")
    # Both live in one card file only, so the edit touches one record each.
    assert edited_ruling.cards == ["carnivore"] and removed_ruling.cards == ["virtuoso"]

    files = read_tar_members(tarball("2024-01-15").read_bytes(), what="copy")

    def change_answer(entries: list[dict[str, object]]) -> None:
        hit = [e for e in entries if "operation or piece of ice" in str(e.get("question"))]
        assert len(hit) == 1
        hit[0]["answer"] = "No. [Carnivore](/en/card/30003) only trashes assets and upgrades."

    def drop_docklands(entries: list[dict[str, object]]) -> None:
        keep = [e for e in entries if "Docklands Pass" not in str(e.get("question"))]
        assert len(keep) == len(entries) - 1
        entries[:] = keep

    edit_card_file(files, "carnivore", change_answer)
    edit_card_file(files, "virtuoso", drop_docklands)
    data = repack(files, tmp_path / "edited.tar.gz")
    new = rulings.parse(
        read_tar_members(data, what="edited"),
        {},
        ParseOptions("netrunner/rulings", "tar.gz", "edited"),
    )
    assert new.warnings == []
    assert new.counts["rulings"] == old.counts["rulings"] - 1

    diff = diff_rulings(old, new)
    assert diff.summary == {"removed": 1, "reworded": 1}
    reworded, removed = diff.changes
    assert reworded.cls == "reworded" and reworded.old_id == edited_ruling.id
    edited_now = only(new, "carnivore", "Can the Runner use Carnivore to trash an operation")
    assert reworded.new_id == edited_now.id != edited_ruling.id
    assert edited_now.answer == "No. Carnivore only trashes assets and upgrades."
    assert reworded.cards_gained == [] and reworded.cards_lost == []
    deleted = " ".join(w.text for w in reworded.words if w.op == "delete")
    inserted = " ".join(w.text for w in reworded.words if w.op == "insert")
    assert "does not care whether a card you access has a trash cost" in deleted
    assert "only trashes assets and upgrades" in inserted
    assert removed.cls == "removed" and removed.old_id == removed_ruling.id
    assert removed.cards_lost == ["virtuoso"]
    # Serialised with the public field name "class".
    assert json.loads(diff.model_dump_json(by_alias=True))["changes"][1]["class"] == "removed"


def ruling(rid: str, cards: list[str], question: str, answer: str = "Yes.") -> Ruling:
    return Ruling(id=rid, cards=cards, question=question, answer=answer)


def doc_of(*records: Ruling, version: str = "v") -> Document:
    base = snapshot("2024-01-15")
    return base.model_copy(update={"rulings": list(records), "version": version})


def test_card_attachments_gained_and_lost() -> None:
    old = doc_of(ruling("ruling:1", ["a", "b"], "Does it?"))
    new = doc_of(ruling("ruling:1", ["b", "c"], "Does it?"))
    (change,) = diff_rulings(old, new).changes
    assert change.cls == "cards-changed"
    assert (change.cards_gained, change.cards_lost) == (["c"], ["a"])


def test_added_ruling_and_unrelated_question_are_not_paired() -> None:
    old = doc_of(ruling("ruling:1", ["a"], "Can the Runner trash ice with this card?"))
    new = doc_of(ruling("ruling:2", ["a"], "What happens when the Corp scores an agenda?"))
    diff = diff_rulings(old, new)
    assert diff.summary == {"added": 1, "removed": 1}


def test_similar_question_on_another_card_is_not_an_edit() -> None:
    old = doc_of(ruling("ruling:1", ["a"], "Can the Runner trash ice with this card?"))
    new = doc_of(ruling("ruling:2", ["b"], "Can the Runner trash ice with this card now?"))
    assert diff_rulings(old, new).summary == {"added": 1, "removed": 1}


def test_reworded_question_keeps_its_pairing_and_card_moves() -> None:
    old = doc_of(ruling("ruling:1", ["a", "b"], "Can the Runner trash ice with this card?"))
    new = doc_of(ruling("ruling:2", ["a"], "Can the Runner trash a piece of ice with this card?"))
    (change,) = diff_rulings(old, new).changes
    assert change.cls == "reworded" and change.similarity is not None
    assert 0.6 <= change.similarity < 1
    assert change.cards_lost == ["b"]
