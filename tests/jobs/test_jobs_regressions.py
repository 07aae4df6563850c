"""Regression tests of the jobs that write and check a corpus, one per defect, named after
it: a full disk, corrupt stored files `verify` must catch, renditions that disagree,
hosts that never answer. Each docstring says what was found."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.errors import (
    EXIT_CHANGED,
    EXIT_FETCH,
    EXIT_IO,
    EXIT_OK,
    EXIT_PARSE,
    EXIT_USAGE,
    EXIT_VERIFY,
)
from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs import update as jobs
from pipeline.jobs import update as update_job
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context
from pipeline.models.index import DiffEntry
from pipeline.store.corpus import Corpus
from tests.faults import cases_network, materials
from tests.faults.lab import Lab
from tests.support.helpers import ROOT, SHARED, corpus_digest, registry_file
from tests.support.mtg_sources import copy_tree, mtg_entries, mtg_registry, mtg_source
from tests.support.server import Reply, ScriptedServer


@pytest.fixture
def two_versions(mtg_pair_corpus: Path) -> Path:
    """MTG 2025-07-25 and 2025-11-14 imported: corpus/, with cache/ and archive/ beside it.
    Shared by the whole run: a test copies it before changing anything."""
    return mtg_pair_corpus.parent


FULL_DISK = """
import resource, signal, sys
from pathlib import Path
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
from pipeline.cli.app import main
sys.argv = ["rulescorpus", "--corpus", sys.argv[1] + "/corpus", "--cache", sys.argv[1] + "/cache",
            "import", sys.argv[1] + "/archive"]
