"""`show`'s plain case read with the json module alone: the dict `jobs.show` builds, without
typer, rich, pydantic or the models (see `cli.quick`, which calls it).

It reads index.json, the version's id index (store/ids.py) and only the bytes of the
asked record and its children, each checked against the SHA-256 the id index recorded;
a version stored before id indexes existed is read whole and checked against the
index's SHA-256. Anything that is not the plain case (an older version, which also says
where the rule lives now; a citation it cannot find; a damaged file) raises Fallback,
and the full command answers with its own messages and exit codes.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pipeline.store.ids import children_in, fits, read_span, records_by_id
from pipeline.store.layout import INDEX, digest_in_name


class Fallback(Exception):
    """This request is not the plain case: the full command answers it."""


def _read(root: Path, relative: str, sha256: str | None = None) -> Any:
    data = (root / relative).read_bytes()
    got = hashlib.sha256(data).hexdigest()
    if (sha256 or got) != got or not got.startswith(digest_in_name(relative) or ""):
        raise Fallback  # a damaged file: the full command says so with exit 20
    return json.loads(data)


def _whole_file(root: Path, item: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """(head, find): a version without an id index, read whole."""
    doc = _read(root, item["file"], item["sha256"])
    by_id = records_by_id(doc)

    def find(citation: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        if citation not in by_id:
            return None
        record = by_id[citation][1]
        children = [r for r in doc.get("records") or [] if r.get("parent") == record["id"]]
        return dict(record), children

    return doc, find


def _indexed(root: Path, item: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """(head, find): a version read through its id index, record by record."""
    ids = _read(root, item["ids"])
    if not fits(ids, item["file"], item["sha256"]):
        return _whole_file(root, item)  # another format, or another file's index

    def find(citation: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        entry = ids["ids"].get(citation)
        if entry is None:
            return None
        with (root / item["file"]).open("rb") as handle:
            wanted = [citation, *children_in(ids, citation)]
            records = [read_span(handle, ident, ids["ids"][ident]) for ident in wanted]
        read = [record for record in records if record is not None]
        if len(read) != len(records):
            raise Fallback
        return read[0], read[1:]

    return ids["head"], find


def shown_json(
    root: Path, citation: str, document: str | None, version: str | None
) -> dict[str, Any]:
    """The dict `show --json` prints, or Fallback."""
    index = _read(root, INDEX)
    if document is None or document not in index.get("documents", {}):
        raise Fallback
    entry = index["documents"][document]
    version = version or entry.get("current")
    if version != entry.get("current"):
        raise Fallback  # an older version also says where the rule lives now
    item = next((v for v in entry["versions"] if v["version"] == version), None)
    if item is None:
        raise Fallback
    head, find = _indexed(root, item) if item.get("ids") else _whole_file(root, item)
    found, renumbered_from = find(citation), None
    if found is None and item.get("aliases"):
        target = _read(root, item["aliases"]).get(citation)
        found = find(target) if target else None
        renumbered_from = citation if found is not None else None
    if found is None:
        raise Fallback
    record, children = found
    provenance = _read(root, item["provenance"]) if item.get("provenance") else {}
    source = head.get("source") or {}
    return {
        "asked": citation,
        "renumbered_from": renumbered_from,
        "record": record,
        "children": children,
        "provenance": {
            "document": document,
            "title": entry.get("title") or head.get("title"),
            "version": version,
            "published": head.get("published"),
            "effective": head.get("effective"),
            "citation": record["id"],
            "url": source.get("url"),
            "sha256": source.get("sha256"),
            "bytes": source.get("bytes"),
            "rendition": source.get("rendition"),
            "renditions": head.get("renditions") or [],
            "parser": head.get("parser"),
            "fetches": list(provenance.get("fetches", [])),
        },
        "now": None,
    }
