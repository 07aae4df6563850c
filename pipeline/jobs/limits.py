"""The limits every parse child runs under (the parse sandbox, `jobs.sandbox`, applies them).

Apart from the sandbox so that a Context, which every command builds, can carry them
without importing the parsers the sandbox runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

MiB = 1024 * 1024


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
