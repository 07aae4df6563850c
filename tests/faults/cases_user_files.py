"""Fault cases on what is the user's, not the corpus's: files `cite-check --fix` rewrites,
registries a user writes, the databases `export sqlite` replaces, and kills during both.

Each case snapshots the whole work folder of the case (project, corpus, other files) and
reports every file that changed outside what the command may write: for `cite-check
--fix`, the files it was asked to fix (and its own temporary files beside them); for
`export sqlite`, PATH and its metadata file (and its temporary files beside them); for a
refused run, nothing at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from tests.support.helpers import special_file
from tests.support.mtg_sources import mtg_source

from . import corpus_state, materials, procs
from .cases_network import case
from .lab import CASE_TIMEOUT, Dirs, Lab, Outcome, judge

TEMP = re.compile(r"^\.(.+)\.\d+\.\w+\.(cite-check|rulescorpus-export)$")
KILL_TIMEOUT = 120.0


def snapshot(folder: Path) -> dict[str, str]:
    return corpus_state.tree(folder)


def touched(
    before: dict[str, str], after: dict[str, str], allowed: Callable[[str], bool]
) -> list[str]:
    """Files added, removed or changed that the command may not write."""
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    return sorted(k for k in changed if not allowed(k))


def _temp(relative: str) -> bool:
    return TEMP.match(Path(relative).name) is not None


def _stale_number(lab: Lab) -> tuple[str, str]:
    """A number cite-check --fix rewrites between the two versions of state `two`, found
    by a dry run over every number of the old version (computed once per lab)."""
    cached = getattr(lab, "_stale_number", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    dirs = lab.state("two")
    folder = lab.folder("stale-numbers")
    lines = materials.real(materials.MTG_OLD).decode("utf-8-sig").splitlines()
    numbers = [m.group(1) for m in map(re.compile(r"(\d{3}\.\d+[a-z]?)\.? ").match, lines) if m]
    probe = folder / "every.md"
    # a line that stays between numbers, so the diff pairs each old line with its new one
    probe.write_text("\n--\n".join(f"See rule {n}." for n in numbers[:4000]))
    result = procs.run(
        [*dirs.args(), "cite-check", str(probe), "--doc", "mtg/cr", "--as-of", "2025-07-25",
         "--fix"],
        timeout=CASE_TIMEOUT,
    )  # fmt: skip
    pairs = re.findall(r"^-See rule (\S+)\.\n\+See rule (\S+)\.$", result.stdout, re.M)
    pair = next((old, new) for old, new in pairs if old != new)
    lab._stale_number = pair  # type: ignore[attr-defined]
    return pair


def _project(lab: Lab, label: str, files: int = 1) -> tuple[Path, Dirs, list[Path], str, str]:
    """A project folder holding a copy of corpus `two` and notes citing a stale number."""
    old, new = _stale_number(lab)
    base = lab.folder(label)
    dirs = Dirs(base / "project" / "corpus", base / "cache")
    prepared = lab.state("two")
    corpus_state.copy_state(prepared.corpus, dirs.corpus)
    corpus_state.copy_state(prepared.cache, dirs.cache)
    notes = []
    for n in range(files):
        path = base / "project" / "docs" / f"notes-{n:02d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Notes {n}\n\nSee rule {old} for this.\n")
        notes.append(path)
    return base, dirs, notes, old, new


def _fix_args(dirs: Dirs, *paths: Path) -> list[str]:
    return [*dirs.args(), "cite-check", *map(str, paths), "--doc", "mtg/cr", "--as-of",
            "2025-07-25", "--fix", "--yes"]  # fmt: skip


@case(quick=True)
def cite_check_fix_from_the_project_root(lab: Lab) -> Outcome:
    """cite-check . --fix --yes from a project root holding the corpus"""
    base, dirs, notes, _, new = _project(lab, "fix-root")
    before = snapshot(base)
    result = procs.run(_fix_args(dirs, base / "project"), timeout=CASE_TIMEOUT)
    title = cite_check_fix_from_the_project_root.__doc__ or ""
    outcome = judge("cite-check-root", title, result, expected=[0, 1], dirs=None, before=None,
                    names=["skipped the corpus"])  # fmt: skip
    mine = str(notes[0].relative_to(base))
    outcome.touched = touched(before, snapshot(base), lambda k: k == mine)
    if notes[0].read_text() != f"# Notes 0\n\nSee rule {new} for this.\n":
        outcome.problems.append("the notes were not fixed")
    return _with_touched(outcome)


@case()
def cite_check_planted_temporary_link(lab: Lab) -> Outcome:
    """a planted .NAME.cite-check-tmp symlink and folder beside the file to fix"""
    base, dirs, notes, _, _ = _project(lab, "fix-planted")
    outside = base / "outside.txt"
    outside.write_text("not yours\n")
    (notes[0].parent / f".{notes[0].name}.cite-check-tmp").symlink_to(outside)
    (notes[0].parent / f".{notes[0].name}.cite-check").mkdir()
    before = snapshot(base)
    result = procs.run(_fix_args(dirs, notes[0]), timeout=CASE_TIMEOUT)
    outcome = judge("cite-check-planted", cite_check_planted_temporary_link.__doc__ or "",
                    result, expected=[0, 1], dirs=None, before=None)  # fmt: skip
    mine = str(notes[0].relative_to(base))
    outcome.touched = touched(before, snapshot(base), lambda k: k == mine)
    if notes[0].is_symlink():
        outcome.problems.append("the fixed file became a symlink")
    return _with_touched(outcome)


@case()
def cite_check_fifo_device_and_dangling_link(lab: Lab) -> Outcome:
    """a FIFO, a link to a device and a dangling link in the folder checked"""
    base, dirs, notes, _, _ = _project(lab, "fix-special")
    folder = notes[0].parent
    os.mkfifo(folder / "pipe")
    (folder / "zero").symlink_to("/dev/zero")
    (folder / "gone.md").symlink_to(base / "nowhere")
    before = snapshot(base)
    result = procs.run(_fix_args(dirs, folder), timeout=CASE_TIMEOUT)
    outcome = judge("cite-check-special", cite_check_fifo_device_and_dangling_link.__doc__ or "",
                    result, expected=[0, 1], dirs=None, before=None,
                    names=["a FIFO", "a link to nothing"])  # fmt: skip
    mine = str(notes[0].relative_to(base))
    outcome.touched = touched(before, snapshot(base), lambda k: k == mine)
    return _with_touched(outcome)


def _registry_case(lab: Lab, name: str, title: str, label: str, **entry: object) -> Outcome:
    base = lab.folder(label)
    registry = materials.write_registry(base / "sources.toml", [{**mtg_source("txt"), **entry}])
    dirs = Dirs(base / "corpus", base / "cache")
    before = snapshot(lab.work)
    result = procs.run(
        [*dirs.args(registry), "update", "--mirror", str(lab.mirror_new)], timeout=CASE_TIMEOUT
    )
    outcome = judge(name, title, result, expected=[2], dirs=None, before=None,
                    names=[str(registry)])  # fmt: skip
    if result.seconds > 20:
        outcome.problems.append(f"took {result.seconds:.0f} s to refuse the registry")
    outcome.touched = touched(before, snapshot(lab.work), lambda k: False)
    return _with_touched(outcome)


@case(quick=True)
def registry_document_climbs_out(lab: Lab) -> Outcome:
    return _registry_case(
        lab, "registry-dotdot", "a registry document id with ../", "registry-dotdot",
        document="mtg/../../outside",
    )  # fmt: skip


@case()
def registry_catastrophic_pattern(lab: Lab) -> Outcome:
    scheme = {"levels": [{"kind": "rule"}], "version_pattern": "(a+)+"}
    return _registry_case(
        lab, "registry-backtracking", "a registry version_pattern (a+)+",
        "registry-backtracking", family="numbered", scheme=scheme,
    )  # fmt: skip


@case()
def export_over_what_is_not_its_own(lab: Lab) -> Outcome:
    """export sqlite over another database, a text file, index.json, a folder, "" """
    base = lab.folder("export-foreign")
    dirs = Dirs(base / "corpus", base / "cache")
    prepared = lab.state("two")
    corpus_state.copy_state(prepared.corpus, dirs.corpus)
    other = base / "other.sqlite"
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("create table mine (x)")
        conn.commit()
    (base / "notes.sqlite").write_text("my notes\n")
    before = snapshot(base)
    outcome = Outcome("export-foreign", export_over_what_is_not_its_own.__doc__ or "", [2])
    for target in (other, base / "notes.sqlite", dirs.corpus / "index.json", base, ""):
        result = procs.run([*dirs.args(), "export", "sqlite", str(target)], timeout=CASE_TIMEOUT)
        one = judge("export-foreign", outcome.title, result, expected=[2], dirs=None, before=None)
        outcome.problems += [f"{target or '(empty)'}: {p}" for p in one.problems]
        outcome.got, outcome.seconds = result.returncode, outcome.seconds + result.seconds
    outcome.touched = touched(before, snapshot(base), lambda k: False)
    return _with_touched(outcome)


def _archive_of_specials(folder: Path, mirror: Path, kind: str) -> Path:
    """The mirror's manifest.json, with each file it lists a FIFO, a /dev/zero link or a folder."""
    folder.mkdir(parents=True)
    manifest = (mirror / "manifest.json").read_text(encoding="utf-8")
    (folder / "manifest.json").write_text(manifest, encoding="utf-8")
    for entry in json.loads(manifest):
        target = folder / entry["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        special_file(target, kind)
    return folder


@case()
def special_files_as_input(lab: Lab) -> Outcome:
    """FIFOs, /dev/zero links and folders where import, update --mirror, export, scheme
    and --sources read a file"""
    base = lab.folder("special-input")
    registry = materials.write_registry(base / "sources.toml", [mtg_source("txt")])
    dirs = Dirs(base / "corpus", base / "cache")
    corpus_state.copy_state(lab.state("two").corpus, dirs.corpus)
    runs: list[tuple[str, list[str], list[int]]] = []
    for kind in ("fifo", "device", "folder"):
        archive = _archive_of_specials(base / f"archive-{kind}", lab.mirror_new, kind)
        runs.append((f"import, files {kind}", [*dirs.args(registry), "import", str(archive)],
                     [30]))  # fmt: skip
        runs.append((f"update --mirror, files {kind}", [*dirs.args(registry), "update",
                     "--mirror", str(archive), "--deadline", "30"], [30]))  # fmt: skip
        listing = base / f"listing-{kind}"
        listing.mkdir()
        special_file(listing / "manifest.json", kind)
        runs.append((f"import, manifest {kind}", [*dirs.args(registry), "import", str(listing)],
                     [2]))  # fmt: skip
        database = base / f"export-{kind}.sqlite"
        special_file(base / f"export-{kind}.metadata.json", kind)
        runs.append((f"export, metadata {kind}", [*dirs.args(), "export", "sqlite",
                     str(database)], [2]))  # fmt: skip
        document = special_file(base / f"scheme-{kind}.txt", kind)
        runs.append((f"scheme {kind}", [*dirs.args(), "scheme", str(document)], [2]))
        runs.append((f"parse {kind}", [*dirs.args(), "parse", str(document), "--family",
                     "mtg-cr"], [2]))  # fmt: skip
        sources = special_file(base / f"sources-{kind}.toml", kind)
        runs.append((f"--sources {kind}", [*dirs.args(sources), "sources"], [2]))
    before = snapshot(base)
    outcome = Outcome("special-input", special_files_as_input.__doc__ or "", [2, 30])
    for label, args, expected in runs:
        result = procs.run(args, timeout=CASE_TIMEOUT)
        one = judge("special-input", outcome.title, result, expected=expected, dirs=None,
                    before=None)  # fmt: skip
        if result.seconds > 30:
            one.problems.append(f"took {result.seconds:.0f} s to refuse")
        outcome.problems += [f"{label}: {p}" for p in one.problems]
        outcome.got, outcome.seconds = result.returncode, outcome.seconds + result.seconds
        outcome.peak_rss = max(outcome.peak_rss, result.peak_rss)
    outcome.touched = touched(before, snapshot(base), lambda k: k.startswith(("corpus/", "cache/")))
    return _with_touched(outcome)


def _with_touched(outcome: Outcome) -> Outcome:
    if outcome.touched:
        outcome.problems.append("touched outside what it may write: " + ", ".join(outcome.touched))
    return outcome


# --------------------------------------------------------------------------- kills


def _kill_after(args: list[str], delay: float) -> procs.Run:
    proc = procs.start(args, procs.base_env())
    time.sleep(delay)
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGKILL)
    return procs.reap(proc, KILL_TIMEOUT)


