"""`show`, `history` and `search` in the time Python takes to start: the common case read with
the json module alone.

A rules bot or a judge asks `show cr:702.19c --doc mtg/cr` many times a day; loading
typer, rich, pydantic and the models costs ten times what the answer does. This path
answers the plain case (the current version, text or --json) through `lookup`, the read
side's own json-only path over the one reader (`store.reader`: index.json, the
version's id index, and only the asked record's bytes, each checked against its
SHA-256): the same dict the full command prints, built by the same code.
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
from typing import Any, NoReturn


class Fallback(Exception):
    """This request is not the plain case: the full command answers it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise Fallback(message)  # the full command says what is wrong


def read_request(argv: list[str]) -> argparse.Namespace:
    """`[GLOBAL OPTIONS] COMMAND WORDS... [--doc D] [--version V] [--limit N] [--json]`, in
    any order; anything else raises Fallback."""
    parser = _Parser(add_help=False, allow_abbrev=False)
    for name in ("--corpus", "--cache", "--sources", "--doc", "--version"):
        parser.add_argument(name)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("command", choices=("show", "history", "search"))
    parser.add_argument("words", nargs="+")
    return parser.parse_intermixed_args(argv)


def try_quick(argv: list[str]) -> int | None:
    """Answer `show`, `history` or `search` on the plain path and return the exit code, or
    None to fall back."""
    try:
        args = read_request(argv)
    except Fallback:  # an option this path does not know: the full command parses it
        return None
    root = Path(args.corpus or os.environ.get("RULESCORPUS_CORPUS", "corpus"))
    from pipeline.errors import RulesCorpusError
    from pipeline.lookup import StoredCorpus

    try:
        stored = StoredCorpus(root)
        if args.command == "search":
            return _search(stored, args)
        if args.limit is not None:
            return None  # not an option of show or history: the full command says so
        if args.command == "history":
            return _history(stored, args)
        if args.version is not None and args.doc is not None:
            if args.version != stored.current(args.doc):
                return None  # an older version also says where the rule lives now
        elif args.version is not None:
            return None
        from pipeline.lookup.lineage import Lineages
        from pipeline.lookup.show import shown_json

        data = shown_json(Lineages(stored), _one(args.words), args.doc, args.version)
    except (Fallback, RulesCorpusError, OSError, ValueError, KeyError, TypeError):
        return None
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        from pipeline.cli.show_text import format_shown

        sys.stdout.write(format_shown(data))
    return 0


def _history(stored: Any, args: argparse.Namespace) -> int | None:
    """`history CITATION --doc DOC` from the stored maps and id indexes alone; a map that
    was never stored (the full command diffs the pair) falls back."""
    if args.doc is None or args.version is not None or args.json:
        return None
    from pipeline.cli.show_text import format_history
    from pipeline.lookup.lineage import Lineages
    from pipeline.lookup.show import history_of

    citation = _one(args.words)
    steps = history_of(Lineages(stored), args.doc, citation)
    sys.stdout.write(format_history(citation, args.doc, steps))
    return 0


def _one(words: list[str]) -> str:
    if len(words) != 1:
        raise Fallback  # show and history take one citation: the full command says so
    return words[0]


def _search(stored: Any, args: argparse.Namespace) -> int | None:
    """`search WORDS` over the stored version files; exit 1 when nothing matched."""
    limit = 20 if args.limit is None else args.limit
    if limit < 1:
        return None
    from pipeline.cli.show_text import format_hits
    from pipeline.lookup.search import search_corpus

    query = " ".join(args.words)
    hits = search_corpus(stored, query, document=args.doc, version=args.version, limit=limit)
    if args.json:
        data = {"query": query, "hits": [h.as_dict() for h in hits]}
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        sys.stdout.write(format_hits(query, hits))
    return 0 if hits else 1
