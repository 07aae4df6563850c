"""The crash campaign: `update` and `import` killed at every rename and fsync they make
(RULESCORPUS_CRASH_AT=1..N, the store's fault-injection hook: the process dies like
`kill -9` just before its Nth durable step) and at random instants (SIGKILL after a
random delay). After each kill:

1. no process of the run is left (parse workers die with it);
2. `verify` passes on what the kill left (the verify job, called in this process: it
   only reads, and a process start per check would double the campaign's time);
3. the next run (the same command) succeeds;
4. the corpus it ends with equals an uninterrupted run's, byte for byte (index.json
   and every file it names; retrieval times are frozen, see cli_under_test), and every
   blob hashes to its name;
5. no temporary or unreferenced file is left in the corpus or the cache.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from . import corpus_state, materials, procs
from .lab import Dirs, Lab

RUN_TIMEOUT = 120.0
MINI_TXT_PATH = "mtg/comprehensive-rules/2026-01-16/mini.txt"
MINI_PDF_PATH = "mtg/comprehensive-rules/2026-01-16/mini.pdf"


@dataclass
class Workload:
    """One command from one prepared state, and what its uninterrupted run leaves."""

    name: str
    args: Callable[[Dirs], list[str]]
    start: str | None  # a Lab state, or None for empty folders
    expected: int
    reference: corpus_state.Published | None = None
    seconds: float = 0.0


@dataclass
class Tally:
    workload: str
    kill_points: int = 0  # durable steps found (the sweep's N), or the last step killed at
    full_sweep: bool = True  # every step (False: only chosen steps, --quick)
    sweep_runs: int = 0
    sweep_kills: int = 0
    random_kills: int = 0
    finished_first: int = 0  # random kills that came after the run had ended
    corrupt: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)
    orphans: int = 0
    crashes: list[str] = field(default_factory=list)
    kill_tracebacks: list[str] = field(default_factory=list)  # printed as the run was killed
    hangs: int = 0
    cleaned: int = 0  # leftovers a kill made that the next run removed


def workloads(lab: Lab) -> list[Workload]:
    both = materials.write_mirror(
        lab.work / "mirror-mini-both",
        {MINI_TXT_PATH: materials.mini_txt(), MINI_PDF_PATH: materials.mini_pdf()},
    )
    archive = materials.mtg_mirror(lab.work / "crash-archive", materials.MTG_OLD, materials.MTG_NEW)
    return [
        Workload(
            "import (2 MTG versions)",
            lambda d: [*d.args(lab.mirror_registry), "import", str(archive)],
            None,
            0,
        ),
        Workload(
            "update (a new MTG version)",
            lambda d: [*d.args(lab.mirror_registry), "update", "--mirror", str(lab.mirror_new)],
            "old",
            10,
        ),
        Workload(
            "update (adds a PDF rendition)",
            lambda d: [*d.args(lab.rendition_registry), "update", "--mirror", str(both)],
            "mini",
            10,
        ),
    ]


def prepare(lab: Lab, workload: Workload) -> None:
    """The uninterrupted run every interrupted one must end up equal to."""
    dirs = lab.dirs("reference", workload.start)
    result = procs.run(workload.args(dirs), timeout=RUN_TIMEOUT)
    if result.returncode != workload.expected:
        raise RuntimeError(f"{workload.name}: the uninterrupted run failed:\n{result.output}")
    workload.reference = corpus_state.Published.of(dirs.corpus)
    workload.seconds = result.seconds


def check_after_kill(
    lab: Lab, workload: Workload, dirs: Dirs, killed: procs.Run, tally: Tally, label: str
) -> None:
    """Steps 1-5 of the module docstring, recorded in `tally`."""
    tally.orphans += len(killed.orphans)
    if killed.hung:
        tally.hangs += 1
    if killed.traceback:
        tally.kill_tracebacks.append(f"{label}: {_last_line(killed.stderr)}")
    made = corpus_state.leftovers(dirs.corpus, dirs.cache)
    problems = verify_in_process(dirs)
    if problems:
        tally.corrupt.append(f"{label}: verify failed: {problems}")
    again = procs.run(workload.args(dirs), timeout=RUN_TIMEOUT)
    if again.hung:
        tally.hangs += 1
    if again.returncode not in (0, 10) or again.traceback:
        tally.crashes.append(
            f"{label}: the next run exited {again.returncode}: {again.output[-600:]}"
        )
        return
    assert workload.reference is not None
    differences = corpus_state.Published.of(dirs.corpus).differences(workload.reference)
    differences += corpus_state.blobs_ok(dirs.cache)
    if differences:
        tally.corrupt.append(f"{label}: " + "; ".join(differences[:5]))
    left = corpus_state.leftovers(dirs.corpus, dirs.cache)
    tally.leftovers.extend(f"{label}: {item}" for item in left)
    tally.cleaned += len(made) - len(left) if len(made) > len(left) else 0


def verify_in_process(dirs: Dirs) -> str:
    """What `rulescorpus verify` would report, or '' when it passes (exit 0)."""
    from pipeline.errors import RulesCorpusError
    from pipeline.jobs.context import Context
    from pipeline.jobs.verify import verify

    try:
        summary = verify(Context(corpus_dir=dirs.corpus, cache_dir=dirs.cache), [])
    except RulesCorpusError as exc:
        return f"exit {exc.exit_code}: {exc}"
    if summary.exit_code == 0:
        return ""
    return f"exit {summary.exit_code}: " + "; ".join(o.message for o in summary.outcomes)[:600]


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def sweep(lab: Lab, workload: Workload, tally: Tally, points: list[int] | None = None) -> None:
    """Kill at durable step 1, 2, ... until a run completes without reaching it; with
    `points` (--quick, the smoke test), kill only at those steps."""
    steps = iter(points) if points is not None else itertools.count(1)
    tally.full_sweep = points is None
    for step in steps:
        dirs = lab.dirs(f"crash-at-{step}", workload.start)
        env = procs.base_env({"RULESCORPUS_CRASH_AT": str(step)})
        killed = procs.run(workload.args(dirs), env=env, timeout=RUN_TIMEOUT)
        tally.sweep_runs += 1
        if killed.returncode != 137:
            # Fewer durable steps than `step`: the run completed, and must have succeeded.
            if killed.returncode != workload.expected or killed.traceback:
                tally.crashes.append(
                    f"{workload.name}: the run not reaching step {step} exited "
                    f"{killed.returncode}: {killed.output[-400:]}"
                )
            if points is None:
                return
            continue
        tally.kill_points = max(tally.kill_points, step)
        tally.sweep_kills += 1
        check_after_kill(lab, workload, dirs, killed, tally, f"{workload.name} crash-at-{step}")


def random_kills(
    lab: Lab, workload: Workload, tally: Tally, count: int, rng: random.Random
) -> None:
    """SIGKILL the run (its main process only, as `kill -9 PID` would) after a random delay
    within its uninterrupted duration."""
    for number in range(count):
        dirs = lab.dirs(f"random-kill-{number}", workload.start)
        delay = rng.uniform(0.0, 0.9 * workload.seconds)
        proc = procs.start(workload.args(dirs), procs.base_env())
        time.sleep(delay)
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGKILL)
        killed = procs.reap(proc, RUN_TIMEOUT)
        tally.random_kills += 1
        if killed.returncode != -signal.SIGKILL:
            tally.finished_first += 1
        check_after_kill(
            lab, workload, dirs, killed, tally, f"{workload.name} kill after {delay:.2f} s"
        )


def run_campaign(
    lab: Lab, *, quick: bool, kills: int, seed: int, say: Callable[[str], None] = print
) -> list[Tally]:
    rng = random.Random(seed)
    chosen = workloads(lab)
    if quick:
        chosen = chosen[1:2]
    # The random kills are shared out by cost: an import of two real versions costs twice
    # an update, so it gets fewer of them (it has the most kill points in the sweep).
    weights = [1.0] if quick else [0.25, 0.4, 0.35]
    shares = [int(kills * w) for w in weights]
    shares[-1] += kills - sum(shares)
    tallies = []
    for workload, share in zip(chosen, shares, strict=True):
        prepare(lab, workload)
        tally = Tally(workload.name)
        began = time.monotonic()
        sweep(lab, workload, tally, [1, 7, 15] if quick else None)
        random_kills(lab, workload, tally, share, rng)
        say(
            f"{workload.name}: {tally.kill_points} kill points, {tally.random_kills} random "
            f"kills, {len(tally.corrupt)} corrupt, {len(tally.leftovers)} leftovers, "
            f"{tally.orphans} orphans, {len(tally.crashes)} crashes, "
            f"{len(tally.kill_tracebacks)} tracebacks printed by killed runs "
            f"({time.monotonic() - began:.0f} s)"
        )
        for problem in tally.corrupt + tally.leftovers + tally.crashes + tally.kill_tracebacks[:3]:
            say(f"    - {problem}")
        tallies.append(tally)
    return tallies
