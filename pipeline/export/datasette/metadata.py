"""Datasette's metadata.json for an exported corpus: titles, descriptions, units, canned
queries (metadata.toml), and the database's own name and documents. Plain data (no
Datasette import), written by `rulescorpus export sqlite`."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

from pipeline.corpus.reader import CorpusReader


def metadata_path(database: Path) -> Path:
    """Where the metadata sits: beside the database, rulescorpus.sqlite ->
    rulescorpus.metadata.json (Datasette names the database by the file's stem)."""
    return database.with_name(f"{database.stem}.metadata.json")


# The tables' and columns' descriptions and the canned queries, as data.
_METADATA: dict[str, Any] = tomllib.loads(
    files(__package__).joinpath("metadata.toml").read_text(encoding="utf-8")
)
TABLES: dict[str, dict[str, Any]] = _METADATA["tables"]
QUERIES: dict[str, dict[str, str]] = _METADATA["queries"]


def build_metadata(database: str, reader: CorpusReader) -> dict[str, Any]:
    """metadata.json for the database named `database` (Datasette names it by file stem)."""
    documents = ", ".join(f"{d.id} (current {d.current})" for d in reader.documents())
    return {
        "title": "rulescorpus",
        "description": "Trading-card-game Comprehensive Rules and rulings, every stored "
        "version, each rule with the URL and SHA-256 of the bytes it was read from.",
        "databases": {
            database: {
                "description": f"Documents: {documents or 'none'}.",
                "tables": TABLES,
                "queries": QUERIES,
            }
        },
    }
