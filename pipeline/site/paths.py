"""Where each page of the site lives, and the relative link from one page to another.

Every link is relative and ends in `index.html`, so the site works opened straight from
disk (`file://`) as well as hosted under any path of any server.
"""

from __future__ import annotations

import hashlib
import posixpath
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
# File systems refuse a name over 255 bytes: a longer number keeps its start and gains a
# digest of the whole, so two long numbers never share a folder.
MAX_SLUG = 120
_KEPT = MAX_SLUG - 13


def number_slug(number: str) -> str:
    """A publisher's rule number as a folder name: `702.19c` stays `702.19c`; characters a
    file system or URL would misread become `-`, and no name starts or ends with a dot."""
    slug = _UNSAFE.sub("-", number).strip(".-") or "-"
    if len(slug) > MAX_SLUG:
        digest = hashlib.sha256(number.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        slug = f"{slug[:_KEPT].rstrip('.-')}-{digest}"
    return slug


def home_page() -> str:
    return "index.html"


def search_page() -> str:
    return "search/index.html"


def game_page(game: str) -> str:
    return f"{number_slug(game)}/index.html"


def document_page(document: str) -> str:
    return f"{document}/index.html"


def rule_page(document: str, number: str) -> str:
    return f"{document}/{number_slug(number)}/index.html"


def old_number_page(document: str, version: str, number: str) -> str:
    return f"{document}/v/{number_slug(version)}/{number_slug(number)}/index.html"


def version_page(document: str, version: str) -> str:
    return f"{document}/v/{number_slug(version)}/index.html"


def ruling_page(document: str, ruling_id: str) -> str:
    return f"{document}/rulings/{number_slug(ruling_id.partition(':')[2] or ruling_id)}/index.html"


def changes_page(document: str, version: str) -> str:
    return f"{document}/changes/{number_slug(version)}/index.html"


def feed_file(document: str) -> str:
    return f"{document}/feed.atom"


def glossary_anchor(term_id: str) -> str:
    """The contents page's anchor of a glossary term (`glossary:absorb` -> `glossary-absorb`)."""
    return "glossary-" + number_slug(term_id.partition(":")[2] or term_id)


def relative(from_page: str, to_page: str) -> str:
    """The link from one page of the site to another (both paths relative to OUT)."""
    start = posixpath.dirname(from_page) or "."
    return posixpath.relpath(to_page, start)
