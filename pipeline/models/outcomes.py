"""What a run did with one document: the outcome `update`, `import`, `verify` and `accept`
report per document, in their JSON report. Published: `schemas/outcome.schema.json` is
generated from `Outcome`."""

from __future__ import annotations

from pydantic import Field

from pipeline.models.base import Model


class Outcome(Model):
    document: str
    sources: list[str] = Field(default_factory=list)
    version: str | None = None
    records: int | None = None
    outcome: str = Field(
        description="unchanged | new | staged | skipped | fetch-failed | verify-failed | "
        "parse-failed | imported"
    )
    exit_code: int = 0  # errors.EXIT_OK: models import nothing from the package
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
