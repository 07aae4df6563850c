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
import signal
import string
import threading
from collections.abc import Iterator, Sequence

from pipeline.errors import UsageError

PROBE_SECONDS = 3.0
# Long enough that an exponential pattern runs for hours, short enough that a linear or
# quadratic one ends in milliseconds; the long run catches cubic and worse.
_SHORT, _LONG = 32, 600
_LEADED = 60
# Letters and digits the pattern spells out (an escape's letter, `\\d`, is none of them).
_WORD = re.compile(r"(?<!\\)[A-Za-z0-9]{2,}")
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
    # A repeated group behind a literal (`v(a+)+b`, `x(\d+)+y`, `rules(a+)+b`) is reached
    # only by input that starts with the literal: every character and every word the
    # pattern spells, then a run of every character. Long enough that a Fibonacci-like
    # alternation (`(a|aa)+`) runs for hours too.
    leads = set(accepted) | set(_WORD.findall(pattern))
    probes += [lead + char * _LEADED + "\0" for lead in sorted(leads) for char in accepted]
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


# Each use of a registry pattern on text a run is given (an archive's paths, a page's
# links): the probes above cannot try every input. RULESCORPUS_PATTERN_S sets it, as it
# sets the budget of a version_pattern in the parse child (runner.limits).
USE_SECONDS = 10


def use_seconds() -> float:
    value = os.environ.get("RULESCORPUS_PATTERN_S", "")
    return float(value) if value.isdigit() and int(value) > 0 else float(USE_SECONDS)


class _Overrun(Exception):
    pass


def _overrun(signum: int, frame: object) -> None:
    raise _Overrun


@contextlib.contextmanager
def use_budget(source: str, key: str, pattern: str) -> Iterator[None]:
    """Run a registry pattern's matches on untrusted text within `seconds`; past them, a
    UsageError naming the entry and the key (exit 2). Python's regex engine checks for
    signals while it backtracks, so the timer's handler interrupts even a catastrophic
    match. Only the main thread receives signals: in another, nothing is armed and the
    load-time probes stand alone."""
    seconds = use_seconds()
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGALRM, _overrun)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Overrun:
        raise UsageError(
            f"source {source}: the registry's {key} {pattern!r} ran past its time budget of "
            f"{seconds:g} s on the text it was matched against (it backtracks "
            "catastrophically); rewrite it without a quantifier inside a repeated group"
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
