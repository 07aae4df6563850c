"""A release that loses a rule never publishes in silence: `update` stages a version whose
parse has an `unaccounted-number` warning (exit 40), and publishes the clean one before it.
The documents are served on 127.0.0.1 and read by a `numbered` registry entry."""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_CHANGED, EXIT_PARSE
from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs import update as jobs
from pipeline.jobs.context import Context
from pipeline.store.corpus import Corpus
from tests.support.helpers import registry_file
from tests.support.server import Reply, ScriptedServer

FAST = FetchPolicy(connect_timeout=2, read_timeout=5, deadline=30, retries=1, backoff=0.01)
LEVELS = [
    {"kind": "chapter", "dot": "required", "title": "always"},
    {"kind": "rule", "dot": "required"},
]


def release(version: str, fourth: str) -> bytes:
    lines = [
        "Lantern Rules",
        f"Version {version}",
        "1. Setup",
        "1.1. Each player shuffles their deck.",
        "1.2. Each player draws five cards.",
        "1.3. The first player is chosen at random.",
        fourth,
        "2. Turns",
        "2.1. Players take turns until one of them wins.",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def test_a_release_whose_rule_no_record_accounts_for_is_staged(
    tmp_path: Path, server: ScriptedServer
) -> None:
    registry = registry_file(
        tmp_path,
        [
            {
                "id": "lantern-rules-txt",
                "game": "lantern",
                "document": "lantern/rules",
                "title": "Lantern Rules",
                "family": "numbered",
                "rendition": "txt",
                "primary": True,
                "url": server.url("/rules.txt"),
                "scheme": {"levels": LEVELS, "statement_forms": ["version"]},
            }
        ],
    )
    ctx = Context(
        tmp_path / "corpus",
        tmp_path / "cache",
        sources_file=registry,
        policy=FAST,
        renderers=diff_renderers(),
    )
    clean = release("1.0", "1.4. The player who goes second draws a card.")
    server.serve("/rules.txt", Reply(200, clean, {"ETag": '"1"'}))
    first = jobs.update(ctx, [])
    assert (first.exit_code, first.outcomes[0].outcome) == (EXIT_CHANGED, "new")

    # 1.5 printed without its dot after 1.3 (1.4 gone): no reader takes it for the next
    # rule, and the account names it
    lossy = release("1.1", "1.5 The player who goes second draws a card.")
    server.serve("/rules.txt", Reply(200, lossy, {"ETag": '"2"'}))
    second = jobs.update(ctx, [])
    outcome = second.outcomes[0]
    assert (second.exit_code, outcome.outcome) == (EXIT_PARSE, "staged")
    assert outcome.warnings == 1
    (staged,) = (ctx.corpus_dir / "staged" / "lantern" / "rules").glob("1.1*.json")
    (warning,) = json.loads(staged.read_text(encoding="utf-8"))["warnings"]
    assert warning["code"] == "unaccounted-number"
    assert warning["message"].startswith("1.5 stands at the start of the line on line 7")
    corpus = Corpus(ctx.corpus_dir)
    assert corpus.index().documents["lantern/rules"].current == "1.0"
