"""The strict pydantic base every record of the package builds on."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """Strict base: unknown fields are errors, so a typo in the corpus never loads silently."""

    model_config = ConfigDict(extra="forbid")
