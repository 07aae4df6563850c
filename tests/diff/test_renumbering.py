"""The renumbering map: read off one diff, followed along a lineage of versions, looked up;
and `rulescorpus renumbering`, `show --version OLD` and `history` over a corpus imported
from ../shared/sources."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.corpus import open_corpus
from pipeline.corpus.diffs import pair_diff
from pipeline.diff.documents import diff_documents
from pipeline.diff.renumbering import Lookup, lookup, map_of_diff, status_of
from pipeline.errors import EXIT_USAGE
from pipeline.lookup import StoredCorpus
from pipeline.lookup.lineage import added_along, entry_along, step_of_map
from pipeline.models.diffs import MapEntry, RenumberingMap
from pipeline.models.records import Document, Location, ParserInfo, Rule
from pipeline.store.corpus import Corpus
from tests.support.diff_real import imported_corpus
from tests.support.helpers import ROOT

runner = CliRunner()


def invoke(corpus: Path, *args: str) -> tuple[int, str, str]:
    """`rulescorpus ARGS --corpus CORPUS`: exit code, standard output, standard error."""
    result = runner.invoke(app, [*args, "--corpus", str(corpus)])
    return result.exit_code, result.stdout, result.stderr


# --------------------------------------------------------------------------- hand-built documents

TEXTS = {
    "draw": "Each player draws seven cards at the start of the game before anything else.",
    "deck": "A player who has no cards left in their library loses the next time it is checked.",
    "token": "Tokens are not cards and cease to exist when they leave the battlefield at all.",
    "pass": "Priority passes clockwise around the table until every player passes in a row.",
    "order": "The active player chooses the order of simultaneous triggers they control now.",
    "mana": "Mana empties from each pool at the end of every step and every phase of a turn.",
}


def rule(rule_id: str, text: str) -> Rule:
    number = rule_id.removeprefix("cr:")
    parent = "cr:100" if "." in number else None
    return Rule(
        id=rule_id,
        number=number,
        kind="rule" if parent else "section",
        parent=parent,
        depth=2 if parent else 1,
        title=None if parent else "General",
        text=text,
        location=Location(line=1),
    )


def version(name: str, *rules: tuple[str, str]) -> Document:
    return Document(
        game="mtg",
        document="mtg/cr",
        title="Rules",
        version=name,
        parser=ParserInfo(family="mtg-cr", version="1"),
        records=[rule("cr:100", ""), *(rule(i, TEXTS[t]) for i, t in rules)],
    )


V1 = version("1", ("cr:100.1", "draw"), ("cr:100.2", "deck"), ("cr:100.3", "token"))
# 2: a rule inserted at 100.1 shifts the others; "deck" is reworded as it moves.
V2 = version(
    "2",
    ("cr:100.1", "pass"),
    ("cr:100.2", "draw"),
    ("cr:100.3", "deck"),
    ("cr:100.4", "token"),
)
V2.records[3] = V2.records[3].model_copy(update={"text": TEXTS["deck"].replace("next", "first")})
# 3: "pass" is removed (so everything shifts back) and "order" takes 100.4.
V3 = version(
    "3",
    ("cr:100.1", "draw"),
    ("cr:100.2", "deck"),
    ("cr:100.3", "token"),
    ("cr:100.4", "order"),
)
V3.records[2] = V3.records[2].model_copy(update={"text": V2.records[3].text})


def maps() -> tuple[RenumberingMap, RenumberingMap]:
    return map_of_diff(diff_documents(V1, V2)), map_of_diff(diff_documents(V2, V3))


def test_the_map_of_one_diff_lists_every_old_id_that_did_not_stay() -> None:
    first, _ = maps()
    assert (first.old_version, first.new_version, first.via) == ("1", "2", ["1", "2"])
    assert [(e.old_id, e.new_id, e.cls, e.text_change, e.method) for e in first.entries] == [
        ("cr:100.1", "cr:100.2", "renumbered", None, "exact"),
        ("cr:100.2", "cr:100.3", "renumbered", "reworded", "similar"),
        ("cr:100.3", "cr:100.4", "renumbered", None, "exact"),
    ]
    assert first.added == ["cr:100.1"]
    assert lookup(first, "cr:100").status == "current"  # not listed: unchanged
    assert lookup(first, "cr:100.2").new_id == "cr:100.3"


def composed(*maps: RenumberingMap) -> tuple[dict[str, Lookup], set[str]]:
    """What the lineage's steps of consecutive maps say of every id of the first version:
    its looked-up entry, and the ids added since."""
    steps = [step_of_map(m.model_dump(mode="json", by_alias=True)) for m in maps]
    olds = {e.old_id for m in maps for e in m.entries} | {"cr:100", "cr:100.1", "cr:100.2"}
    found = {}
    for old_id in olds:
        entry = entry_along(steps, old_id)
        found[old_id] = status_of(old_id, MapEntry.model_validate(entry) if entry else None)
    return found, added_along(steps)


def test_maps_compose_along_the_chain_and_say_where_each_step_went() -> None:
    found, added = composed(*maps())
    # Renumbered and back again to the same number with the same text: nothing to say.
    assert found["cr:100.1"].status == "current"
    assert found["cr:100.3"].status == "current"
    # Back at its own number, but reworded on the way: changed.
    deck = found["cr:100.2"]
    assert (deck.status, deck.new_id) == ("changed", "cr:100.2")
    assert deck.entry is not None and deck.entry.cls == "reworded"
    assert [(s.version, s.id, s.cls) for s in deck.entry.steps] == [
        ("2", "cr:100.3", "renumbered"),
        ("3", "cr:100.2", "renumbered"),
    ]
    # "pass" came and went after version 1, and "order" is new: 100.4 is an addition.
    assert added == {"cr:100.4"}


def test_a_removed_rule_stays_removed_and_its_number_reused_is_not_it() -> None:
    old = version("a", ("cr:100.1", "draw"), ("cr:100.2", "mana"))
    mid = version("b", ("cr:100.1", "draw"))
    new = version("c", ("cr:100.1", "draw"), ("cr:100.2", "order"))
    found, added = composed(
        map_of_diff(diff_documents(old, mid)), map_of_diff(diff_documents(mid, new))
    )
    gone = found["cr:100.2"]
    assert (gone.status, gone.new_id) == ("removed", None)
    assert gone.entry is not None and [(s.version, s.id) for s in gone.entry.steps] == [("b", None)]
    assert added == {"cr:100.2"}


# --------------------------------------------------------------------------- a real corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    return imported_corpus(tmp_path_factory, parse_cache_dir)


def test_renumbering_json_follows_its_schema_and_names_the_meld_moves(corpus: Path) -> None:
    code, out, _ = invoke(
        corpus, "renumbering", "mtg/cr", "2022-11-18", "2023-04-14", "--format", "json"
    )
    assert code == 0
    data = json.loads(out)
    schema = json.loads((ROOT / "schemas" / "renumbering.schema.json").read_text())
    jsonschema.validate(data, schema)
    by_old = {e["old_id"]: e for e in data["entries"]}
    assert by_old["cr:713.1"]["new_id"] == "cr:712.4"
    assert (by_old["cr:713.1"]["class"], by_old["cr:713.1"]["weak"]) == ("moved", True)
    assert by_old["cr:714.1"] | {"steps": []} == by_old["cr:714.1"]
    assert (by_old["cr:714.1"]["new_id"], by_old["cr:714.1"]["method"]) == ("cr:713.1", "exact")
    # Meld cards' first sentence is the new 712.4 (old 713.1 moved there): a possible move
    # a reader checks, never a plain removal.
    assert (by_old["cr:712.1g"]["new_id"], by_old["cr:712.1g"]["class"]) == (
        "cr:712.4",
        "possibly-moved",
    )
    assert by_old["cr:712.1g"]["weak"]
    # The same map the stored diff gives, with nothing recomputed.
    diff = pair_diff(StoredCorpus(corpus), "mtg/cr", "2022-11-18", "2023-04-14")
    assert RenumberingMap.model_validate(data) == map_of_diff(diff)


def test_each_stored_diff_has_its_map_beside_it(corpus: Path) -> None:
    stored = Corpus(corpus)
    schema = json.loads((ROOT / "schemas" / "renumbering.schema.json").read_text())
    for document in ("mtg/cr", "riftbound/cr", "netrunner/cr", "fab/cr"):
        entry = stored.document_entry(document)
        assert entry.diffs
        for d in entry.diffs:
            assert d.renumbering is not None
            assert d.renumbering.startswith(f"{document}/diffs/{d.old}..{d.new}.renumbering.")
            data = json.loads(stored.read_file(d.renumbering))
            jsonschema.validate(data, schema)
            diff = pair_diff(StoredCorpus(corpus), document, d.old, d.new)
            assert RenumberingMap.model_validate(data) == map_of_diff(diff)


def test_renumbering_to_the_current_version_composes_the_chain(corpus: Path) -> None:
    code, out, _ = invoke(corpus, "renumbering", "mtg/cr", "2022-10-07", "--format", "csv")
    assert code == 0
    rows = {r["old_id"]: r for r in csv.DictReader(io.StringIO(out))}
    assert list(next(iter(rows.values()))) == [
        "old_id",
        "new_id",
        "class",
        "text_change",
        "method",
        "similarity",
        "weak",
        "new_ids",
        "old_ids",
        "evidence",
    ]
    # 2022-10-07's 713.4 (a melded permanent leaving the battlefield) is 712.21 since
    # meld cards joined double-faced cards in 2023-04-14.
    assert (rows["cr:713.4"]["new_id"], rows["cr:713.4"]["class"]) == ("cr:712.21", "moved")
    assert rows["cr:712.2"]["new_id"] == "cr:712.6"
    assert rows["cr:712.2"]["weak"] == "yes"
    code, md, _ = invoke(corpus, "renumbering", "mtg/cr", "2022-10-07")
    assert md.startswith("# Renumbering map, mtg/cr: 2022-10-07 → 2025-11-14 (via 2022-11-18")
    assert "| `cr:713.4` | `cr:712.21` | moved |" in md
    assert "⚠ weak" in md


def test_renumbering_refuses_versions_in_the_wrong_order_or_unknown(corpus: Path) -> None:
    code, _, err = invoke(corpus, "renumbering", "mtg/cr", "2025-11-14", "2022-10-07")
    assert code == EXIT_USAGE and "newer than" in err
    code, _, err = invoke(corpus, "renumbering", "mtg/cr", "2021-01-01")
    assert code == EXIT_USAGE and "version 2021-01-01 of mtg/cr not found" in err
    assert "2022-10-07" in err  # the message lists what is stored


def test_show_an_old_version_says_where_the_rule_lives_now(corpus: Path) -> None:
    code, out, _ = invoke(corpus, "show", "cr:713.1", "--doc", "mtg/cr", "--version", "2022-11-18")
    assert code == 0
    assert "A meld card has a Magic card face on one side" in out
    assert re.search(
        r"Now: in 2025-11-14 this rule lives at cr:712\.4 \(moved, text\s+reworded\)", out
    )
    code, out, _ = invoke(
        corpus, "show", "cr:713.1", "--doc", "mtg/cr", "--version", "2022-11-18", "--json"
    )
    now = json.loads(out)["now"]
    assert (now["version"], now["status"], now["id"], now["class"]) == (
        "2025-11-14",
        "renumbered",
        "cr:712.4",
        "moved",
    )
    # The current version itself has no "now".
    code, out, _ = invoke(corpus, "show", "cr:712.4", "--doc", "mtg/cr", "--json")
    assert json.loads(out)["now"] is None


def test_history_follows_the_map_back_to_the_old_number(corpus: Path) -> None:
    steps = open_corpus(corpus).history("mtg/cr", "cr:712.4")
    by_version = {s.version: s.citation for s in steps}
    assert by_version["2022-11-18"] == "cr:713.1"  # the meld definition before 712 took it
    assert by_version["2023-04-14"] == "cr:712.4"
    # Old 712.4 (each face's characteristics) is not this rule's past.
    assert by_version["2022-10-07"] != "cr:712.4"


def test_diff_min_similarity_rediffs_with_the_stricter_threshold(corpus: Path) -> None:
    args = ("diff", "mtg/cr", "2022-11-18", "2023-04-14", "--format", "json")
    default = json.loads(invoke(corpus, *args)[1])
    strict = json.loads(invoke(corpus, *args, "--min-similarity", "0.9")[1])
    assert default["min_similarity"] is None and strict["min_similarity"] == 0.9
    moved = {c["old_id"]: c["new_id"] for c in default["changes"] if c["class"] == "moved"}
    assert moved["cr:713.1"] == "cr:712.4"
    assert not any(c["old_id"] == "cr:713.1" and c["new_id"] for c in strict["changes"])
    # Fewer pairings: what is left of the weak ones is removed and added instead.
    assert len(strict["renumbering"]) < len(default["renumbering"])
    assert strict["summary"]["added"] > default["summary"]["added"]
    assert invoke(corpus, *args, "--min-similarity", "1.5")[0] == EXIT_USAGE
