"""The limits a run works under: the whole `update`'s deadline, and what every parse child
may use (the parse sandbox, `jobs.sandbox`, applies those).

Apart from the jobs that apply them, so that the CLI's options and a Context (which every
command builds) can name them without importing the parsers or the fetcher.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

MiB = 1024 * 1024
# A scheduled job must end: a host that rate-limits every source cannot hold it for hours.
RUN_DEADLINE = 3600.0  # seconds for a whole `update` run


@dataclass(frozen=True)
class ParseLimits:
    """Per-parse limits; env RULESCORPUS_PARSE_MEMORY_MB / _CPU_S / _WALL_S override."""

    memory_bytes: int = 1024 * MiB
    cpu_seconds: int = 600
    wall_seconds: int = 900

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
        )
