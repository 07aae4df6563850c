"""Finding a citation as a person writes it, and `show`'s answer, with the json module alone.

`show cr:702.19c`, `show 702.19C --doc mtg/cr`, `show Trample`: the citation is read
by the one citation parser (`diff.citations.parse_citation`), then looked up in the
id index of each document's version. Without `--doc` every document's current id index
is scanned as bytes (no decoding) and only the one that has it is decoded, so the
answer costs the same with or without `--doc`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pipeline.diff.citations import Asked, parse_citation
from pipeline.errors import NotFound, UsageError
from pipeline.lookup.lineage import HistoryStep, Lineages
from pipeline.store.reader import StoredCorpus, StoredVersion

# (the lineage, document, an older version, an id there) -> where that record lives in the
# current version: the renumbering map's typed entry, `corpus.renumbering.lives_now`
LivesNow = Callable[[Lineages, str, str, str], dict[str, Any] | None]


def _pattern(asked: Asked) -> re.Pattern[bytes]:
    """The id index key(s) the citation can be, as the canonical JSON writes them."""
    if asked.ident is not None:
        key = re.escape(asked.ident.encode())
    elif asked.number is not None:
        key = rb"[a-z][\w-]*:" + re.escape(asked.number.encode())
    else:
        key = re.escape(f"glossary:{asked.term}".encode())
    return re.compile(rb'\n    "' + key + rb'": \[')


def ident_in(version: StoredVersion, asked: Asked) -> str | None:
    """The id the citation names in this version, if the version has it."""
    if asked.ident is not None:
        return asked.ident if version.has(asked.ident) else None
    if asked.term is not None:
        ident = f"glossary:{asked.term}"
        return ident if version.has(ident) else None
    suffix = f":{asked.number}"
    found = [i for i in version.ids() if i.endswith(suffix) and ":" not in i[: -len(suffix)]]
    return found[0] if found else None


def _mentions(stored: StoredCorpus, document: str, asked: Asked) -> bool:
    """Whether the document's current version may hold the citation (a byte scan of its id
    index, or the decoded version when it has none)."""
    item = stored.item(document)
    if not item.get("ids"):
        return ident_in(stored.version(document), asked) is not None
    try:  # a hint only: the one that matches is read again, checked, before it is used
        data = (stored.root / item["ids"]).read_bytes()
    except OSError:
        return True  # the checked read says what is wrong with it
    return _pattern(asked).search(data) is not None


def find_document(stored: StoredCorpus, asked: Asked) -> str:
    """The one document whose current version has the citation."""
    found = [
        name
        for name in stored.documents()
        if stored.current(name) is not None
        and _mentions(stored, name, asked)
        and ident_in(stored.version(name), asked) is not None
    ]
    if not found:
        raise NotFound(
            asked.written,
            "no stored document has it in its current version; pass --doc to look in one "
            "document and its older ids",
        )
    if len(found) > 1:
        raise UsageError(f"{asked.written} exists in {', '.join(found)}; pass --doc to choose")
    return found[0]


def resolve(
    stored: StoredCorpus, citation: str, document: str | None, version: str | None
) -> tuple[str, StoredVersion, str, str | None]:
    """(document, version, the id there, the old id it was renumbered from or None)."""
    asked = parse_citation(citation)
    document = document or find_document(stored, asked)
    here = stored.version(document, version)
    ident = ident_in(here, asked)
    if ident is not None:
        return document, here, ident, None
    aliases = stored.aliases(document, here.version)
    old = asked.ident or (f"glossary:{asked.term}" if asked.term else None)
    if old is None:  # a bare number: the alias table's keys carry their prefix
        old = next((k for k in aliases if k.endswith(f":{asked.number}")), None)
    target = aliases.get(old) if old else None
    if target is not None and here.has(target):
        return document, here, target, old
    raise NotFound(
        f"{citation} in {document} {here.version}",
        "check the number, or try `rulescorpus history` for older versions",
    )


def shown_json(
    lineages: Lineages,
    citation: str,
    document: str | None = None,
    version: str | None = None,
    lives_now: LivesNow | None = None,
) -> dict[str, Any]:
    """The dict `show --json` prints: the record, its children, where its bytes came from,
    and for an older version where the rule lives now (`now`, the renumbering command's
    answer for it, which `lives_now` gives). The one lineage answers both "renumbered in"
    and "now". Without `lives_now` only the current version is answered (the json-only
    path leaves an older one to `corpus`)."""
    stored = lineages.stored
    document, here, ident, renumbered_from = resolve(stored, citation, document, version)
    record = here.record(ident)
    assert record is not None  # resolve() found it in this version's id index
    head, entry = here.head, stored.entry(document)
    source = head.get("source") or {}
    current = entry.get("current")
    now = None
    if current is not None and here.version != current:
        if lives_now is None:
            raise UsageError(
                f"{citation} in {document} {here.version}: an older version's answer says "
                "where the rule lives now; read it through pipeline.corpus.open_corpus"
            )
        now = lives_now(lineages, document, here.version, ident)
    return {
        "asked": citation,
        "renumbered_from": renumbered_from,
        "renumbered_in": (
            lineages.renumbered_in(document, renumbered_from, here.version)
            if renumbered_from
            else None
        ),
        "record": record,
        "children": here.children(ident),
        "provenance": {
            "document": document,
            "title": entry.get("title") or head.get("title"),
            "version": here.version,
            "published": head.get("published"),
            "effective": head.get("effective"),
            "citation": ident,
            "url": source.get("url"),
            "sha256": source.get("sha256"),
            "bytes": source.get("bytes"),
            "rendition": source.get("rendition"),
            "renditions": head.get("renditions") or [],
            "parser": head.get("parser"),
            "fetches": list(stored.provenance(document, here.version).get("fetches", [])),
        },
        "now": now,
    }


def history_of(lineages: Lineages, document: str, citation: str) -> list[HistoryStep]:
    """`history`'s answer for a citation as people write it: a bare number takes the
    prefix the newest version gives it."""
    asked = parse_citation(citation)
    ident = asked.ident or (f"glossary:{asked.term}" if asked.term else None)
    if ident is None:
        stored = lineages.stored
        versions = stored.published(document)
        latest = stored.version(document, versions[-1]) if versions else None
        found = ident_in(latest, asked) if latest is not None else None
        ident = found or f"cr:{asked.number}"
    return lineages.history(document, ident)
