"""Find the current file's URL on a landing page (publishers rename files every release).

Pure: page bytes and the page's own URL in, one absolute URL out. Exactly one
distinct link may match; none or several is an error for a person to look at,
never a guess.
"""

from __future__ import annotations

import re
import warnings
from urllib.parse import urldefrag, urljoin

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning

from pipeline.errors import DiscoveryError


def list_links(html: bytes, base_url: str) -> list[str]:
    """Every `<a href>` on the page as an absolute URL, in page order, without duplicates.

    A `<base href>` in the page moves the base as a browser would; fragments are
    dropped because they never change which file is downloaded.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        soup = BeautifulSoup(html, "html.parser")
    base_tag = soup.find("base", href=True)
    if base_tag is not None:
        base_url = urljoin(base_url, str(base_tag["href"]).strip())
    seen: dict[str, None] = {}
    for anchor in soup.find_all("a", href=True):
        href = str(anchor["href"]).strip()
        if not href or href.lower().startswith(("javascript:", "mailto:", "data:")):
            continue
        absolute, _fragment = urldefrag(urljoin(base_url, href))
        seen.setdefault(absolute, None)
    return list(seen)


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