main()
"""


def _flip_one_bit(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.fixture
def corpus_copy(imported_corpus: Context, tmp_path: Path) -> Context:
    """The imported corpus copied (its blobs read from the session's cache, never written)."""
    shutil.copytree(imported_corpus.corpus_dir, tmp_path / "corpus", symlinks=True)
    return Context(
        corpus_dir=tmp_path / "corpus",
        cache_dir=imported_corpus.cache_dir,
        renderers=diff_renderers(),
    )


def _mtg_diff(ctx: Context) -> DiffEntry:
    return ctx.corpus.document_entry("mtg/cr").diffs[-1]


def test_a_full_disk_is_exit_74_naming_the_path_and_touches_nothing(
    two_versions: Path, tmp_path: Path
) -> None:
    """A full disk during import ended in a traceback and a half-written corpus."""
    root = tmp_path / "full"
    copy_tree(two_versions, root)
    # A third version arrives; the disk holds files of at most 64 KiB (a version is ~4 MB).
    for entry in mtg_entries("20230414"):
        target = root / "archive" / str(entry["path"])
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(SHARED / str(entry["path"]), target)
    manifest = mtg_entries("20250725", "20251114", "20230414")
    (root / "archive" / "manifest.json").write_text(json.dumps(manifest))
    before = corpus_digest(root / "corpus")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(root), str(64 << 10)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == EXIT_IO, done.stdout + done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert str(root) in done.stdout + done.stderr
    assert corpus_digest(root / "corpus") == before


def test_update_says_20_not_0_when_a_stored_version_is_corrupt(
    two_versions: Path, tmp_path: Path
) -> None:
    """`update` exited 0 over a stored version whose bytes had changed."""
    root = tmp_path / "corrupt"
    copy_tree(two_versions, root)
    corpus = Corpus(root / "corpus")
    path = root / "corpus" / corpus.version_entry("mtg/cr", "2025-11-14").file
    path.write_bytes(path.read_bytes().replace(b"Trample", b"Tramble", 1))
    registry = mtg_registry(tmp_path)
    ctx = Context(root / "corpus", root / "cache", registry, renderers=diff_renderers())
    summary = jobs.update(ctx, [], mirror=str(root / "archive"))
    assert summary.exit_code == EXIT_VERIFY
    assert str(path) in summary.outcomes[0].message


def test_a_host_that_rate_limits_everything_cannot_outlive_the_run_deadline(
    tmp_path: Path, server: ScriptedServer
) -> None:
    """A host answering 429 with Retry-After: 3600 to every request kept `update`
    waiting past its deadline."""
    server.serve("/cr.txt", Reply(429, b"", {"Retry-After": "3600"}))
    sources = [
        mtg_source(url=server.url("/cr.txt"), id=f"mtg-cr-{n}", document=f"mtg/cr{n}")
        for n in range(3)
    ]
    ctx = Context(
        tmp_path / "corpus",
        tmp_path / "cache",
        registry_file(tmp_path, sources),
        renderers=diff_renderers(),
    )
    ctx.policy = FetchPolicy(deadline=300, max_retry_after=300, retries=5)
    summary = jobs.update(ctx, [], deadline=1.0)
    assert summary.exit_code == EXIT_FETCH
    assert [o.outcome for o in summary.outcomes] == ["fetch-failed"] * 3
    assert any("deadline" in o.message for o in summary.outcomes)
    assert len(server.requests) <= 3


def test_no_outcome_but_unchanged_sums_to_exit_0() -> None:
    """A run with a failure among unchanged documents must never exit 0."""
    from pipeline.jobs.outcomes import RunSummary
    from pipeline.models.outcomes import Outcome

    for code in (2, 10, 20, 30, 40, 74, 75, 99):
        summary = RunSummary("update", [Outcome(document="d", outcome="x", exit_code=code)])
        summary.outcomes.append(Outcome(document="e", outcome="unchanged"))
        assert summary.exit_code == code, code
    assert RunSummary("update", [Outcome(document="d", outcome="unchanged")]).exit_code == 0
    assert EXIT_CHANGED and EXIT_PARSE  # the documented codes exist


@pytest.mark.parametrize("part", ["json_file", "markdown", "html", "renumbering"])
def test_a_bit_flipped_in_a_stored_diff_fails_verify(corpus_copy: Context, part: str) -> None:
    """Found by `make faults` (diff-flip-verify): a bit flipped in a stored diff passed
    `verify` (exit 0)."""
    name = getattr(_mtg_diff(corpus_copy), part)
    assert name is not None
    _flip_one_bit(corpus_copy.corpus_dir / name)
    summary = audit.verify(corpus_copy, ["mtg/cr"])
    assert summary.exit_code == EXIT_VERIFY
    failed = [o for o in summary.outcomes if o.exit_code]
    assert len(failed) == 1 and name in failed[0].message and "changed since" in failed[0].message


def test_a_bit_flipped_in_a_stored_alias_table_fails_verify(corpus_copy: Context) -> None:
    """Found by `make faults` (aliases-flip-verify): a bit flipped in a stored alias
    table passed `verify` (exit 0)."""
    entry = corpus_copy.corpus.document_entry("mtg/cr")
    item = next(v for v in entry.versions if v.aliases is not None)
    assert item.aliases is not None
    _flip_one_bit(corpus_copy.corpus_dir / item.aliases)
    summary = audit.verify(corpus_copy, ["mtg/cr"])
    assert summary.exit_code == EXIT_VERIFY
    failed = [o for o in summary.outcomes if o.exit_code]
    assert [o.version for o in failed] == [item.version]
    assert item.aliases in failed[0].message


def test_verify_checks_every_stored_diff_of_a_clean_corpus(corpus_copy: Context) -> None:
    """The other side of the diff bit flip: `verify` checks every stored diff, and a
    clean corpus passes."""
    summary = audit.verify(corpus_copy, ["mtg/cr"])
    assert summary.exit_code == EXIT_OK
    diffs = {o.version for o in summary.outcomes if o.version and ".." in o.version}
    entry = corpus_copy.corpus.document_entry("mtg/cr")
    assert diffs == {f"{d.old}..{d.new}" for d in entry.diffs} and diffs


def test_a_bit_flipped_in_a_stored_fetch_record_fails_verify(corpus_copy: Context) -> None:
    """Found by `make faults` (fetch-record-flip): verify re-hashed version files and
    blobs only, yet a stored fetch record is the proof of where and when the bytes were
    retrieved."""
    index = corpus_copy.corpus.index()
    name = index.fetch[sorted(index.fetch)[0]]
    _flip_one_bit(corpus_copy.corpus_dir / name)
    summary = audit.verify(corpus_copy, [])
    failed = [o for o in summary.outcomes if o.exit_code]
    assert [o.document for o in failed] == ["fetch records"] and name in failed[0].message
    assert summary.exit_code == EXIT_VERIFY


def test_renditions_stating_different_versions_publish_nothing(lab: Lab) -> None:
    """Found by `make faults` (versions-disagree): a TXT at 2026-01-16 and a PDF at
    2025-01-16 served together exited 40, and the failed run published the TXT's
    version."""
    outcome = cases_network.renditions_disagree(lab)
    assert outcome.got == EXIT_VERIFY, f"{outcome.problems}\n{outcome.output}"
    assert outcome.handled and not outcome.corrupt, f"{outcome.problems}\n{outcome.output}"
    assert "state different versions" in outcome.output


def test_a_pdf_still_serving_the_stored_version_holds_nothing_up(
    tmp_path: Path,
) -> None:
    """The other side of versions-disagree (`make faults`): a PDF still serving
    the bytes of the version already stored is not new, so the text export's new version
    is stored (exit 10)."""
    with ScriptedServer() as srv:
        srv.serve("/cr.txt", Reply(200, materials.mini_txt("January 16, 2025")))
        srv.serve("/cr.pdf", Reply(200, materials.mini_pdf("January 16, 2025")))
        registry = materials.write_registry(
            tmp_path / "sources.toml",
            [
                mtg_source("txt", srv.url("/cr.txt"), allowed_hosts=["127.0.0.1"]),
                mtg_source("pdf", srv.url("/cr.pdf"), allowed_hosts=["127.0.0.1"]),
            ],
        )
        ctx = Context(
            corpus_dir=tmp_path / "corpus",
            cache_dir=tmp_path / "cache",
            sources_file=registry,
            renderers=diff_renderers(),
        )
        first = update_job.update(ctx, [], accept=True)
        assert first.exit_code == EXIT_CHANGED, first.outcomes
        srv.serve("/cr.txt", Reply(200, materials.mini_txt()))  # January 16, 2026
        second = update_job.update(ctx, [], accept=True)
    assert second.exit_code == EXIT_CHANGED, second.outcomes
    entry = ctx.corpus.document_entry("mtg/cr")
    assert [v.version for v in entry.versions] == ["2025-01-16", "2026-01-16"]
    assert set(entry.versions[0].sources) == {"txt", "pdf"}
    assert set(entry.versions[1].sources) == {"txt"}


def test_a_pax_header_bomb_served_to_update_is_handled(lab: Lab) -> None:
    """Found by `make faults` (pax-bomb): the campaign's case, served to a real
    `update`."""
    outcome = cases_network.pax_header_bomb(lab)
    assert outcome.handled, f"{outcome.problems}\n{outcome.output}"


@pytest.mark.parametrize("command", ["import", "update"])
def test_an_archive_no_registry_entry_takes_is_an_error_not_0(tmp_path: Path, command: str) -> None:
    """`import` and `update --mirror` of an archive whose files no registry source takes
    stored nothing and exited 0, as if the new game had been stored."""
    import hashlib

    data = b"Verse Rules\nVersion 1.0\n1. Basics\n1-1. Two players play.\n"
    (tmp_path / "archive" / "verse").mkdir(parents=True)
    (tmp_path / "archive" / "verse" / "rules.txt").write_bytes(data)
    entry = {"game": "verse", "document": "rules", "version": "1.0", "format": "txt",
             "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
             "path": "verse/rules.txt"}  # fmt: skip
    (tmp_path / "archive" / "manifest.json").write_text(json.dumps([entry]))
    where = str(tmp_path / "archive")
    args = [where] if command == "import" else ["--mirror", where]
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "--corpus", str(tmp_path / "corpus"), "--cache",
         str(tmp_path / "cache"), command, *args],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == EXIT_USAGE, done.stdout + done.stderr
    (line,) = done.stderr.splitlines()
    assert (
        "no registry source takes any of its 1 files (verse/rules.txt (verse/rules, txt))" in line
    )
    assert "tried fab-cr-txt (fab/comprehensive-rules, txt)" in line and "--sources" in line
    assert not (tmp_path / "corpus" / "index.json").exists()
