"""Regression tests of the store, one per defect, named after it: a kill at any step of a
commit, temporary files a killed run left, the modes of stored files. Each docstring
says what was found."""

from __future__ import annotations

import os
import re
import threading
import traceback
from pathlib import Path

import pytest

from pipeline.cli.shared import diff_renderers
from pipeline.corpus import open_corpus
from pipeline.errors import EXIT_OK, RegistryError, UnsafeName
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context, load_sources
from pipeline.jobs.publish import Candidate
from pipeline.jobs.versions import add_version
from pipeline.models.records import SourceRef
from pipeline.models.sources import Pin
from pipeline.store import files as store_files
from pipeline.store import layout
from pipeline.store.corpus import Corpus
from pipeline.store.temp_files import temp_beside
from tests.support.helpers import SHARED, corpus_digest, registry_file
from tests.support.mtg_sources import copy_tree


@pytest.fixture
def two_versions(mtg_pair_corpus: Path) -> Path:
    """MTG 2025-07-25 and 2025-11-14 imported: corpus/, with cache/ and archive/ beside it.
    Shared by the whole run: a test copies it before changing anything."""
    return mtg_pair_corpus.parent


# A second rendition of a stored version, committed by the real store code in a forked
# child that the crash point (store/files.py, RULESCORPUS_CRASH_AT's counter) kills like
# kill -9 before its Nth rename or fsync. Forked rather than started afresh: the child
# has this process's imports, and a kill loop runs dozens of them.
def _add_pdf_rendition(root: Path) -> None:
    ctx = Context(corpus_dir=root / "corpus", cache_dir=root / "cache", renderers=diff_renderers())
    with ctx.run_lock():
        corpus = ctx.corpus
        doc = corpus.load_document("mtg/cr", "2025-11-14")
        if any(r.rendition == "pdf" for r in doc.renditions):
            return  # already added: a rerun after a completed commit has nothing to do
        sha, size = ctx.blobs.add_bytes(PDF.read_bytes())
        ref = SourceRef(url="https://example.test/cr.pdf", sha256=sha, bytes=size, rendition="pdf")
        both = sorted([*doc.renditions, ref], key=lambda r: r.rendition)
        doc = doc.model_copy(update={"renditions": both})
        pins = [
            Pin(
                document="mtg/cr",
                rendition=r.rendition,
                version="2025-11-14",
                sha256=r.sha256,
                bytes=r.bytes,
                url=r.url,
            )
            for r in doc.renditions
        ]
        tx = corpus.transaction()
        add_version(tx, Candidate("mtg/cr", "mtg-cr", "MTG", doc, pins), ctx.renderers)
        tx.commit()


PDF = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.pdf"


def republish(root: Path, crash_at: int = 0) -> int:
    # A fork copies no thread but this one, and no lock another thread might hold: the
    # suite leaves none running here (a failure says so rather than a child hanging).
    assert threading.active_count() == 1, f"threads at the fork: {threading.enumerate()}"
    pid = os.fork()
    if pid == 0:  # the child: exit 0 done, 137 killed at the crash point, 1 failed
        code = 1
        try:
            store_files._CRASH_AT, store_files._steps = crash_at, 0
            _add_pdf_rendition(root)
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    assert code in (0, 137), f"the republishing child failed ({code}): see its traceback above"
    return code


def leftovers(*roots: Path) -> list[Path]:
    """Temporary files, and digest-named corpus files the index does not name."""
    found = [p for root in roots for p in root.rglob(".tmp-*")]
    corpus = Corpus(roots[0])
    from pipeline.store.corpus import referenced_files
    from pipeline.store.layout import is_managed

    named = referenced_files(corpus.index())
    found += [
        p
        for p in roots[0].rglob("*")
        if p.is_file()
        and is_managed(p.relative_to(roots[0]).as_posix())
        and p.relative_to(roots[0]).as_posix() not in named
    ]
    return found


@pytest.mark.campaign
def test_a_kill_at_any_step_of_adding_a_rendition_leaves_old_or_new(
    two_versions: Path, tmp_path: Path
) -> None:
    """kill -9 at a rename or fsync of the commit that adds a rendition to a stored
    version left a third state; now every kill leaves the old corpus or the new one, and
    the next run completes it."""
    before = corpus_digest(two_versions / "corpus")
    clean = tmp_path / "clean"
    copy_tree(two_versions, clean)
    assert republish(clean) == 0
    after = corpus_digest(clean / "corpus")
    assert after != before
    kills = 0
    # Kills at different steps often leave the same bytes once recovered (a kill before any
    # file's rename leaves only temporary files, which recovery removes). The next run from
    # the same bytes is the same run, so it is checked once for each state recovered to.
    recovered: set[str] = set()
    for step in range(1, 200):
        run = tmp_path / f"kill-{step}"
        copy_tree(two_versions, run)
        if republish(run, crash_at=step) == 0:
            break
        kills += 1
        ctx = Context(
            corpus_dir=run / "corpus", cache_dir=run / "cache", renderers=diff_renderers()
        )
        with ctx.run_lock() as found:
            pass
        state = corpus_digest(run / "corpus")
        assert state in (before, after), f"kill before step {step}: a third state"
        assert leftovers(run / "corpus", run / "cache") == [], f"kill at {step}: {found}"
        files = repr((state, corpus_digest(run / "cache")))
        if files in recovered:
            continue
        recovered.add(files)
        assert audit.verify(ctx, []).exit_code == EXIT_OK
        # The next run completes the work and ends exactly where an uninterrupted one did.
        assert republish(run) == 0
        assert corpus_digest(run / "corpus") == after
    assert kills >= 10, "every rename and fsync of the commit was a kill point"


