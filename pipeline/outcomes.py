"""What a run did, per document, and the exit code that sums it up."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import Field

from pipeline.errors import EXIT_CHANGED, EXIT_FETCH, EXIT_OK, EXIT_PARSE, EXIT_VERIFY
from pipeline.models import Model

# When several documents end differently, the run's exit code is the most
# severe: a verification failure may mean tampering, so it outranks a parse
# problem, which outranks an unreachable site, which outranks news.
SEVERITY = (EXIT_VERIFY, EXIT_PARSE, EXIT_FETCH, EXIT_CHANGED, EXIT_OK)


class Outcome(Model):
    document: str
    sources: list[str] = Field(default_factory=list)
    version: str | None = None
    records: int | None = None
    outcome: str = Field(
        description="unchanged | new | staged | skipped | fetch-failed | verify-failed | "
        "parse-failed | imported"
    )
    exit_code: int = EXIT_OK
    message: str = ""
    changes: dict[str, int] = Field(default_factory=dict, description="diff summary, per class")
    previous: str | None = None
    warnings: int = 0


@dataclass
class RunSummary:
    command: str
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        codes = {o.exit_code for o in self.outcomes}
        return next((code for code in SEVERITY if code in codes), EXIT_OK)

    def as_json(self) -> dict[str, object]:
        return {
            "command": self.command,
            "exit_code": self.exit_code,
            "outcomes": [o.model_dump(mode="json") for o in self.outcomes],
        }
