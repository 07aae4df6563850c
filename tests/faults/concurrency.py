"""Four runs at once: exactly one proceeds, the others exit 75 at once, nothing is written
twice.

The run that gets the lock downloads from the fault server, which waits 5 seconds
before it answers, so the others reach the lock while it is surely held. Four
updates start at the same instant (any may win); with imports in the mix, the
three imports start once the update's request has reached the server (so the
update surely holds the lock: no timing luck decides the winner). "Double writes"
counts what only a second writer could cause: a second commit (two runs ending 0 or
10), a second download of the document, or a final corpus different from one
uninterrupted run's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.support.mtg_sources import mtg_source

from . import corpus_state, materials, procs
from .fault_server import Behaviour, Connection, Request, send
from .lab import Dirs, Lab

RUN_TIMEOUT = 120.0
TEXT = {"Content-Type": "text/plain; charset=utf-8"}


@dataclass
class Contest:
    variant: str
    runs: int = 0
    proceeded: int = 0
    locked_out: int = 0
    double_writes: int = 0
    problems: list[str] = field(default_factory=list)


def stalled(body: bytes, seconds: float) -> Behaviour:
    def behave(request: Request, conn: Connection) -> None:
        if conn.wait(seconds):
            send(body, TEXT)(request, conn)

    return behave


STALL = 5.0


def _launch(
    commands: list[list[str]], holding: Callable[[], bool] | None = None
) -> list[procs.Run]:
    """Start the first command, wait until `holding()` says it holds the lock (if given),
    then start the rest together; wait for all."""
    env = procs.base_env(fast_fetch=False)
    started = [procs.start(commands[0], env)]
    if holding is not None:
        deadline = time.monotonic() + RUN_TIMEOUT
        while not holding() and time.monotonic() < deadline and started[0].poll() is None:
            time.sleep(0.02)
    started += [procs.start(args, env) for args in commands[1:]]
    return [procs.reap(proc, RUN_TIMEOUT) for proc in started]


def _score(contest: Contest, results: list[procs.Run], winner_code: int) -> None:
    """One round of four: exactly one must proceed, the others exit 75 saying why."""
    contest.runs += len(results)
    proceeded = 0
    for result in results:
        if result.returncode == 75 and "holds the lock" in result.stderr:
            contest.locked_out += 1
        elif result.returncode == winner_code:
            proceeded += 1
        else:
            contest.problems.append(f"a run exited {result.returncode}: {result.output[-300:]}")
        if result.traceback or result.hung:
            contest.problems.append(f"a run crashed or hung: {result.output[-300:]}")
    contest.proceeded += proceeded
    if proceeded != 1:
        contest.double_writes += max(0, proceeded - 1)
        contest.problems.append(f"{proceeded} of {len(results)} runs proceeded")


def same_corpus(lab: Lab, rounds: int, mixed: bool) -> Contest:
    """Four runs on one corpus and cache: four updates, or one update and three imports."""
    contest = Contest("an update and three imports" if mixed else "four updates, one corpus")
    data = materials.real(materials.MTG_NEW)
    archive = materials.mtg_mirror(lab.work / "contest-archive", materials.MTG_OLD)
    reference: corpus_state.Published | None = None
    # One URL for the reference and every round: fetch records name it.
    path = f"/contest-{'mixed' if mixed else 'updates'}/MagicCompRules.txt"
    for number in range(rounds + 1):
        url = lab.server.route(path, stalled(data, 0.0 if number == 0 else STALL))
        hits_before = lab.server.hits(path)
        dirs = lab.dirs(f"contest-{number}", "old")
        registry = materials.write_registry(
            dirs.corpus.parent / "sources.toml", [mtg_source("txt", url)]
        )
        update = [*dirs.args(registry), "update"]
        if number == 0:  # the uninterrupted run every contest must end equal to
            if _launch([update])[0].returncode != 10:
                raise RuntimeError("the reference update of the contest failed")
            reference = corpus_state.Published.of(dirs.corpus)
            continue
        others = [[*dirs.args(registry), "import", str(archive)] if mixed else update] * 3
        holding = (lambda b=hits_before: lab.server.hits(path) > b) if mixed else None
        results = _launch([update, *others], holding)
        _score(contest, results, 10)
        downloads = lab.server.hits(path) - hits_before
        if downloads != 1:
            contest.double_writes += max(0, downloads - 1)
            contest.problems.append(f"the document was downloaded {downloads} times")
        assert reference is not None
        _check_final(contest, dirs, reference)
    return contest


def shared_cache(lab: Lab, rounds: int) -> Contest:
    """Four updates into four corpora that share one blob store: the cache lock decides."""
    contest = Contest("four corpora, one cache")
    for number in range(rounds):
        path = f"/contest-cache-{number}/MagicCompRules.txt"
        url = lab.server.route(path, stalled(materials.real(materials.MTG_NEW), STALL))
        base = lab.dirs(f"cache-contest-{number}", "old")
        corpora = [lab.dirs(f"cache-contest-{number}-{i}", "old").corpus for i in range(4)]
        registry = materials.write_registry(
            base.corpus.parent / "sources.toml", [mtg_source("txt", url)]
        )
        before = [corpus_state.tree(c) for c in corpora]
        commands = [[*Dirs(c, base.cache).args(registry), "update"] for c in corpora]
        results = _launch(commands)
        _score(contest, results, 10)
        for corpus, result, old in zip(corpora, results, before, strict=True):
            if result.returncode == 75 and corpus_state.tree(corpus) != old:
                contest.double_writes += 1
                contest.problems.append(f"{corpus} changed although its run was locked out")
        if lab.server.hits(path) != 1:
            contest.problems.append(f"the document was downloaded {lab.server.hits(path)} times")
    return contest


def _check_final(contest: Contest, dirs: Dirs, reference: corpus_state.Published) -> None:
    differences = corpus_state.Published.of(dirs.corpus).differences(reference)
    if differences:
        contest.double_writes += 1
        contest.problems.append("final corpus differs: " + "; ".join(differences[:3]))
    left = corpus_state.leftovers(dirs.corpus, dirs.cache)
    if left:
        contest.problems.append("left: " + ", ".join(left))


def run_contests(lab: Lab, *, quick: bool, say: Callable[[str], None] = print) -> list[Contest]:
    rounds = 1 if quick else 3
    contests = [same_corpus(lab, rounds, mixed=False)]
    if not quick:
        contests += [same_corpus(lab, rounds, mixed=True), shared_cache(lab, rounds)]
    for contest in contests:
        say(
            f"{contest.variant}: {contest.runs} runs, {contest.proceeded} proceeded, "
            f"{contest.locked_out} exited 75, {contest.double_writes} double writes"
            + "".join(f"\n    - {p}" for p in contest.problems)
        )
    return contests
