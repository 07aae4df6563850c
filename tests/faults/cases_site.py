"""Fault cases on `site OUT`: a marker naming files outside OUT, a sub-folder of OUT that is
a link out of it, a link planted where a temporary file or a page goes, and two builds at
once into one OUT.

Each case snapshots the whole work folder of the case (the corpus, the cache, OUT and
files beside them) and reports every file that changed outside OUT; a refused build may
change nothing at all.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from . import corpus_state, procs
from .cases_network import case
from .cases_user_files import snapshot, touched
from .lab import CASE_TIMEOUT, Dirs, Lab, Outcome, judge

MARKER = ".rulescorpus-site.json"
VICTIM = "not the site's\n"


def _built(lab: Lab) -> Path:
    """A site of corpus `two`, built once per lab; each case copies it."""
    cached = getattr(lab, "_built_site", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    folder = lab.folder("site-built")
    dirs = lab.state("two")
    result = procs.run([*dirs.args(), "site", str(folder / "out")], timeout=CASE_TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError(f"the first site build failed: {result.stderr[-400:]}")
    lab._built_site = folder / "out"  # type: ignore[attr-defined]
    return folder / "out"


def _place(lab: Lab, label: str, *, built: bool) -> tuple[Path, Dirs, Path, Path]:
    """(case folder, its corpus and cache, OUT, a file of the person's outside OUT)."""
    base = lab.folder(label)
    dirs = Dirs(base / "corpus", base / "cache")
    prepared = lab.state("two")
    corpus_state.copy_state(prepared.corpus, dirs.corpus)
    corpus_state.copy_state(prepared.cache, dirs.cache)
    out = base / "out"
    if built:
        shutil.copytree(_built(lab), out, symlinks=True)
    victim = base / "victim" / "rel.txt"
    victim.parent.mkdir(parents=True)
    victim.write_text(VICTIM)
    return base, dirs, out, victim


def _in_out(relative: str) -> bool:
    return relative.startswith("out/")


def _finish(outcome: Outcome, victim: Path) -> Outcome:
    if not victim.is_file() or victim.read_text() != VICTIM:
        outcome.problems.append(f"{victim.name} outside OUT was changed or removed")
    if outcome.touched:
        outcome.problems.append("touched outside OUT: " + ", ".join(outcome.touched[:10]))
    return outcome


@case(quick=True)
def site_foreign_marker(lab: Lab) -> Outcome:
    """site OUT whose marker lists ../victim/rel.txt and an absolute path"""
    base, dirs, out, victim = _place(lab, "site-marker", built=False)
    out.mkdir()
    (out / "index.html").write_text("<p>a page of a site cloned from elsewhere</p>\n")
    files = {"index.html": "0" * 64, "../victim/rel.txt": "0" * 64, str(victim): "0" * 64}
    (out / MARKER).write_text(json.dumps({"files": files}))
    before = snapshot(base)
    result = procs.run([*dirs.args(), "site", str(out)], timeout=CASE_TIMEOUT)
    outcome = judge("site-marker", site_foreign_marker.__doc__ or "", result, expected=[2],
                    dirs=None, before=None, names=[MARKER])  # fmt: skip
    outcome.touched = touched(before, snapshot(base), lambda k: False)
    return _finish(outcome, victim)


@case()
def site_linked_sub_folder(lab: Lab) -> Outcome:
    """site OUT whose sub-folder mtg/ is a link to a folder outside OUT"""
    base, dirs, out, victim = _place(lab, "site-linked", built=True)
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(out / "mtg")
    (out / "mtg").symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(base)
    result = procs.run([*dirs.args(), "site", str(out)], timeout=CASE_TIMEOUT)
    outcome = judge("site-linked", site_linked_sub_folder.__doc__ or "", result, expected=[2],
                    dirs=None, before=None, names=["symbolic link"])  # fmt: skip
    # pages the build rewrote before it met the link are OUT's; nothing through the link
    outcome.touched = touched(before, snapshot(base),
                              lambda k: _in_out(k) and not k.startswith("out/mtg/"))  # fmt: skip
    if any(elsewhere.iterdir()):
        outcome.problems.append("files were written through the link")
    return _finish(outcome, victim)


@case()
def site_planted_temporary_link(lab: Lab) -> Outcome:
    """links planted at .index.html.tmp and at a page's own name, pointing outside OUT"""
    base, dirs, out, victim = _place(lab, "site-planted", built=True)
    (out / "index.html").unlink()
    (out / ".index.html.tmp").symlink_to(victim)
    (out / "search/index.html").unlink()
    (out / "search/index.html").symlink_to(victim)
    before = snapshot(base)
    result = procs.run([*dirs.args(), "site", str(out)], timeout=CASE_TIMEOUT)
    outcome = judge("site-planted", site_planted_temporary_link.__doc__ or "", result,
                    expected=[0], dirs=None, before=None)  # fmt: skip
    # a link inside OUT to the victim shows the victim's bytes under OUT's name too
    outcome.touched = touched(before, snapshot(base), _in_out)
    if (out / "search/index.html").is_symlink():
        outcome.problems.append("the page is still a link out of OUT")
    return _finish(outcome, victim)


@case()
def site_concurrent_builds(lab: Lab) -> Outcome:
    """two site builds into one new OUT at the same time"""
    base, dirs, out, victim = _place(lab, "site-concurrent", built=False)
    before = snapshot(base)
    args = [*dirs.args(), "site", str(out)]
    runs = [procs.start(args, procs.base_env()) for _ in range(2)]
    results = [procs.reap(proc, CASE_TIMEOUT) for proc in runs]
    outcome = Outcome("site-concurrent", site_concurrent_builds.__doc__ or "", [0, 75])
    for result in results:
        one = judge("site-concurrent", outcome.title, result, expected=[0, 75], dirs=None,
                    before=None)  # fmt: skip
        outcome.problems += one.problems
        outcome.seconds = max(outcome.seconds, result.seconds)
    outcome.got = max(r.returncode for r in results)
    if 0 not in [r.returncode for r in results]:
        outcome.problems.append("neither build finished")
    outcome.touched = touched(before, snapshot(base), _in_out)
    return _finish(outcome, victim)
