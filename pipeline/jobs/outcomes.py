"""What a run did: each document's outcome (`models.outcomes.Outcome`), the outcome of a
failure, and the exit code that sums a run up."""

from __future__ import annotations

from dataclasses import dataclass, field

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
from pipeline.models.outcomes import Outcome

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
