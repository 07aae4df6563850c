"""`show`'s answer as typed objects: the dict `show --json` prints (`lookup.show`), with
its record and subrules made models."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.models.records import GlossaryTerm, Rule, Ruling


def record_model(data: dict[str, Any]) -> Rule | GlossaryTerm | Ruling:
    """A stored record's JSON as its model: a rule has a number, a term a definition."""
    if "number" in data:
        return Rule.model_validate(data)
    if "definition" in data:
        return GlossaryTerm.model_validate(data)
    return Ruling.model_validate(data)


@dataclass
class Shown:
    """A shown record: where it is, its subrules, where its bytes came from, and (for an
    older version) where it lives now."""

    document: str
    version: str
    record: Rule | GlossaryTerm | Ruling
    children: list[Rule]
    asked: str
    data: dict[str, Any] = field(repr=False)
    renumbered_from: str | None = None
    now: dict[str, Any] | None = None

    @classmethod
    def of(cls, data: dict[str, Any]) -> Shown:
        p = data["provenance"]
        return cls(
            document=p["document"],
            version=p["version"],
            record=record_model(data["record"]),
            children=[Rule.model_validate(c) for c in data["children"]],
            asked=data["asked"],
            data=data,
            renumbered_from=data["renumbered_from"],
            now=data["now"],
        )

    @property
    def fetches(self) -> list[dict[str, Any]]:
        fetches: list[dict[str, Any]] = self.data["provenance"]["fetches"]
        return fetches

    def provenance(self) -> dict[str, Any]:
        provenance: dict[str, Any] = self.data["provenance"]
        return provenance

    def as_json(self) -> dict[str, Any]:
        return self.data
