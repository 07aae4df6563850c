"""A time budget for a registry's patterns where they run on a document's text.

A registry's `version_pattern` stands in every statement and `ends` template. Python's
`re` cannot be interrupted, so a pattern that backtracks catastrophically on some line
(one the load-time probes did not expose) would hold the parse until its CPU limit. In
the parse sandbox's child a budget is set (`set_pattern_budget`), and each use of such a
pattern runs under an interval timer: past the budget, SIGALRM's default action ends the
child at once, even inside the regex engine, and the parent reports the pattern by its
registry key (runner.sandbox). Outside the child no budget is set and nothing is armed.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

_budget: float | None = None


def set_pattern_budget(seconds: float | None) -> None:
    """Arm every later `within_budget` for `seconds` (None: arm nothing)."""
    global _budget
    _budget = seconds


@contextmanager
def within_budget() -> Iterator[None]:
    """Run a registry pattern's matches; past the budget the process ends by SIGALRM."""
    if _budget is None:
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, _budget)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
