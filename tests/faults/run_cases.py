"""Run the fault cases (both catalogues), one at a time, printing a line per case."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import cases_disk, cases_site, cases_user_files  # noqa: F401  (register their cases)
from .cases_network import CASES
from .lab import Lab, Outcome


def selected(quick: bool, only: Sequence[str] = ()) -> list[Callable[[Lab], Outcome]]:
    chosen = [c for c, in_quick in CASES if in_quick or not quick]
    if only:
        chosen = [c for c in chosen if c.__name__ in only]
    return chosen


def run_cases(
    lab: Lab,
    quick: bool,
    only: Sequence[str] = (),
    say: Callable[[str], None] = print,
    verbose: bool = False,
) -> list[Outcome]:
    outcomes = []
    for case in selected(quick, only):
        try:
            outcome = case(lab)
        except Exception as exc:  # a broken case is reported, never hides the others
            outcome = Outcome(case.__name__, case.__doc__ or case.__name__, [])
            outcome.problems.append(f"the case itself failed: {type(exc).__name__}: {exc}")
            outcome.crashed = True
        mark = "ok  " if outcome.handled else "FAIL"
        say(
            f"{mark} {outcome.name:<22} exit {outcome.got!s:<4} {outcome.seconds:5.1f} s  "
            f"{outcome.title}" + ("".join(f"\n       - {p}" for p in outcome.problems))
        )
        if verbose and not outcome.handled:
            say(outcome.output)
        outcomes.append(outcome)
    return outcomes
