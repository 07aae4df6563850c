"""What is read from where: registry entries, downloads, and the lock that pins their bytes."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationInfo, field_validator, model_validator

from pipeline.models.base import Model
from pipeline.models.path_parts import document_problem, game_problem, part_problem, prefix_problem
from pipeline.models.scheme import NumberedScheme, pattern_problem

Rendition = Literal["txt", "pdf", "md", "html", "json", "tar.gz", "wiki"]


# Every value of a registry entry is checked by its model, at load, so that none fails
# later inside a run: each error names its key (the loader adds the file and the entry).
# What no single entry can say (ids unique, one primary rendition per document, the
# families the caller can parse, patterns that backtrack) the loader checks.
def _refused(problem: str | None) -> None:
    if problem is not None:
        raise ValueError(problem)


def _regex(pattern: str) -> str:
    if (problem := pattern_problem(pattern)) is not None:
        raise ValueError(f"{pattern!r}: {problem}")
    return pattern


def is_secure_url(url: str) -> bool:
    """https, or plain http to this machine only (test servers and local mirrors)."""
    if url.startswith("https://"):
        return True
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:  # `http://[source`: not a URL at all, so not a secure one
        return False
    return url.startswith("http://") and host in ("127.0.0.1", "localhost", "::1")


class Discovery(Model):
    """How to find the current file's URL on a landing page (file names change per release)."""

    page: str
    link_pattern: str = Field(description="regex an absolute link URL must match")

    @field_validator("link_pattern")
    @classmethod
    def _check_pattern(cls, pattern: str) -> str:
        return _regex(pattern)


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

    @field_validator("path_pattern")
    @classmethod
    def _check_pattern(cls, pattern: str | None) -> str | None:
        return pattern if pattern is None else _regex(pattern)

    @field_validator("version_map")
    @classmethod
    def _check_versions(cls, versions: dict[str, str]) -> dict[str, str]:
        for key, version in versions.items():
            if (problem := part_problem(version, "version")) is not None:
                raise ValueError(f"[{key!r}]: {problem}")
        return versions


class SideFile(Model):
    """A file an archive keeps beside a document that is not one: reported, never parsed."""

    path_pattern: str = Field(description="regex the entry's path must match")
    reason: str = Field(description="what the file is, for the import report")

    @field_validator("path_pattern")
    @classmethod
    def _check_pattern(cls, pattern: str) -> str:
        return _regex(pattern)


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

    # Ids become corpus paths and citation prefixes: only safe names.
    @field_validator("id")
    @classmethod
    def _check_id(cls, value: str) -> str:
        _refused(part_problem(value, "source id"))
        return value

    @field_validator("game")
    @classmethod
    def _check_game(cls, value: str) -> str:
        _refused(game_problem(value))
        return value

    @field_validator("document")
    @classmethod
    def _check_document(cls, value: str) -> str:
        _refused(document_problem(value))
        return value

    @field_validator("family")
    @classmethod
    def _check_family(cls, family: str, info: ValidationInfo) -> str:
        """The families the caller can parse, when it gives them (`context={"families":
        ...}`): models cannot import the parsers' table."""
        known = (info.context or {}).get("families")
        if known is not None and family not in known:
            raise ValueError(f"unknown family {family!r} (known: {', '.join(sorted(known))})")
        return family

    @field_validator("url")
    @classmethod
    def _check_url(cls, url: str | None) -> str | None:
        if url is not None and not is_secure_url(url):
            raise ValueError(f"must be https, or http to this machine ({url})")
        return url

    @field_validator("options")
    @classmethod
    def _check_options(cls, options: dict[str, str]) -> dict[str, str]:
        if "prefix" in options and (problem := prefix_problem(options["prefix"])):
            raise ValueError(f"prefix: {problem}")
        return options

    @model_validator(mode="after")
    def _check_whole(self) -> Source:
        if self.url is None and self.discovery is None and not self.options.get("archive_only"):
            raise ValueError("needs a url or a discovery rule")
        if (self.family == "numbered") != (self.scheme is not None):
            raise ValueError("family `numbered` and a [source.scheme] go together")
        return self


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
