"""The corpus's index (`index.json`): every document, its stored versions and the diffs
between them, the lock's pins, and the last fetch record of each source. Published:
`schemas/index.schema.json` is generated from `Index`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.models.base import Model
from pipeline.models.sources import Pin


class VersionEntry(Model):
    version: str
    file: str
    sha256: str = Field(description="SHA-256 of the stored JSON file")
    bytes: int | None = Field(default=None, description="size of the stored JSON file")
    status: Literal["published", "staged"] = "published"
    published: str | None = None
    effective: str | None = None
    records: int = 0
    glossary: int = 0
    rulings: int = 0
    warnings: int = 0
    sources: dict[str, str] = Field(
        default_factory=dict, description="rendition -> SHA-256 of the bytes it was parsed from"
    )
    aliases: str | None = None
    provenance: str | None = Field(default=None, description="the version's provenance file")
    ids: str | None = Field(
        default=None,
        description="the version's id index: each record's byte span in `file` (store/ids.py)",
    )
    label: str | None = Field(
        default=None,
        description="an archive's own label for this version when it is not what the document "
        "states; kept as the archive's, it never orders versions",
    )


class DiffEntry(Model):
    old: str
    new: str
    json_file: str = Field(alias="json")
    markdown: str
    html: str
    summary: dict[str, int] = Field(default_factory=dict)
    renumbering: str | None = Field(
        default=None, description="the diff's renumbering map (schemas/renumbering.schema.json)"
    )

    model_config = Model.model_config | {"populate_by_name": True}


class DocumentEntry(Model):
    title: str | None = None
    family: str
    current: str | None = None
    versions: list[VersionEntry] = Field(default_factory=list)
    diffs: list[DiffEntry] = Field(default_factory=list)

    def entry(self, version: str) -> VersionEntry | None:
        return next((v for v in self.versions if v.version == version), None)


INDEX_FORMAT = 2


class Index(Model):
    format: int = INDEX_FORMAT
    documents: dict[str, DocumentEntry] = Field(default_factory=dict)
    pins: list[Pin] = Field(default_factory=list, description="the lock (lock.json is a copy)")
    fetch: dict[str, str] = Field(
        default_factory=dict, description="source id -> file of its last fetch record"
    )
