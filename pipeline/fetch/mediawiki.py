"""MediaWiki API: URLs, response reading, and the wiki's own SHA-1 of each revision. Pure.

A wiki page is pinned to one revision: `action=query&prop=revisions` gives its id,
the SHA-1 the wiki publishes for it and its wikitext; `action=parse&oldid=` gives
the rendered HTML of that same revision. Both are read with `formatversion=2`:

    query.pages[].revisions[].{revid, parentid, sha1, slots.main.content}
    parse.{title, pageid, revid, text}

The two responses become one canonical JSON bundle (the wiki bundle of
pipeline.models.bundles: the bytes the `fandom-wiki` parser reads and the corpus
stores), after the wikitext matched its SHA-1.
HTTP stays outside: `fetch_revision_bundle` takes a `get(url) -> bytes`.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar
from urllib.parse import quote, urlencode

from pipeline.errors import FetchError, HashMismatch, ParseError, VerificationError
from pipeline.models.bundles import WIKI_BUNDLE_FORMAT, build_wiki_bundle

P = ParamSpec("P")
T = TypeVar("T")


def _shape_checked(read: Callable[P, T]) -> Callable[P, T]:
    """A field of an unexpected type or a missing one (a broken or hostile API answer) is
    that answer's ParseError, never a KeyError or AttributeError out of the reader."""

    @functools.wraps(read)
    def checked(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return read(*args, **kwargs)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            what = str(kwargs.get("what", "MediaWiki answer"))
            raise ParseError(
                what, f"not the answer the MediaWiki API gives ({type(exc).__name__}: {exc})"
            ) from exc

    return checked


class RevisionHashMismatch(HashMismatch):
    """The wikitext does not hash to the SHA-1 the wiki publishes for the revision."""

    def __init__(self, what: str, expected: str, got: str) -> None:
        super().__init__(what, expected, got)
        self.message = (
            f"{what}: SHA-1 mismatch with the hash the wiki publishes for this revision\n"
            f"  Expected {expected}\n       Got {got}\n"
            "  the wikitext was altered in transit or by a proxy; do not store it"
        )
        self.args = (self.message,)


@dataclass(frozen=True)
class Revision:
    title: str
    pageid: int
    revid: int
    parentid: int | None
    sha1: str
    wikitext: str


@dataclass(frozen=True)
class RenderedPage:
    title: str
    pageid: int
    revid: int
    html: str


def _url(api: str, params: dict[str, str]) -> str:
    # '|' is sent as %7C, as HTTP clients (requests) would re-quote it anyway.
    return api + "?" + urlencode(params, quote_via=quote)


def revision_query_url(api: str, *, title: str | None = None, revid: int | None = None) -> str:
    """The query for a page's latest revision (by title) or a pinned one (by revid)."""
    if (title is None) == (revid is None):
        raise ValueError("give exactly one of title or revid")
    params = {
        "action": "query",
        "prop": "revisions",
        "rvprop": "ids|sha1|content",
        "rvslots": "main",
        "format": "json",
        "formatversion": "2",
    }
    if title is not None:
        params["titles"] = title
    else:
        params["revids"] = str(revid)
    return _url(api, params)


def parse_url(api: str, revid: int) -> str:
    """The rendered HTML of exactly revision `revid`."""
    return _url(
        api,
        {
            "action": "parse",
            "oldid": str(revid),
            "prop": "text",
            "format": "json",
            "formatversion": "2",
        },
    )


def _load(data: bytes, *, what: str) -> dict[str, Any]:
    try:
        body = json.loads(data)
    except ValueError as exc:
        raise ParseError(what, f"the API answer is not JSON: {exc}") from exc
    if not isinstance(body, dict):
        raise ParseError(what, "the API answer is not a JSON object")
    if "error" in body:
        error = body["error"]
        raise FetchError(
            what,
            "",
            f"the wiki API answered {error.get('code')}: {error.get('info')}",
            "check the page title or revision",
        )
    return body


@_shape_checked
def read_revision_response(data: bytes, *, what: str) -> Revision:
    """The one revision of an `action=query&prop=revisions` answer (formatversion 2, or 1)."""
    body = _load(data, what=what)
    pages = body.get("query", {}).get("pages")
    if isinstance(pages, dict):  # formatversion=1 keys pages by id
        pages = list(pages.values())
    if not isinstance(pages, list) or len(pages) != 1:
        raise ParseError(what, "expected exactly one page in query.pages")
    page = pages[0]
    if page.get("missing") is not None or page.get("invalid") is not None:
        raise FetchError(
            what,
            "",
            f"the wiki has no page {page.get('title')!r}",
            "check the title in the registry",
        )
    revisions = page.get("revisions")
    if not isinstance(revisions, list) or len(revisions) != 1:
        raise ParseError(what, f"expected one revision of {page.get('title')!r}")
    rev = revisions[0]
    if rev.get("sha1hidden") is not None or rev.get("texthidden") is not None:
        raise VerificationError(
            what,
            ["the revision's text or SHA-1 is hidden (revision deleted); pin another revision"],
        )
    main = rev.get("slots", {}).get("main", {})
    content = main.get("content", rev.get("content", rev.get("*")))
    sha1 = rev.get("sha1")
    if not isinstance(content, str) or not isinstance(sha1, str):
        raise ParseError(
            what,
            "the revision carries no wikitext or no sha1 "
            "(ask for rvprop=ids|sha1|content&rvslots=main)",
        )
    return Revision(
        str(page["title"]),
        int(page["pageid"]),
        int(rev["revid"]),
        int(rev["parentid"]) if rev.get("parentid") is not None else None,
        sha1.lower(),
        content,
    )


@_shape_checked
def read_parse_response(data: bytes, *, what: str) -> RenderedPage:
    """The rendered page of an `action=parse` answer (formatversion 2, or 1's {"*": ...})."""
    parsed = _load(data, what=what).get("parse")
    if not isinstance(parsed, dict):
        raise ParseError(what, "the API answer has no 'parse' object")
    text = parsed.get("text")
    if isinstance(text, dict):
        text = text.get("*")
    if not isinstance(text, str) or "revid" not in parsed:
        raise ParseError(what, "the parse answer has no text or no revid (ask for prop=text)")
    return RenderedPage(
        str(parsed.get("title", "")), int(parsed.get("pageid", 0)), int(parsed["revid"]), text
    )


def wikitext_sha1(wikitext: str) -> str:
    return hashlib.sha1(wikitext.encode("utf-8")).hexdigest()


def verify_revision_sha1(wikitext: str, sha1: str, *, what: str = "wiki revision") -> None:
    """Raise RevisionHashMismatch (a HashMismatch) unless SHA-1(UTF-8 wikitext) == sha1."""
    got = wikitext_sha1(wikitext)
    if got != sha1.lower():
        raise RevisionHashMismatch(what, sha1.lower(), got)


def build_bundle(revision: Revision, page: RenderedPage, *, api: str) -> bytes:
    """Canonical JSON of a verified revision and its rendering (sorted keys, UTF-8)."""
    what = f"{revision.title} revision {revision.revid}"
    verify_revision_sha1(revision.wikitext, revision.sha1, what=what)
    if page.revid != revision.revid:
        raise VerificationError(
            what,
            [
                f"the rendered page is revision {page.revid}, not "
                f"{revision.revid}; the page changed between requests"
            ],
        )
    return build_wiki_bundle(
        api=api,
        title=revision.title,
        pageid=revision.pageid,
        revid=revision.revid,
        parentid=revision.parentid,
        sha1=revision.sha1,
        wikitext=revision.wikitext,
        html=page.html,
    )


@_shape_checked
def read_bundle(data: bytes, *, what: str = "wiki bundle") -> dict[str, Any]:
    """A stored bundle, re-verified against its published SHA-1."""
    try:
        bundle = json.loads(data)
    except ValueError as exc:
        raise ParseError(what, f"not a wiki revision bundle: {exc}") from exc
    if not isinstance(bundle, dict) or bundle.get("format") != WIKI_BUNDLE_FORMAT:
        raise ParseError(what, f"not a {WIKI_BUNDLE_FORMAT} bundle")
    verify_revision_sha1(bundle["wikitext"], bundle["sha1"], what=what)
    return bundle


def fetch_revision_bundle(
    get: Callable[[str], bytes], api: str, *, title: str | None = None, revid: int | None = None
) -> bytes:
    """Query the revision (latest by title, or pinned by revid), verify its SHA-1, fetch
    the rendering of that same revision, and return the bundle bytes."""
    what = f"{api} {title or revid}"
    revision = read_revision_response(
        get(revision_query_url(api, title=title, revid=revid)), what=what
    )
    if revid is not None and revision.revid != revid:
        raise VerificationError(what, [f"asked for revision {revid}, got {revision.revid}"])
    verify_revision_sha1(
        revision.wikitext, revision.sha1, what=f"{revision.title} revision {revision.revid}"
    )
    page = read_parse_response(get(parse_url(api, revision.revid)), what=what)
    return build_bundle(revision, page, api=api)