def _kill_count(lab: Lab) -> int:
    return int(getattr(lab, "user_kills", 10))


@case(quick=True)
def kills_during_cite_check_fix(lab: Lab) -> Outcome:
    """SIGKILL at random instants of cite-check --fix --yes over 200 files"""
    base, dirs, notes, old, new = _project(lab, "kill-fix", files=200)
    original = {p: p.read_text() for p in notes}
    fixed = {p: t.replace(f"rule {old} ", f"rule {new} ") for p, t in original.items()}
    args = _fix_args(dirs, *notes)
    outcome = Outcome("kill-cite-check-fix", kills_during_cite_check_fix.__doc__ or "", [0, 1])
    rng = random.Random(26)
    mine = {str(p.relative_to(base)) for p in notes}
    seconds = procs.run(args, timeout=CASE_TIMEOUT).seconds  # the writes come last
    for _ in range(_kill_count(lab)):
        for path, text in original.items():
            path.write_text(text)
        before = snapshot(base)
        killed = _kill_after(args, rng.uniform(0.6, 1.0) * seconds)
        if killed.traceback:
            outcome.problems.append("a killed run printed a traceback")
        after = snapshot(base)
        outcome.touched += touched(before, after, lambda k: k in mine or _temp(k))
        for path in notes:
            if path.read_text() not in (original[path], fixed[path]):
                outcome.problems.append(f"{path.name} is neither as it was nor fixed")
    done = procs.run(args, timeout=CASE_TIMEOUT)
    outcome.got, outcome.seconds = done.returncode, done.seconds
    if done.returncode not in (0, 1) or any(p.read_text() != fixed[p] for p in notes):
        outcome.problems.append(f"the run after the kills did not fix every file: {done.stderr}")
    left = [k for k in snapshot(base) if _temp(k)]
    if left:
        outcome.leftovers = left
        outcome.problems.append("temporary files left after a complete run: " + ", ".join(left))
    return _with_touched(outcome)


