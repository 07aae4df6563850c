"""Magic's tournament documents imported from ../shared/sources into a scratch corpus: every
version is published (none waits for review), and the diff of the Tournament Rules shows
the sections the publisher moved between 2018 and 2024."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_CHANGED, EXIT_OK
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from pipeline.store.corpus import Corpus
from tests.support.helpers import link_archive

DOCUMENTS = {"tournament-rules", "infraction-procedure-guide", "judging-at-regular-rel"}


@pytest.fixture(scope="module")
def corpus(
    tmp_path_factory: pytest.TempPathFactory, manifest: list[dict[str, Any]], parse_cache_dir: Path
) -> Path:
    root = tmp_path_factory.mktemp("mtg-policy")
    entries = [e for e in manifest if e["game"] == "mtg" and e["document"] in DOCUMENTS]
    folder = link_archive(root / "archive", entries)
    ctx = Context(
        corpus_dir=root / "corpus",
        cache_dir=root / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )
    summary = import_archive(ctx, folder)
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes if o.exit_code]
    return ctx.corpus_dir


def run(corpus: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--corpus", str(corpus), *args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_every_version_is_published_not_staged(corpus: Path) -> None:
    index = Corpus(corpus).index()
    expected = {
        "mtg/mtr": ["2018-05-18", "2024-05-13"],
        "mtg/ipg": ["2018-04-27", "2024-04-15"],
        "mtg/jar": ["2014-09-26"],
    }
    for document, versions in expected.items():
        entries = index.documents[document].versions
        assert [v.version for v in entries] == versions
        assert all(v.status == "published" and v.warnings == 0 for v in entries)
        assert index.documents[document].current == versions[-1]


def test_the_mtr_diff_shows_the_swap_and_the_shift(corpus: Path) -> None:
    diff = json.loads(
        run(corpus, "diff", "mtg/mtr", "2018-05-18", "2024-05-13", "--format", "json")
    )
    moves = {(m["old_id"], m["new_id"]) for m in diff["renumbering"]}
    assert {("mtr:2.4", "mtr:2.5"), ("mtr:2.5", "mtr:2.4")} <= moves
    # a new 3.9 Die Rolling shifts 3.9-3.15 down by one
    assert {(f"mtr:3.{n}", f"mtr:3.{n + 1}") for n in range(9, 16)} <= moves
    added = {c["new_id"] for c in diff["changes"] if c["old_id"] is None}
    assert "mtr:3.9" in added


def test_show_answers_mtr_and_ipg_citations(corpus: Path) -> None:
    shown = run(corpus, "show", "mtr:3.9", "--doc", "mtg/mtr")
    assert "Die Rolling" in shown
    penalty = run(corpus, "show", "ipg:2.1", "--doc", "mtg/ipg")
    assert "Game Play Error — Missed Trigger" in penalty and "No Penalty" in penalty


def test_a_release_not_seen_before_is_published_by_update(
    tmp_path: Path, manifest: list[dict[str, Any]], parse_cache_dir: Path
) -> None:
    """A corpus that holds the 2018 documents; `update` finds the 2024 ones on a mirror and
    publishes them with no one to review them (exit 10: new versions stored)."""
    ours = [e for e in manifest if e["game"] == "mtg" and e["document"] in DOCUMENTS]
    ctx = Context(
        corpus_dir=tmp_path / "corpus",
        cache_dir=tmp_path / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )
    old = link_archive(tmp_path / "old", [e for e in ours if e["version"] < "2019"])
    assert import_archive(ctx, old).exit_code == EXIT_OK
    mirror = link_archive(tmp_path / "mirror", ours)
    args = ["--corpus", str(ctx.corpus_dir), "--cache", str(ctx.cache_dir), "update"]
    result = CliRunner().invoke(app, [*args, "mtg-mtr-pdf", "mtg-ipg-pdf", "--mirror", str(mirror)])
    assert result.exit_code == EXIT_CHANGED, result.stdout + result.stderr
    index = Corpus(ctx.corpus_dir).index()
    for document, version in (("mtg/mtr", "2024-05-13"), ("mtg/ipg", "2024-04-15")):
        entry = index.documents[document].versions[-1]
        assert (entry.version, entry.status, entry.warnings) == (version, "published", 0)
