"""The order of a document's versions as what they state, and the check that a stored
corpus keeps it (its current version the newest, its diffs running forwards)."""

from __future__ import annotations

import re

from pipeline.errors import MisorderedCorpus
from pipeline.store.reader import StoredCorpus

_COMPACT_DATE = re.compile(r"(\d{4})(\d{2})(\d{2})")


def version_key(version: str) -> tuple[tuple[int, str], ...]:
    """The order of versions as what they state: numbers compared as numbers ('2.10.1' after
    '2.9', '1.4' before '22.12'), dates as dates ('2025-06-02' before '2025-10-01'). A date
    written without separators ('20030315', an archive's label) is the same date, so such
    a label can never sort after a later date written in full."""
    if compact := _COMPACT_DATE.fullmatch(version):
        version = "-".join(compact.groups())
    return tuple(
        (int(part), "") if part.isdigit() else (-1, part)
        for part in re.findall(r"\d+|[^\d.\-]+", version)
    )


def order_problems(corpus: StoredCorpus, document: str) -> list[str]:
    """What is wrong with a document's stored order, read by what its versions state: a
    current version that is not the newest, a diff that runs backwards. A corpus written by
    a build that ordered versions by an archive's labels has both."""
    problems: list[str] = []
    published = corpus.published(document)
    newest = max(published, key=version_key) if published else None
    current = corpus.current(document)
    if newest is not None and current is not None and version_key(current) < version_key(newest):
        problems.append(f"{document}: the current version is {current}, not {newest}")
    for diff in corpus.entry(document).get("diffs") or []:
        if version_key(diff["old"]) >= version_key(diff["new"]):
            problems.append(
                f"{document}: a stored diff runs from {diff['old']} back to {diff['new']}"
            )
    return problems


def check_order(corpus: StoredCorpus) -> None:
    """Refuse (exit 2) a corpus whose stored order contradicts what its versions state."""
    problems = [p for name in corpus.documents() for p in order_problems(corpus, name)]
    if problems:
        raise MisorderedCorpus(str(corpus.root), problems)
