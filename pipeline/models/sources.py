"""What is read from where: registry entries, downloads, and the lock that pins their bytes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.models.base import Model
from pipeline.models.scheme import NumberedScheme

Rendition = Literal["txt", "pdf", "md", "html", "json", "tar.gz", "wiki"]


class Discovery(Model):
    """How to find the current file's URL on a landing page (file names change per release)."""

    page: str
    link_pattern: str = Field(description="regex an absolute link URL must match")


class ManifestKey(Model):
    """The entries of an archive manifest that are this source."""

    game: str
    document: str
    format: str
    path_pattern: str | None = Field(
        default=None, description="regex the entry's path must match (excludes side files)"
    )
    version_map: dict[str, str] = Field(
        default_factory=dict,
        description="manifest version -> the document version it is a rendition of, as a "
        "maintainer reviewed it (e.g. a prototype folder '2.10.1-prototype' -> '2.10.1')",
    )
    side_files: list[SideFile] = Field(
        default_factory=list,
        description="files of the same game and document that are no document (metadata)",
    )


class SideFile(Model):
    """A file an archive keeps beside a document that is not one: reported, never parsed."""

    path_pattern: str = Field(description="regex the entry's path must match")
    reason: str = Field(description="what the file is, for the import report")


class Source(Model):
    """One entry of the registry: one rendition of one document at one URL."""

    id: str = Field(description="registry key, e.g. fab-cr-txt")
    game: str
    document: str = Field(description="document id 'game/document', e.g. fab/cr")
    title: str
    family: str = Field(description="parser family, e.g. fab-cr")
    rendition: Rendition
    url: str | None = None
    discovery: Discovery | None = None
    allowed_hosts: list[str] = Field(default_factory=list)
    published_sha256_url: str | None = None
    attestation_pages: list[str] = Field(
        default_factory=list,
        description="web pages that publish a SHA-256 for this source's URL (checked by "
        "`verify --published`)",
    )
    max_bytes: int = 64 * 1024 * 1024
    primary: bool = Field(
        default=False, description="the rendition whose records are stored for the document"
    )
    manifest: ManifestKey | None = None
    options: dict[str, str] = Field(default_factory=dict)
    scheme: NumberedScheme | None = Field(
        default=None, description="family `numbered`: how the document is numbered"
    )


class FetchResult(Model):
    """What one download was: enough to prove later which bytes were read from where."""

    source: str
    url: str
    final_url: str
    status: int
    etag: str | None = None
    last_modified: str | None = None
    content_type: str | None = None
    bytes: int
    sha256: str
    retrieved: str = Field(description="UTC ISO-8601 time of retrieval")
    from_cache: bool = Field(default=False, description="true when a 304 reused the stored blob")


class Pin(Model):
    """The lock pins each stored (document, rendition, version) to its bytes."""

    document: str
    rendition: str
    version: str
    sha256: str
    bytes: int
    url: str | None = None


class Lock(Model):
    pins: list[Pin] = Field(default_factory=list)
