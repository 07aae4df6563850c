"""`show` in the time Python takes to start: the common case read with the json module alone.

A rules bot or a judge asks `show cr:702.19c --doc mtg/cr` many times a day; loading
typer, rich, pydantic and the models costs ten times what the answer does. This path
answers the plain case (the current or a named current version, text or --json) through
`jobs.show_quick` (index.json, the version's id index, and only the asked record's bytes,
each checked against its SHA-256), and gives the same dict and the same text as the full
command (`jobs.show`, tested side by side).
Anything else (an older version, --provenance, a citation it cannot find, --help, a
damaged file) returns None, and the full command answers with its messages and exit
codes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from pipeline.jobs.show_quick import Fallback, shown_json

GLOBAL = ("--corpus", "--cache", "--sources")


class _Arguments(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # never print: the full command will
        raise Fallback(message)


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


def try_quick(argv: list[str]) -> int | None:
    """Answer `show` on the plain path and return its exit code, or None to fall back."""
    if "show" not in argv or any(a.startswith("-h") or a == "--help" for a in argv):
        return None
    try:
        args = _parser().parse_args(argv)
    except Fallback:  # an option this path does not know: the full command parses it
        return None
    if args.command != "show":
        return None
    root = Path(args.corpus or os.environ.get("RULESCORPUS_CORPUS", "corpus"))
    try:
        data = shown_json(root, args.citation, args.doc, args.version)
    except (Fallback, OSError, ValueError, KeyError, TypeError):
        return None
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        from pipeline.cli.show_text import format_shown

        sys.stdout.write(format_shown(data))
    return 0
