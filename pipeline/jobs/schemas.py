"""JSON Schemas of every file downstream tools read, generated from the pydantic models."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from pipeline.diff.models import DocumentDiff, RenumberingMap
from pipeline.jobs.outcomes import Outcome
from pipeline.models.records import Document
from pipeline.models.sources import FetchResult, Lock
from pipeline.store.corpus import Index

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


def write_schemas(folder: Path) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in render_schemas().items():
        (folder / name).write_bytes(data)
    return sorted(render_schemas())


def stale_schemas(folder: Path) -> list[str]:
    """Schema files that differ from what the models generate (missing ones included)."""
    stale = []
    for name, data in render_schemas().items():
        path = folder / name
        if not path.exists() or path.read_bytes() != data:
            stale.append(name)
    return stale
