"""Fault cases on disk: hostile mirror folders, a damaged corpus or blob store, a full disk,
bad input on the command line. Each runs the real command line on copies of a prepared
corpus (see `Lab.state`)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tests.support.mtg_sources import mtg_source

from . import corpus_state, materials, procs
from .cases_network import case, run_update
from .lab import CASE_TIMEOUT, Dirs, Lab, Outcome, judge


def _update_from(
    lab: Lab,
    name: str,
    title: str,
    dirs: Dirs,
    mirror: Path,
    *,
    expected: Sequence[int],
    names: Sequence[str] = (),
    registry: Path | None = None,
    command: str = "update",
    fsize: int | None = None,
) -> Outcome:
    before = corpus_state.Snapshot.of(dirs.corpus)
    args = [*dirs.args(registry or lab.mirror_registry), command]
    args += ["--mirror", str(mirror)] if command == "update" else [str(mirror)]
    result = procs.run(args, timeout=CASE_TIMEOUT, fsize=fsize)
    return judge(name, title, result, expected=expected, dirs=dirs, before=before, names=names)


def _verify(lab: Lab, name: str, title: str, dirs: Dirs, names: Sequence[str]) -> Outcome:
    before = corpus_state.Snapshot.of(dirs.corpus)
    result = procs.run([*dirs.args(lab.mirror_registry), "verify"], timeout=CASE_TIMEOUT)
    return judge(name, title, result, expected=[20], dirs=dirs, before=before, names=names)


def _hostile_mirror(lab: Lab, name: str, entry: dict[str, Any]) -> Path:
    folder = lab.folder(name) / "mirror"
    return materials.write_mirror(folder, {}, extra=[entry])


def _entry(path: str, data: bytes = b"x") -> dict[str, Any]:
    return {
        **materials.manifest_entry(materials.MTG_NEW),
        "path": path,
        "bytes": len(data),
        "sha256": materials.sha256(data),
    }


# --------------------------------------------------------------------------- mirror folders


@case(quick=True)
def manifest_climbs_out(lab: Lab) -> Outcome:
    path = "../../../../../../etc/passwd"
    mirror = _hostile_mirror(lab, "dotdot", _entry(path))
    return _update_from(
        lab, "mirror-dotdot", "a manifest path climbing out with ..", lab.dirs("dotdot", "old"),
        mirror, expected=[30], names=[path],
    )  # fmt: skip


@case()
def manifest_absolute(lab: Lab) -> Outcome:
    mirror = _hostile_mirror(lab, "absolute", _entry("/etc/passwd"))
    return _update_from(
        lab, "mirror-absolute", "an absolute manifest path", lab.dirs("absolute", "old"),
        mirror, expected=[30], names=["/etc/passwd"],
    )  # fmt: skip


@case()
def symlink_out(lab: Lab) -> Outcome:
    relative = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
    data = materials.real(materials.MTG_NEW)
    mirror = _hostile_mirror(lab, "symlink", _entry(relative, data))
    (mirror / relative).parent.mkdir(parents=True)
    (mirror / relative).symlink_to(materials.SHARED / materials.MTG_NEW)
    return _update_from(
        lab, "mirror-symlink", "a mirror file that is a symlink out of the mirror",
        lab.dirs("symlink", "old"), mirror, expected=[30], names=[relative],
    )  # fmt: skip


@case()
def oversized_mirror_file(lab: Lab) -> Outcome:
    relative = "mtg/comprehensive-rules/20251114/huge.txt"
    mirror = _hostile_mirror(lab, "oversized", _entry(relative))
    (mirror / relative).parent.mkdir(parents=True)
    with (mirror / relative).open("wb") as handle:
        handle.truncate(200 * materials.MiB)  # sparse: 200 MB that take no disk
    return _update_from(
        lab, "mirror-oversized", "a 200 MB mirror file (max_bytes 4 MB)",
        lab.dirs("oversized", "old"), mirror, expected=[30], names=[relative],
    )  # fmt: skip


@case()
def mirror_file_altered(lab: Lab) -> Outcome:
    relative = materials.MTG_NEW
    data = bytearray(materials.real(relative))
    entry = _entry(relative, bytes(data))
    data[len(data) // 2] ^= 1
    mirror = _hostile_mirror(lab, "altered", entry)
    (mirror / relative).parent.mkdir(parents=True)
    (mirror / relative).write_bytes(bytes(data))
    return _update_from(
        lab, "mirror-altered", "a mirror file one bit off its manifest's SHA-256",
        lab.dirs("altered", "old"), mirror, expected=[20], names=[relative.split("/")[-1]],
    )  # fmt: skip


@case()
def manifest_not_json(lab: Lab) -> Outcome:
    mirror = lab.folder("bad-manifest") / "mirror"
    mirror.mkdir()
    (mirror / "manifest.json").write_bytes(b'[{"game": "mtg", ')
    return _update_from(
        lab, "manifest-json", "a manifest.json cut off mid-way", lab.dirs("bad-manifest", "old"),
        mirror, expected=[2], names=["manifest.json"],
    )  # fmt: skip


@case()
def manifest_missing_file(lab: Lab) -> Outcome:
    relative = "mtg/comprehensive-rules/20251114/gone.txt"
    mirror = _hostile_mirror(lab, "missing", _entry(relative))
    return _update_from(
        lab, "mirror-missing", "a manifest listing a file that is not there",
        lab.dirs("missing", "old"), mirror, expected=[30], names=[relative],
    )  # fmt: skip


@case()
def import_climbs_out(lab: Lab) -> Outcome:
    archive = _hostile_mirror(lab, "import-dotdot", _entry("../../etc/passwd"))
    return _update_from(
        lab, "import-dotdot", "import of an archive listing ../../etc/passwd",
        lab.dirs("import-dotdot", "old"), archive, expected=[30],
        names=["../../etc/passwd"], command="import",
    )  # fmt: skip


# --------------------------------------------------------------------------- a damaged corpus


def _version_file(dirs: Dirs, version: str = "2025-07-25") -> Path:
    index = corpus_state.read_index(dirs.corpus)
    entry = index["documents"]["mtg/cr"]
    item = next(v for v in entry["versions"] if v["version"] == version)
    return dirs.corpus / str(item["file"])


def _damaged(lab: Lab, name: str, title: str, damage: Any, *, expected: Sequence[int]) -> Outcome:
    dirs = lab.dirs(name, "old")
    target: Path = damage(dirs)
    return _update_from(
        lab, name, title, dirs, lab.mirror_old, expected=expected,
        names=[target.name] if expected != [0] else [],
    )  # fmt: skip


@case(quick=True)
def version_json_truncated(lab: Lab) -> Outcome:
    def damage(dirs: Dirs) -> Path:
        path = _version_file(dirs)
        path.write_bytes(path.read_bytes()[:1000])
        return path

    return _damaged(lab, "json-truncated", "a stored version JSON cut short", damage, expected=[20])


@case()
def version_json_bit_flip(lab: Lab) -> Outcome:
    def damage(dirs: Dirs) -> Path:
        path = _version_file(dirs)
        corpus_state.flip_bit(path)
        return path

    return _damaged(lab, "json-bit-flip", "one bit flipped in a stored version JSON", damage,
                    expected=[20])  # fmt: skip


@case()
def fetch_record_bit_flip(lab: Lab) -> Outcome:
    def damage(dirs: Dirs) -> Path:
        name = corpus_state.read_index(dirs.corpus)["fetch"]["mtg-cr-txt"]
        corpus_state.flip_bit(dirs.corpus / name, offset=40)
        return dirs.corpus / str(name)

    return _damaged(lab, "fetch-bit-flip", "one bit flipped in a stored fetch record", damage,
                    expected=[20])  # fmt: skip


@case()
def index_digest_flip(lab: Lab) -> Outcome:
    def damage(dirs: Dirs) -> Path:
        path = dirs.corpus / "index.json"
        text = path.read_text()
        item = corpus_state.read_index(dirs.corpus)["documents"]["mtg/cr"]["versions"][0]
        digest = item["sha256"]
        flipped = digest[:-1] + ("0" if digest[-1] != "0" else "1")
        path.write_text(text.replace(digest, flipped))
        return dirs.corpus / str(item["file"])

    return _damaged(lab, "index-digest", "index.json's digest of a version altered", damage,
                    expected=[20])  # fmt: skip


@case()
def index_truncated(lab: Lab) -> Outcome:
    def damage(dirs: Dirs) -> Path:
        path = dirs.corpus / "index.json"
        path.write_bytes(path.read_bytes()[:200])
        return path

    return _damaged(lab, "index-truncated", "index.json cut short", damage, expected=[20])


@case()
def index_deleted(lab: Lab) -> Outcome:
    """index.json deleted by hand: the stored versions must not be removed as unreferenced
    (the run refuses, exit 20, and every file stays)."""

    def damage(dirs: Dirs) -> Path:
        path = dirs.corpus / "index.json"
        path.unlink()
        return path

    return _damaged(lab, "index-deleted", "index.json deleted", damage, expected=[20])


@case()
def blob_bit_flip_heals(lab: Lab) -> Outcome:
    dirs = lab.dirs("blob-heals", "old")
    data = materials.real(materials.MTG_OLD)
    blob = dirs.cache / "sha256" / materials.sha256(data)[:2] / materials.sha256(data)[2:]
    corpus_state.flip_bit(blob)
    outcome = _update_from(
        lab, "blob-flip-update", "a bit flipped in a cached blob, then update from the mirror",
        dirs, lab.mirror_old, expected=[0],
    )  # fmt: skip
    outcome.problems.extend(corpus_state.blobs_ok(dirs.cache))
    return outcome


@case()
def blob_bit_flip_verify(lab: Lab) -> Outcome:
    dirs = lab.dirs("blob-verify", "old")
    data = materials.real(materials.MTG_OLD)
    blob = dirs.cache / "sha256" / materials.sha256(data)[:2] / materials.sha256(data)[2:]
    corpus_state.flip_bit(blob)
    return _verify(lab, "blob-flip-verify", "a bit flipped in a cached blob, then verify", dirs,
                   [str(blob)])  # fmt: skip


def _flip_named(lab: Lab, name: str, title: str, pick: Any) -> Outcome:
    dirs = lab.dirs(name, "two")
    entry = corpus_state.read_index(dirs.corpus)["documents"]["mtg/cr"]
    relative: str = pick(entry)
    corpus_state.flip_bit(dirs.corpus / relative)
    return _verify(lab, name, title, dirs, [Path(relative).name])


@case()
def diff_bit_flip(lab: Lab) -> Outcome:
    return _flip_named(lab, "diff-flip-verify", "a bit flipped in a stored diff, then verify",
                       lambda e: e["diffs"][0]["markdown"])  # fmt: skip


@case()
def aliases_bit_flip(lab: Lab) -> Outcome:
    def pick(entry: dict[str, Any]) -> str:
        return str(next(v["aliases"] for v in entry["versions"] if v.get("aliases")))

    return _flip_named(lab, "aliases-flip-verify",
                       "a bit flipped in a stored alias table, then verify", pick)  # fmt: skip


@case()
def parse_cache_bit_flip(lab: Lab) -> Outcome:
    """A run parses MTG 2025-11-14 into the cache's parsed Documents; one letter of a rule's
    text flips there (the JSON stays valid). The next update of another corpus sharing
    the cache must not publish the altered text: its version file must be the one an
    update with a clean cache stores."""
    clean = lab.dirs("parse-cache-clean", "old")
    _update_from(lab, "parse-cache-clean", "", clean, lab.mirror_new, expected=[10])
    reference = corpus_state.Published.of(clean.corpus)
    dirs = lab.dirs("parse-cache-flip", "old")
    corpus_state.copy_state(clean.cache, dirs.cache)
    flipped = [p for p in (dirs.cache / "parsed").rglob("*.json")]
    for path in flipped:
        data = bytearray(path.read_bytes())
        where = data.find(b'"text":"', len(data) // 2) + len(b'"text":"')
        data[where] ^= 0x20  # a letter's case: still valid JSON, another rule text
        path.write_bytes(bytes(data))
    outcome = _update_from(
        lab, "parse-cache-flip", "one letter flipped in a cached parse result", dirs,
        lab.mirror_new, expected=[10, 20],
    )  # fmt: skip
    if not flipped:
        outcome.problems.append("no parsed Document was cached to damage")
    elif outcome.got == 10:
        differences = corpus_state.Published.of(dirs.corpus).differences(reference)
        if differences:
            outcome.corrupt = True
            outcome.problems.append(
                "the altered cached parse was published: " + "; ".join(differences[:3])
            )
    return outcome


@case()
def lock_json_damaged(lab: Lab) -> Outcome:
    dirs = lab.dirs("lock-damaged", "old")
    lock = dirs.corpus / "lock.json"
    good = lock.read_bytes()
    lock.write_bytes(b"{}")
    outcome = _update_from(lab, "lock-json", "lock.json overwritten (a derived copy)", dirs,
                           lab.mirror_old, expected=[0])  # fmt: skip
    if lock.read_bytes() != good:
        outcome.problems.append("lock.json was not restored from index.json")
    return outcome


@case()
def stale_temporaries(lab: Lab) -> Outcome:
    dirs = lab.dirs("stale-temp", "old")
    (dirs.corpus / "mtg" / "cr" / ".tmp-killed.json").write_bytes(b"{half")
    (dirs.corpus / "mtg" / "cr" / "2099-01-01.0123456789ab.json").write_bytes(b"{}")
    (dirs.cache / "tmp" / ".tmp-dl.part").write_bytes(b"partial")
    # A parse result half-written into the cache's parsed Documents.
    (dirs.cache / "parsed" / "ab").mkdir(parents=True, exist_ok=True)
    (dirs.cache / "parsed" / "ab" / ".tmp-half.json").write_bytes(b'{"records": [')
    return _update_from(lab, "stale-temp", "temporary and unreferenced files of a killed run",
                        dirs, lab.mirror_old, expected=[0])  # fmt: skip


# --------------------------------------------------------------------------- a full disk


@case(quick=True)
def cache_file_limit(lab: Lab) -> Outcome:
    dirs = lab.dirs("fsize-cache", "old")
    return _update_from(
        lab, "full-disk-cache", "a full disk while the blob is written (RLIMIT_FSIZE 500 kB)",
        dirs, lab.mirror_new, expected=[74], names=[str(dirs.cache)], fsize=500_000,
    )  # fmt: skip


@case()
def corpus_file_limit(lab: Lab) -> Outcome:
    dirs = lab.dirs("fsize-corpus", "old")
    return _update_from(
        lab, "full-disk-corpus", "a full disk while the version is written (RLIMIT_FSIZE 1.5 MB)",
        dirs, lab.mirror_new, expected=[74], names=[str(dirs.corpus)], fsize=1_500_000,
    )  # fmt: skip


@contextlib.contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[bool]:
    """A small tmpfs at `folder` when this machine lets us mount one (root in a container
    usually can); yields False otherwise."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = (
        os.geteuid() == 0
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
            capture_output=True,
        ).returncode
        == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], capture_output=True)


