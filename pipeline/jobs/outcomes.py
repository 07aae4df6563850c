"""What a run did, per document, and the exit code that sums it up."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import Field

from pipeline.errors import (
    EXIT_CHANGED,
    EXIT_FETCH,
    EXIT_IO,
    EXIT_LOCKED,
    EXIT_OK,
    EXIT_PARSE,
    EXIT_USAGE,
    EXIT_VERIFY,
    RulesCorpusError,
)
from pipeline.models.base import Model

# When several documents end differently, the run's exit code is the most
# severe: a registry or usage error means nothing was checked; a verification
# failure may mean tampering, so it outranks an I/O error, a parse problem, an
# unreachable site, and news. Any code not listed ranks above them all, so no
# failure can ever sum up to 0.
SEVERITY = (
    EXIT_USAGE,
    EXIT_LOCKED,
    EXIT_VERIFY,
    EXIT_IO,
    EXIT_PARSE,
    EXIT_FETCH,
    EXIT_CHANGED,
    EXIT_OK,
)


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
    label: str | None = Field(
        default=None,
        description="an archive's own label for this version, when it is not what the "
        "document states (kept as the archive's; never orders versions)",
    )
    notes: list[str] = Field(
        default_factory=list,
        description="the version's publisher notes, one line each: what the publisher printed "
        "and the parser read right (never a warning, never staging the version)",
    )


FAILURES = {
    EXIT_VERIFY: "verify-failed",
    EXIT_PARSE: "parse-failed",
    EXIT_FETCH: "fetch-failed",
    EXIT_IO: "io-failed",
    EXIT_USAGE: "usage-error",
    EXIT_LOCKED: "locked",
}


def failed(
    document: str,
    exc: RulesCorpusError,
    sources: list[str] | None = None,
    version: str | None = None,
) -> Outcome:
    """The outcome of a document whose run ended in `exc`, with the error's exit code."""
    return Outcome(
        document=document,
        sources=sources or [],
        version=version,
        outcome=FAILURES.get(exc.exit_code, "failed"),
        exit_code=exc.exit_code,
        message=str(exc),
    )


def recovery_outcome(message: str) -> Outcome:
    """What the run found and cleaned up from an interrupted one (not a failure)."""
    return Outcome(document="*", outcome="recovered", message=message)


@dataclass
class RunSummary:
    command: str
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        codes = {o.exit_code for o in self.outcomes}
        unknown = sorted(codes - set(SEVERITY))
        if unknown:
            return unknown[-1]
        return next((code for code in SEVERITY if code in codes), EXIT_OK)

    def as_json(self) -> dict[str, object]:
        return {
            "command": self.command,
            "exit_code": self.exit_code,
            "outcomes": [o.model_dump(mode="json") for o in self.outcomes],
        }
