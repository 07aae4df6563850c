"""The campaign's workbench: a work folder, the fault servers, prepared corpora, and the one
way a case runs a command and is judged.

A case gets fresh copies of a prepared corpus and cache, runs the real command
line (`procs.run`), and is judged the same way every time: the exit code is one
the case expects, no traceback reached the user, the output names what failed,
a failed run left the corpus byte-identical, nothing temporary was left, and it
ended in time (else it is a hang).
"""

from __future__ import annotations

import itertools
import shutil
import ssl
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.mtg_sources import mtg_source

from . import corpus_state, materials, procs
from .fault_server import FaultServer

DOCUMENTED = {0, 10, 20, 30, 40, 74, 75, 2}
CASE_TIMEOUT = 90.0


@dataclass
class Outcome:
    """How one case ended."""

    name: str
    title: str
    expected: Sequence[int]
    got: int | None = None
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    peak_rss: int = 0
    hung: bool = False
    crashed: bool = False  # a traceback, or an exit code outside the contract
    corrupt: bool = False  # a failed run changed the corpus
    leftovers: list[str] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)  # changed outside what it may write
    orphans: int = 0
    output: str = ""  # the end of what the run printed, for the report of a failure

    @property
    def handled(self) -> bool:
        return not self.problems


@dataclass
class Dirs:
    corpus: Path
    cache: Path

    def args(self, registry: Path | None = None) -> list[str]:
        out = ["--corpus", str(self.corpus), "--cache", str(self.cache)]
        if registry is not None:
            out += ["--sources", str(registry)]
        return out


class Lab:
    def __init__(self, work: Path) -> None:
        self.work = work
        self.work.mkdir(parents=True, exist_ok=True)
        self._ids = itertools.count(1)
        self.user_kills = 10  # kills per case of cases_user_files (fewer with --quick)
        self._states: dict[str, Dirs] = {}
        self.server = FaultServer().start()
        self.ca_file, tls = self._tls_context()
        self.tls_server = FaultServer(tls).start()
        self.mirror_registry = materials.write_registry(
            self.work / "mirror-sources.toml", [mtg_source("txt")]
        )
        self.mirror_old = materials.mtg_mirror(self.work / "mirror-old", materials.MTG_OLD)
        self.mirror_new = materials.mtg_mirror(self.work / "mirror-new", materials.MTG_NEW)
        # The mini MTG document as TXT and PDF renditions of one version (cheap to parse).
        self.rendition_registry = materials.write_registry(
            self.work / "rendition-sources.toml",
            [mtg_source("txt"), mtg_source("pdf")],
        )
        self.mirror_mini_txt = materials.write_mirror(
            self.work / "mirror-mini-txt",
            {"mtg/comprehensive-rules/2026-01-16/mini.txt": materials.mini_txt()},
        )

    def close(self) -> None:
        self.server.stop()
        self.tls_server.stop()

    # -- folders
    def folder(self, label: str) -> Path:
        path = self.work / f"{next(self._ids):03d}-{label}"
        path.mkdir(parents=True)
        return path

    def dirs(self, label: str, state: str | None = None) -> Dirs:
        """Fresh corpus and cache folders: empty, or copies of a prepared state."""
        base = self.folder(label)
        dirs = Dirs(base / "corpus", base / "cache")
        if state is not None:
            prepared = self.state(state)
            corpus_state.copy_state(prepared.corpus, dirs.corpus)
            corpus_state.copy_state(prepared.cache, dirs.cache)
        return dirs

    def state(self, name: str) -> Dirs:
        """A prepared corpus, made once by the real command line:
        `old` holds MTG 2025-07-25 (from a mirror), `two` holds 2025-07-25 and 2025-11-14
        with their diff (from `import`), `mini` the mini document's TXT rendition only."""
        if name not in self._states:
            dirs = Dirs(
                self.work / f"state-{name}" / "corpus", self.work / f"state-{name}" / "cache"
            )
            for path in (dirs.corpus, dirs.cache):
                shutil.rmtree(path, ignore_errors=True)
            if name == "old":
                args = [
                    *dirs.args(self.mirror_registry),
                    "update",
                    "--mirror",
                    str(self.mirror_old),
                ]
                want = 10
            elif name == "mini":
                args = [
                    *dirs.args(self.rendition_registry),
                    "update",
                    "--mirror",
                    str(self.mirror_mini_txt),
                ]
                want = 10
            elif name == "two":
                archive = materials.mtg_mirror(
                    self.work / "archive-two", materials.MTG_OLD, materials.MTG_NEW
                )
                args = [*dirs.args(self.mirror_registry), "import", str(archive)]
                want = 0
            else:
                raise ValueError(name)
            result = procs.run(args)
            if result.returncode != want:
                raise RuntimeError(f"preparing state {name} failed:\n{result.output}")
            self._states[name] = dirs
        return self._states[name]

    # -- TLS
    def _tls_context(self) -> tuple[Path, ssl.SSLContext]:
        """A self-signed certificate for 127.0.0.1; runs that should trust it get its file
        as REQUESTS_CA_BUNDLE."""
        key, cert = self.work / "tls-key.pem", self.work / "tls-cert.pem"
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", str(key), "-out", str(cert),
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        return cert, context


def judge(
    name: str,
    title: str,
    result: procs.Run,
    *,
    expected: Sequence[int],
    dirs: Dirs | None,
    before: corpus_state.Snapshot | None,
    names: Sequence[str] = (),
    memory_limit: int | None = None,
) -> Outcome:
    """The one verdict every case gets (see the module docstring)."""
    outcome = Outcome(
        name,
        title,
        expected,
        got=result.returncode,
        seconds=result.seconds,
        peak_rss=result.peak_rss,
        hung=result.hung,
        orphans=len(result.orphans),
        output=result.output[-4000:],
    )
    problems = outcome.problems
    if result.hung:
        problems.append(f"no exit within {CASE_TIMEOUT:g} s (a hang)")
    if result.traceback:
        outcome.crashed = True
        problems.append("a Python traceback reached the user")
    if result.returncode not in DOCUMENTED:
        outcome.crashed = True
        problems.append(f"exit code {result.returncode} is not in the documented contract")
    elif result.returncode not in expected:
        problems.append(f"exit {result.returncode}, expected {'/'.join(map(str, expected))}")
    if names and not any(n in result.output for n in names):
        problems.append("the message names none of: " + ", ".join(names))
    if dirs is not None:
        if before is not None and result.returncode not in (0, 10):
            after = corpus_state.Snapshot.of(dirs.corpus)
            # A version staged for review (exit 40) is stored under staged/ by design;
            # everything published must be as it was. Any other failure changes nothing.
            staged = result.returncode == 40 and "staged" in result.output
            if (after.published != before.published) if staged else (after.files != before.files):
                outcome.corrupt = True
                problems.append(
                    "a failed run changed the " + ("published " if staged else "") + "corpus"
                )
        outcome.leftovers = corpus_state.leftovers(dirs.corpus, dirs.cache)
        if outcome.leftovers:
            problems.append("left: " + ", ".join(outcome.leftovers))
    if result.orphans:
        problems.append(f"{len(result.orphans)} processes outlived the run")
    if memory_limit is not None and result.peak_rss > memory_limit:
        problems.append(
            f"a process peaked at {result.peak_rss // materials.MiB} MiB, over the "
            f"{memory_limit // materials.MiB} MiB limit"
        )
    return outcome
