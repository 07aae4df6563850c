"""The cyclic garbage collector's thresholds for a process of this package.

An import holds whole Documents (the MTG CR is 37,000 objects the collector tracks)
while it diffs each version against the last, and CPython 3.11's default thresholds
(700, 10, 10) ran a full collection over that heap 30 times in an import of
the whole test archive, each walking every object it holds. Fewer, later young collections
(10,000 allocations apart) leave one full collection. Objects freed by
their reference counts are freed at once whatever the thresholds; only cyclic
garbage waits, and the parse sandbox's limits bound what a child can hold.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 10, 10)


def tune_collector() -> None:
    """Set THRESHOLDS for this process (the command line does, and the test suite)."""
    gc.set_threshold(*THRESHOLDS)
