"""The limits a run works under: the whole `update`'s deadline, and what every parse child
may use (the parse sandbox, `runner.sandbox`, applies those).

Apart from the jobs that apply them, so that the CLI's options and a Context (which every
command builds) can name them without importing the parsers or the fetcher.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

MiB = 1024 * 1024
# A scheduled job must end: a host that rate-limits every source cannot hold it for hours.
RUN_DEADLINE = 3600.0  # seconds for a whole `update` run


@dataclass(frozen=True)
class ParseLimits:
    """Per-parse limits; env RULESCORPUS_PARSE_MEMORY_MB / _CPU_S / _WALL_S and
    RULESCORPUS_PATTERN_S override."""

    memory_bytes: int = 1024 * MiB
    cpu_seconds: int = 600
    wall_seconds: int = 900
    # Each use of a registry's pattern on a document's text (parse.numbered.budget).
    pattern_seconds: int = 10
    # When the whole run must end (time.monotonic()); `update --deadline` sets it, so one
    # slow parse cannot hold the run past it.
    deadline_at: float | None = None

    def until(self, deadline_at: float) -> ParseLimits:
        return replace(self, deadline_at=deadline_at)

    def wall_now(self) -> float:
        """Seconds a parse started now may take: the wall-time limit, or less when the
        run's deadline comes first."""
        if self.deadline_at is None:
            return float(self.wall_seconds)
        return max(0.0, min(float(self.wall_seconds), self.deadline_at - time.monotonic()))

    def cpu_now(self) -> int:
        return max(1, min(self.cpu_seconds, int(self.wall_now()) + 1))

    def deadline_first(self) -> bool:
        """True when the run's deadline, not the wall-time limit, bounds a parse now."""
        return self.wall_now() < self.wall_seconds

    @classmethod
    def from_env(cls) -> ParseLimits:
        def read(name: str, default: int) -> int:
            value = os.environ.get(name)
            return int(value) if value and value.isdigit() else default

        base = cls()
        return cls(
            memory_bytes=read("RULESCORPUS_PARSE_MEMORY_MB", base.memory_bytes // MiB) * MiB,
            cpu_seconds=read("RULESCORPUS_PARSE_CPU_S", base.cpu_seconds),
            wall_seconds=read("RULESCORPUS_PARSE_WALL_S", base.wall_seconds),
            pattern_seconds=read("RULESCORPUS_PATTERN_S", base.pattern_seconds),
        )
