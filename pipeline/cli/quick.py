"""`show` in the time Python takes to start: the common case read with the json module alone.

A rules bot or a judge asks `show cr:702.19c --doc mtg/cr` many times a day; loading
typer, rich, pydantic and the models costs ten times what the answer does. This path
answers the plain case (the current or a named current version, text or --json) from
index.json and the version's file, checked against the index's SHA-256, and gives the
same dict and the same text as the full command (`jobs.show`, tested side by side).
Anything else (an older version, --provenance, a citation it cannot find, --help, a
damaged file) returns None, and the full command answers with its messages and exit
codes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

GLOBAL = ("--corpus", "--cache", "--sources")


class _Fallback(Exception):
    """This request is not the plain case: the full command answers it."""


class _Arguments(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # never print: the full command will
        raise _Fallback(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Arguments(add_help=False, allow_abbrev=False)
    for name in GLOBAL:
        parser.add_argument(name)
    parser.add_argument("command")
    parser.add_argument("citation")
    parser.add_argument("--doc")
    parser.add_argument("--version")
    parser.add_argument("--json", action="store_true")
    return parser


def _read(root: Path, relative: str, sha256: str | None = None) -> Any:
    data = (root / relative).read_bytes()
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise _Fallback  # a damaged file: the full command says so with exit 20
    return json.loads(data)


def _find(doc: dict[str, Any], citation: str) -> dict[str, Any] | None:
    for key in ("records", "glossary", "rulings"):
        for record in doc.get(key) or []:
            if record["id"] == citation:
                return dict(record)
    return None


def shown_json(
    root: Path, citation: str, document: str | None, version: str | None
) -> dict[str, Any]:
    """The dict `show --json` prints, or _Fallback."""
    index = _read(root, "index.json")
    if document is None or document not in index.get("documents", {}):
        raise _Fallback
    entry = index["documents"][document]
    version = version or entry.get("current")
    if version != entry.get("current"):
        raise _Fallback  # an older version also says where the rule lives now
    item = next((v for v in entry["versions"] if v["version"] == version), None)
    if item is None:
        raise _Fallback
    doc = _read(root, item["file"], item["sha256"])
    record, renumbered_from = _find(doc, citation), None
    if record is None and item.get("aliases"):
        target = _read(root, item["aliases"]).get(citation)
        record = _find(doc, target) if target else None
        renumbered_from = citation if record is not None else None
    if record is None:
        raise _Fallback
    provenance = _read(root, item["provenance"]) if item.get("provenance") else {}
    source = doc.get("source") or {}
    return {
        "asked": citation,
        "renumbered_from": renumbered_from,
        "record": record,
        "children": [r for r in doc.get("records") or [] if r.get("parent") == record["id"]],
        "provenance": {
            "document": document,
            "title": entry.get("title") or doc.get("title"),
            "version": version,
            "published": doc.get("published"),
            "effective": doc.get("effective"),
            "citation": record["id"],
            "url": source.get("url"),
            "sha256": source.get("sha256"),
            "bytes": source.get("bytes"),
            "rendition": source.get("rendition"),
            "renditions": doc.get("renditions") or [],
            "parser": doc.get("parser"),
            "fetches": list(provenance.get("fetches", [])),
        },
        "now": None,
    }


def try_quick(argv: list[str]) -> int | None:
    """Answer `show` on the plain path and return its exit code, or None to fall back."""
    if "show" not in argv or any(a.startswith("-h") or a == "--help" for a in argv):
        return None
    try:
        args = _parser().parse_args(argv)
    except _Fallback:  # an option this path does not know: the full command parses it
        return None
    if args.command != "show":
        return None
    root = Path(args.corpus or os.environ.get("RULESCORPUS_CORPUS", "corpus"))
    try:
        data = shown_json(root, args.citation, args.doc, args.version)
    except (_Fallback, OSError, ValueError, KeyError, TypeError):
        return None
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        from pipeline.cli.show_text import format_shown

        sys.stdout.write(format_shown(data))
    return 0
