"""Imported by the parse sandbox's fork server only (its preload list), never elsewhere.

When a run is killed while the fork server hands a parse child its work, the
child reads half a pickle and Python prints a traceback on the killed run's
terminal ("pickle data was truncated"). Nobody is left to read it, and a person
looking at the terminal would take it for a crash of the run, so errors that
only mean "the run on the other end of the pipe is gone" end the child quietly;
any other error is printed as before.
"""

from __future__ import annotations

import pickle
import sys
from types import TracebackType

GONE = (EOFError, pickle.UnpicklingError, BrokenPipeError, ConnectionResetError)
_default = sys.excepthook


def _quiet_when_the_run_is_gone(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None
) -> None:
    if not issubclass(kind, GONE):
        _default(kind, error, trace)


sys.excepthook = _quiet_when_the_run_is_gone