def test_adding_a_rendition_keeps_every_old_number_answering(
    two_versions: Path, tmp_path: Path
) -> None:
    """Adding a PDF rendition to a stored version dropped its alias table, so old rule
    numbers stopped answering."""
    root = tmp_path / "corpus"
    copy_tree(two_versions, root)
    corpus = Corpus(root / "corpus")
    aliases = corpus.load_aliases("mtg/cr", "2025-11-14")
    assert aliases, "2025-07-25 -> 2025-11-14 renumbers rules"
    answers = {
        old: open_corpus(corpus.root).show(old, "mtg/cr", "2025-11-14").record.id for old in aliases
    }
    assert republish(root) == 0
    after = Corpus(root / "corpus")
    assert len(after.load_document("mtg/cr", "2025-11-14").renditions) == 2
    assert after.load_aliases("mtg/cr", "2025-11-14") == aliases
    for old, new in answers.items():
        shown = open_corpus(after.root).show(old, "mtg/cr", "2025-11-14")
        assert (shown.record.id, shown.renumbered_from) == (new, old)


@pytest.mark.campaign
def test_temporary_files_of_a_killed_run_are_removed_by_the_next(
    two_versions: Path, tmp_path: Path
) -> None:
    """A run killed mid-commit left its temporary files in the corpus for ever."""
    for step in (1, 2, 3, 5, 8):
        run = tmp_path / f"kill-{step}"
        copy_tree(two_versions, run)
        assert republish(run, crash_at=step) == 137
        Path(run / "corpus" / "mtg" / ".tmp-left-by-kill.json").write_bytes(b"{")
        ctx = Context(
            corpus_dir=run / "corpus", cache_dir=run / "cache", renderers=diff_renderers()
        )
        with ctx.run_lock() as found:
            assert "removed" in found
        assert leftovers(run / "corpus", run / "cache") == []


def test_corpus_files_are_readable_by_other_users(two_versions: Path) -> None:
    """Stored files were written with mode 0600 (from mkstemp), so a web server or
    another user could not read the corpus."""
    umask = os.umask(0o022)
    os.umask(umask)
    for path in (two_versions / "corpus").rglob("*.json"):
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask, path


@pytest.mark.parametrize("game", ["index.json", "lock.json", "fetch", "staged", "search"])
def test_a_game_named_like_a_file_of_the_corpus_or_the_site_is_refused(
    tmp_path: Path, game: str
) -> None:
    """A game named `index.json` or `lock.json` broke a new corpus: its documents' folder
    was laid where the corpus's commit point goes."""
    registry = registry_file(
        tmp_path,
        [
            {
                "id": "clash-cr-txt",
                "game": game,
                "document": f"{game}/cr",
                "title": "Clash Comprehensive Rules",
                "family": "mtg-cr",
                "rendition": "txt",
                "url": "https://clash.invalid/cr.txt",
                "primary": True,
            }
        ],
    )
    with pytest.raises(RegistryError, match=f"may not be named {re.escape(game)}"):
        load_sources(registry)
    with pytest.raises(UnsafeName):
        layout.version_file(f"{game}/cr", "1.0", "0" * 64)


def test_a_temporary_file_stays_in_the_folder_it_was_made_in(tmp_path: Path) -> None:
    """Temporary files beside a user's file (cite-check's fixes, the SQLite export) were
    made and renamed by path: their folder swapped for a link meanwhile sent the rename
    through the link. They are made and renamed from the descriptor of their folder, opened
    without following a link, so the new file lands in that folder and nowhere else."""
    folder = tmp_path / "docs"
    folder.mkdir()
    target = folder / "notes.md"
    target.write_text("old\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "notes.md").write_text("not yours\n")
    with temp_beside(target, ".cite-check") as temp:
        temp.write(b"new\n")
        folder.rename(tmp_path / "moved")
        folder.symlink_to(elsewhere, target_is_directory=True)
        temp.replace()
    assert os.listdir(tmp_path / "moved") == ["notes.md"]
    assert (tmp_path / "moved" / "notes.md").read_text() == "new\n"
    assert os.listdir(elsewhere) == ["notes.md"]
    assert (elsewhere / "notes.md").read_text() == "not yours\n"
    # A folder that is itself a link (one swapped in before it was opened) is refused.
    with pytest.raises(OSError), temp_beside(folder / "notes.md", ".cite-check"):
        pass
    assert os.listdir(elsewhere) == ["notes.md"]
