"""The bytes a fetch of several answers is stored as: one bundle blob, built by fetch/ and
read back by extract/. The format is the contract between the two, so it is written
once, here, where both may import it (DESIGN: extract imports only models and errors).
Pure: bytes and dicts in and out, no I/O.

A **site bundle** holds the pages of a multi-page rules site, canonical JSON

    {"format": "html-site/1", "index": URL,
     "pages": [{"url": URL, "sha256": hex, "bytes": n, "html": text}, ...]}

with the pages sorted by URL and each page's SHA-256 that of its own bytes (the UTF-8
of `html`), so the bundle proves which bytes every page had.

A **wiki bundle** holds one MediaWiki revision (its wikitext and the wiki's SHA-1 of
it) and the rendering of that same revision; pipeline.fetch.mediawiki checks the two
answers before building it.

A bundle that cannot be built or read raises BundleError, a ValueError carrying the
problem: the stage that meets it raises its own error naming the source (models
import nothing from pipeline.errors).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag, urlsplit, urlunsplit

SITE_BUNDLE_FORMAT = "html-site/1"
WIKI_BUNDLE_FORMAT = "mediawiki-revision/1"
# What a reader of a wiki bundle takes from it (the rest is provenance).
WIKI_BUNDLE_FIELDS = ("title", "revid", "sha1", "wikitext", "html")


class BundleError(ValueError):
    """A bundle that cannot be built or read; `problem` says why, for a stage's error."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


@dataclass(frozen=True)
class SiteBundle:
    """A site bundle read back: its index page's URL and every page's HTML by URL, each
    page's hash checked."""

    index: str
    pages: dict[str, str]


def _canonical_json(value: dict[str, Any]) -> bytes:
    return (json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode()


def canonical_page_url(url: str) -> str:
    """A page's URL without fragment or query; a folder URL names its `index.html` (MkDocs
    serves `01-game-concepts/` from `01-game-concepts/index.html`)."""
    url = urldefrag(url)[0]
    parts = urlsplit(url)
    path = parts.path or "/"
    if path.endswith("/"):
        path += "index.html"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def build_site_bundle(index_url: str, pages: Mapping[str, bytes]) -> bytes:
    """Canonical JSON of a site's pages (URL -> bytes); the index page must be among them."""
    index = canonical_page_url(index_url)
    entries: dict[str, dict[str, Any]] = {}
    for url, data in pages.items():
        key = canonical_page_url(url)
        try:
            html = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BundleError(f"page {url} is not UTF-8 ({exc}); cannot bundle it") from exc
        entries[key] = {
            "url": key,
            "sha256": hashlib.sha256(data).hexdigest(),
            "bytes": len(data),
            "html": html,
        }
    if index not in entries:
        raise BundleError(f"the index page {index} is not among the pages to bundle")
    return _canonical_json(
        {
            "format": SITE_BUNDLE_FORMAT,
            "index": index,
            "pages": [entries[key] for key in sorted(entries)],
        }
    )


def read_site_bundle(data: bytes) -> SiteBundle:
    """A site bundle's index and pages, every page re-hashed against the bundle's digest."""
    try:
        bundle = json.loads(data)
    except ValueError as exc:
        raise BundleError(f"not a site bundle (JSON): {exc}") from exc
    if not isinstance(bundle, dict) or bundle.get("format") != SITE_BUNDLE_FORMAT:
        raise BundleError(f"not a {SITE_BUNDLE_FORMAT} bundle; build it with build_site_bundle")
    entries, index = bundle.get("pages"), bundle.get("index")
    if not isinstance(entries, list) or not isinstance(index, str):
        raise BundleError("the site bundle has no index or no list of pages")
    pages: dict[str, str] = {}
    for number, entry in enumerate(entries, start=1):
        fields = entry if isinstance(entry, dict) else {}
        url, html, digest = (fields.get(key) for key in ("url", "html", "sha256"))
        if not (isinstance(url, str) and isinstance(html, str) and isinstance(digest, str)):
            raise BundleError(
                f"page entry {number} of the site bundle lacks its url, html or sha256"
            )
        got = hashlib.sha256(html.encode("utf-8", "surrogatepass")).hexdigest()
        if got != digest:
            raise BundleError(
                f"page {url} hashes to {got}, the bundle says {digest}; "
                "the bundle was altered after it was built"
            )
        pages[url] = html
    return SiteBundle(index, pages)


def build_wiki_bundle(
    *,
    api: str,
    title: str,
    pageid: int,
    revid: int,
    parentid: int | None,
    sha1: str,
    wikitext: str,
    html: str,
) -> bytes:
    """Canonical JSON of a revision and its rendering (sorted keys, UTF-8); the caller has
    checked the wikitext against `sha1` and that `html` renders revision `revid`."""
    return _canonical_json(
        {
            "format": WIKI_BUNDLE_FORMAT,
            "api": api,
            "title": title,
            "pageid": pageid,
            "revid": revid,
            "parentid": parentid,
            "sha1": sha1,
            "wikitext": wikitext,
            "html": html,
        }
    )
