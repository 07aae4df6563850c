"""Regular expressions a registry gives (version patterns, link and path patterns): compiled
at load, and refused when they backtrack catastrophically.

Python's `re` cannot be interrupted: `(a+)+` against 30 `a`s and a full stop runs for
minutes inside one call. Whether a pattern does is found by running it, in a child
process under a time bound, on probes made of the characters it accepts repeated (the
input that makes a nested quantifier try every split) and then a character that fails.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import string
from collections.abc import Sequence

PROBE_SECONDS = 3.0
# Long enough that an exponential pattern runs for hours, short enough that a linear or
# quadratic one ends in milliseconds; the long run catches cubic and worse.
_SHORT, _LONG = 32, 600
_LEADED = 60
_FILLERS = "a1A. -_/:"
# Flags for the whole pattern, which Python accepts only at its very start.
_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


def _probes(pattern: str) -> list[str]:
    accepted = sorted(
        {c for c in pattern if c.isalnum() or c in string.punctuation} | set(_FILLERS)
    )
    probes = []
    for char in accepted:
        probes += [char * _SHORT + "\0", char * _LONG + "\0"]
    # A repeated group behind a literal (`v(a+)+b`, `x(\d+)+y`) is reached only by input
    # that starts with the literal: every character, then a run of every other.
    # Long enough that a Fibonacci-like alternation (`(a|aa)+`) runs for hours too.
    probes += [lead + char * _LEADED + "\0" for lead in accepted for char in accepted]
    mixed = "".join(c for c in accepted if c.isalnum())
    probes += [mixed * 4 + "\0", "1." * _SHORT + "!", "a " * _SHORT + "!"]
    return probes


def _run_probes(patterns: Sequence[str]) -> None:
    for pattern in patterns:
        # As the statement reader uses a version pattern: followed by optional punctuation
        # at the end of a line, searched from every position.
        flags = _GLOBAL_FLAGS.match(pattern)
        head = flags.group(0) if flags else ""
        tail = rf"{head}(?:{pattern[len(head) :]})\s*[.;,]?$"
        regexes = [re.compile(pattern)]
        with contextlib.suppress(re.error):  # a pattern that is no version pattern
            regexes.append(re.compile(tail))
        for regex in regexes:
            for probe in _probes(pattern):
                regex.search(probe)
    os._exit(0)


def _answers_in_time(patterns: Sequence[str]) -> bool:
    child = multiprocessing.get_context("fork").Process(
        target=_run_probes, args=(list(patterns),), daemon=True
    )
    child.start()
    child.join(PROBE_SECONDS)
    if child.is_alive():
        child.kill()
        child.join()
        return False
    return child.exitcode == 0


def backtracking_problem(patterns: Sequence[str]) -> str | None:
    """None when every pattern answers every probe within the time bound; else which one
    does not. Each pattern must compile (`models.scheme.pattern_problem`). One child runs
    them all; only when it is stopped does each run alone, to name the one at fault."""
    if not patterns or _answers_in_time(patterns):
        return None
    for pattern in patterns:
        if len(patterns) == 1 or not _answers_in_time([pattern]):
            return (
                f"the pattern {pattern!r} backtracks catastrophically (probes of repeated "
                f"characters ran over {PROBE_SECONDS:g} s); avoid a quantifier inside a "
                "repeated group, e.g. (a+)+"
            )
    return "the patterns together ran over the time bound on their probes"
