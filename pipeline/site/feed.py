"""A document's Atom feed (RFC 4287): one entry per stored version, newest first, with its
change summary, so a feed reader follows a game's rules updates.

Ids are `urn:uuid:` names derived from the document and version (the same corpus gives
the same feed); links are absolute under `--base-url`, relative to the feed otherwise.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from pipeline.corpus import CorpusReader
from pipeline.site import paths
from pipeline.site.document_site import DocumentSite
from pipeline.site.wording import counts_in_words

_NAMESPACE = uuid.UUID("6f1c8d3e-5a0b-4c47-9a51-2f3e0b7d9c11")
_EPOCH = "1970-01-01T00:00:00Z"
# What XML 1.0 forbids in a document (C0 controls but tab, line feed and carriage return;
# lone surrogates; U+FFFE and U+FFFF): a feed holding one is not XML at all.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """Text a feed may hold: each character XML 1.0 forbids becomes U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def atom_id(*parts: str) -> str:
    return uuid.uuid5(_NAMESPACE, "/".join(parts)).urn


def _href(base_url: str | None, feed: str, page: str) -> str:
    if base_url:
        return xml_text(base_url.rstrip("/") + "/" + page)
    return paths.relative(feed, page)


def feed_context(reader: CorpusReader, site: DocumentSite, base_url: str | None) -> dict[str, Any]:
    feed = paths.feed_file(site.id)
    lineage = site.lineage
    entries = []
    times = site.times
    for at, version in enumerate(lineage.versions):
        diff = lineage.diffs.get(version)
        if diff is not None:
            summary = f"Changes from {diff.old_version}: " + counts_in_words(diff.summary)
            page = paths.changes_page(site.id, version)
        else:
            summary = "The first stored version." if at == 0 else "Stored; no diff kept."
            page = paths.document_page(site.id)
        entries.append(
            {
                "id": atom_id(site.id, version),
                "title": xml_text(f"{site.title} {version}"),
                "updated": times[version],
                "href": _href(base_url, feed, page),
                "summary": xml_text(summary),
            }
        )
    entries.reverse()
    return {
        "id": atom_id(site.id),
        "title": xml_text(f"{site.title}: changes"),
        "updated": max((e["updated"] for e in entries), default=_EPOCH),
        "author": xml_text(site.title),
        "self_href": _href(base_url, feed, feed),
        "alternate_href": _href(base_url, feed, paths.document_page(site.id)),
        "entries": entries,
    }
