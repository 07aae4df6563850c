"""JSON Schemas of every file downstream tools read, generated from the pydantic models.
`rulescorpus schema` writes them into schemas/, or checks that schemas/ holds them."""

from __future__ import annotations

import json

from pydantic import BaseModel

from pipeline.models.diffs import DocumentDiff, RenumberingMap
from pipeline.models.index import Index
from pipeline.models.outcomes import Outcome
from pipeline.models.records import Document
from pipeline.models.sources import FetchResult, Lock

SCHEMAS: dict[str, type[BaseModel]] = {
    "document": Document,
    "diff": DocumentDiff,
    "index": Index,
    "lock": Lock,
    "fetch-record": FetchResult,
    "outcome": Outcome,
    "renumbering": RenumberingMap,
}


def render_schemas() -> dict[str, bytes]:
    """File name -> bytes, deterministic."""
    out = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema(by_alias=True)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"https://rulescorpus.invalid/schemas/{name}.schema.json"
        text = json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        out[f"{name}.schema.json"] = text.encode("utf-8")
    return out
