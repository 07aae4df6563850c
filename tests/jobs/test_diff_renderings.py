"""The Markdown and HTML a job stores beside each diff are rendered by the renderers its
caller passes (the command line passes report/'s): the write pipeline renders nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.errors import EXIT_OK, UsageError
from pipeline.jobs.context import Context, DiffRenderers
from pipeline.jobs.import_archive import import_archive
from pipeline.jobs.outcomes import RunSummary
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document
from pipeline.store.corpus import Corpus
from tests.support.helpers import SHARED, link_archive
from tests.support.mtg_sources import MTG

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow


def import_two(root: Path, parse_cache_dir: Path, renderers: DiffRenderers | None) -> RunSummary:
    """MTG 2025-07-25 then 2025-11-14, imported with `renderers`."""
    wanted = {MTG.format(v) for v in ("20250725", "20251114")}
    entries = [e for e in json.loads((SHARED / "manifest.json").read_text()) if e["path"] in wanted]
    ctx = Context(
        root / "corpus", root / "cache", parse_cache_dir=parse_cache_dir, renderers=renderers
    )
    return import_archive(ctx, link_archive(root / "archive", entries))


def markdown(diff: DocumentDiff, old: Document, new: Document) -> str:
    return f"# {diff.document} {old.version}..{new.version}: {len(diff.changes)} changes\n"


def html(diff: DocumentDiff, old: Document, new: Document) -> str:
    return f"<p>{len(new.records)} rules</p>\n"


def test_the_stored_reports_are_what_the_given_renderers_render(
    tmp_path: Path, parse_cache_dir: Path
) -> None:
    summary = import_two(tmp_path, parse_cache_dir, DiffRenderers(markdown=markdown, html=html))
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes]
    corpus = Corpus(tmp_path / "corpus")
    (stored,) = corpus.document_entry("mtg/cr").diffs
    changes = json.loads(corpus.read_file(stored.json_file))["changes"]
    assert changes
    assert corpus.read_file(stored.markdown).decode() == (
        f"# mtg/cr 2025-07-25..2025-11-14: {len(changes)} changes\n"
    )
    rules = len(corpus.load_document("mtg/cr", "2025-11-14").records)
    assert corpus.read_file(stored.html).decode() == f"<p>{rules} rules</p>\n"


def test_a_job_given_no_renderers_stores_no_diff_and_says_what_it_needs(
    tmp_path: Path, parse_cache_dir: Path
) -> None:
    with pytest.raises(UsageError, match="needs its renderers"):
        import_two(tmp_path, parse_cache_dir, None)
    entry = Corpus(tmp_path / "corpus").document_entry("mtg/cr")
    assert [v.version for v in entry.versions] == ["2025-07-25"] and entry.diffs == []