@case(quick=True)
def kills_during_export(lab: Lab) -> Outcome:
    """SIGKILL at random instants of export sqlite over its own earlier database"""
    base = lab.folder("kill-export")
    dirs = Dirs(base / "corpus", base / "cache")
    corpus_state.copy_state(lab.state("two").corpus, dirs.corpus)
    out = base / "out"
    out.mkdir()
    (out / "readme.txt").write_text("not the export's\n")
    target = out / "rulescorpus.sqlite"
    args = [*dirs.args(), "export", "sqlite", str(target)]
    outcome = Outcome("kill-export", kills_during_export.__doc__ or "", [0])
    first = procs.run(args, timeout=CASE_TIMEOUT)
    if first.returncode != 0:
        outcome.problems.append(f"the first export failed: {first.stderr}")
        return outcome
    allowed = {"out/rulescorpus.sqlite", "out/rulescorpus.metadata.json"}
    rng = random.Random(23)
    for _ in range(_kill_count(lab)):
        before = snapshot(base)
        killed = _kill_after(args, rng.uniform(0.1, 0.9 * first.seconds))
        if killed.traceback:
            outcome.problems.append("a killed run printed a traceback")
        outcome.touched += touched(before, snapshot(base), lambda k: k in allowed or _temp(k))
        problem = _whole_export(target)
        if problem:
            outcome.problems.append(problem)
    done = procs.run(args, timeout=CASE_TIMEOUT)
    outcome.got, outcome.seconds = done.returncode, done.seconds
    left = [k for k in snapshot(base) if _temp(k)]
    if done.returncode != 0 or left:
        outcome.problems.append(f"after the kills, export exited {done.returncode}, left {left}")
    return _with_touched(outcome)


def _whole_export(path: Path) -> str | None:
    """None when `path` is a whole database the export made."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as conn:
            if conn.execute("pragma integrity_check").fetchone()[0] != "ok":
                return f"{path.name} fails its integrity check after a kill"
            conn.execute("select count(*) from records_fts").fetchone()
            conn.execute("select * from rulescorpus_export").fetchall()
    except sqlite3.Error as exc:
        return f"{path.name} is not a whole database after a kill ({exc})"
    return None
