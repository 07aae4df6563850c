"""Find the current file's URL on a landing page (publishers rename files every release).

Pure: page bytes and the page's own URL in, one absolute URL out. Exactly one
distinct link may match; none or several is an error for a person to look at,
never a guess.
"""

from __future__ import annotations

import re

from pipeline.errors import DiscoveryError
from pipeline.extract.html import list_links

__all__ = ["find_link", "list_links"]


def find_link(html: bytes, base_url: str, pattern: str, *, source: str) -> str:
    """The one absolute link on the page that `pattern` (re.search) matches.

    Raises DiscoveryError naming the page, the pattern and what was found when
    no link or more than one distinct link matches.
    """
    regex = re.compile(pattern)
    found = [link for link in list_links(html, base_url) if regex.search(link)]
    if len(found) != 1:
        raise DiscoveryError(source, base_url, pattern, found)
    return found[0]
