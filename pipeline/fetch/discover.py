"""Find what to fetch on the pages a publisher serves: the current file's URL on a
landing page (publishers rename files every release), the pages a rules site's index
lists.

Reading HTML is extract/'s (beautifulsoup4 lives there, DESIGN): fetch/ takes the
readers it needs as `PageReaders`, which jobs wires in, and only decides here. Exactly
one distinct link may match; none or several is an error for a person to look at,
never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from pipeline.errors import DiscoveryError
from pipeline.registry.patterns import use_budget


class ListLinks(Protocol):
    def __call__(self, html: bytes, base_url: str) -> list[str]:
        """Every link on the page as an absolute URL, in page order, without duplicates."""


class ListSitePages(Protocol):
    def __call__(self, index_html: bytes, index_url: str, *, what: str) -> list[str]:
        """The pages a site's index lists, in its order, the index first."""


@dataclass(frozen=True)
class PageReaders:
    """The HTML readers the live backend needs to know what to fetch next
    (pipeline.extract.html.list_links and pipeline.extract.fab_html.list_site_pages)."""

    list_links: ListLinks
    list_site_pages: ListSitePages


def find_link(
    html: bytes, base_url: str, pattern: str, *, source: str, list_links: ListLinks
) -> str:
    """The one absolute link on the page (as `list_links` reads it) that `pattern`
    (re.search) matches.

    Raises DiscoveryError naming the page, the pattern and what was found when
    no link or more than one distinct link matches.
    """
    regex = re.compile(pattern)
    links = list_links(html, base_url)
    with use_budget(source, "discovery.link_pattern", pattern):
        found = [link for link in links if regex.search(link)]
    if len(found) != 1:
        raise DiscoveryError(source, base_url, pattern, found)
    return found[0]
