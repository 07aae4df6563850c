"""`show`, `history` and `search` in the time Python takes to start: the common case read with
the json module alone.

A rules bot or a judge asks `show cr:702.19c --doc mtg/cr` many times a day; loading
typer, rich, pydantic and the models costs ten times what the answer does. This path
answers the plain case (the current version, text or --json) through `corpus.lookup`,
the read side's own json-only path (index.json, the version's id index, and only the
asked record's bytes, each checked against its SHA-256): the same dict the full command
prints, built by the same code.
Anything else (an older version, --provenance, a citation it cannot find, --help, a
damaged file) returns None, and the full command answers with its messages and exit
codes.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

# The options this path reads (with their value, or a flag); anything else falls back.
VALUED = ("--corpus", "--cache", "--sources", "--doc", "--version", "--limit")
FLAGS = ("--json",)


class Fallback(Exception):
    """This request is not the plain case: the full command answers it."""


class Request:
    """The plain request: its command, its words (a citation, or search words) and options.
    Read by hand: argparse and what it loads (gettext, locale, shutil and its compression
    modules) cost `show` a quarter of Python's own start."""

    def __init__(self) -> None:
        self.command = ""
        self.citation: list[str] = []
        self.options: dict[str, str] = {}

    def get(self, name: str) -> str | None:
        return self.options.get(name)

    @property
    def doc(self) -> str | None:
        return self.get("--doc")

    @property
    def version(self) -> str | None:
        return self.get("--version")

    @property
    def json(self) -> bool:
        return "--json" in self.options

    @property
    def limit(self) -> int | None:
        value = self.get("--limit")
        if value is None:
            return None
        try:
            return int(value)
        except ValueError:
            raise Fallback(value) from None  # the full command says what --limit takes


def read_request(argv: list[str]) -> Request:
    """`[GLOBAL OPTIONS] COMMAND WORDS... [--doc D] [--version V] [--limit N] [--json]`, in
    any order, `--name value` or `--name=value`; anything else raises Fallback."""
    request = Request()
    words = iter(argv)
    for word in words:
        if word.startswith("-"):
            name, equals, value = word.partition("=")
            if name in FLAGS and not equals:
                request.options[name] = ""
            elif name in VALUED:
                if not equals:
                    following = next(words, None)
                    if following is None or following.startswith("-"):
                        raise Fallback(word)  # the full command says it needs a value
                    value = following
                request.options[name] = value
            else:
                raise Fallback(word)
        elif not request.command:
            request.command = word
        else:
            request.citation.append(word)
    if not request.citation:
        raise Fallback("no citation")
    return request


def try_quick(argv: list[str]) -> int | None:
    """Answer `show`, `history` or `search` on the plain path and return the exit code, or
    None to fall back."""
    if not {"show", "history", "search"} & set(argv) or any(
        a.startswith("-h") or a == "--help" for a in argv
    ):
        return None
    try:
        args = read_request(argv)
    except Fallback:  # an option this path does not know: the full command parses it
        return None
    if args.command not in ("show", "history", "search"):
        return None
    root = Path(args.get("--corpus") or os.environ.get("RULESCORPUS_CORPUS", "corpus"))
    from pipeline.corpus.stored import StoredCorpus
    from pipeline.errors import RulesCorpusError

    try:
        stored = StoredCorpus(root)
        if args.command == "search":
            return _search(stored, args)
        if args.get("--limit") is not None:
            return None  # not an option of show or history: the full command says so
        if args.command == "history":
            return _history(stored, args)
        if args.version is not None and args.doc is not None:
            if args.version != stored.current(args.doc):
                return None  # an older version also says where the rule lives now
        elif args.version is not None:
            return None
        from pipeline.corpus.lookup import shown_json

        data = shown_json(stored, _one(args.citation), args.doc, args.version)
    except (Fallback, RulesCorpusError, OSError, ValueError, KeyError, TypeError):
        return None
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        from pipeline.cli.show_text import format_shown

        sys.stdout.write(format_shown(data))
    return 0


def _history(stored: Any, args: Request) -> int | None:
    """`history CITATION --doc DOC` from the stored maps and id indexes alone; a map that
    was never stored (the full command diffs the pair) falls back."""
    if args.doc is None or args.version is not None or args.json:
        return None
    from pipeline.cli.show_text import format_history
    from pipeline.corpus.lineage import Lineages
    from pipeline.corpus.lookup import history_of

    citation = _one(args.citation)
    steps = history_of(Lineages(stored), args.doc, citation)
    sys.stdout.write(format_history(citation, args.doc, steps))
    return 0


def _one(words: list[str]) -> str:
    if len(words) != 1:
        raise Fallback  # show and history take one citation: the full command says so
    return words[0]


def _search(stored: Any, args: Request) -> int | None:
    """`search WORDS` over the stored version files; exit 1 when nothing matched."""
    limit = 20 if args.limit is None else args.limit
    if limit < 1:
        return None
    from pipeline.cli.show_text import format_hits
    from pipeline.corpus.search import search_corpus

    query = " ".join(args.citation)
    hits = search_corpus(stored, query, document=args.doc, version=args.version, limit=limit)
    if args.json:
        data = {"query": query, "hits": [h.as_dict() for h in hits]}
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        sys.stdout.write(format_hits(query, hits))
    return 0 if hits else 1