def _full_tmpfs(lab: Lab, name: str, title: str, which: str) -> Outcome:
    """The prepared corpus and cache, one of them on a tmpfs with room for what it holds
    and 256 kB more: the new version (2 MB of JSON, a 1 MB blob) cannot fit."""
    base = lab.folder(name)
    mount = base / "tmpfs"
    prepared = lab.state("old")
    held = prepared.corpus if which == "corpus" else prepared.cache
    files = [p for p in held.rglob("*")]
    # tmpfs counts whole 4 kB pages per file and per folder.
    size = sum(-(-p.stat().st_size // 4096) * 4096 if p.is_file() else 4096 for p in files)
    with tmpfs(mount, str(size + 256 * 1024)) as mounted:
        if not mounted:
            outcome = Outcome(name, title + " (skipped: cannot mount a tmpfs here)", [74])
            outcome.got = 74
            return outcome
        dirs = Dirs(
            mount / "corpus" if which == "corpus" else base / "corpus",
            mount / "cache" if which == "cache" else base / "cache",
        )
        corpus_state.copy_state(prepared.corpus, dirs.corpus)
        corpus_state.copy_state(prepared.cache, dirs.cache)
        return _update_from(lab, name, title, dirs, lab.mirror_new, expected=[74],
                            names=[str(mount)])  # fmt: skip


@case()
def full_tmpfs_corpus(lab: Lab) -> Outcome:
    return _full_tmpfs(lab, "tmpfs-corpus", "the corpus on a full tmpfs", "corpus")


@case()
def full_tmpfs_cache(lab: Lab) -> Outcome:
    return _full_tmpfs(lab, "tmpfs-cache", "the cache on a full tmpfs", "cache")


# --------------------------------------------------------------------------- the command line


@case()
def insecure_registry(lab: Lab) -> Outcome:
    source = mtg_source("txt", "http://media.wizards.com/MagicCompRules.txt")
    dirs = lab.dirs("insecure-registry", "old")
    return run_update(lab, "bad-registry", "a registry URL over plain http to another host",
                      [source], expected=[2], names=["sources.toml"], dirs=dirs)  # fmt: skip


@case()
def parse_oversized(lab: Lab) -> Outcome:
    folder = lab.folder("parse-huge")
    huge = folder / "huge.txt"
    data = materials.real(materials.MTG_NEW)
    with huge.open("wb") as handle:
        for _ in range(220):  # 212 MB of the real text, over every source's max_bytes
            handle.write(data)
    result = procs.run(
        ["--sources", str(lab.mirror_registry), "parse", str(huge), "--family", "mtg-cr"],
        timeout=CASE_TIMEOUT,
        measure=True,
        keep_stdout=False,  # a Document of 200 MB is not a message
    )
    outcome = judge(
        "parse-oversized", "`parse` of a 212 MB text file: refused by max_bytes", result,
        expected=[2, 30, 40], dirs=None, before=None, names=["max_bytes"],
    )  # fmt: skip
    huge.unlink()
    return outcome
