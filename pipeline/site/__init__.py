"""The corpus as a static website: a page per rule, its history, what changed, the bytes
it came from, Atom feeds and a search that needs no server. Reads through `pipeline.corpus`.

The build is loaded when first asked for: the HTML report renders through this package's
templates (`pipeline.site.render`) without loading the site's builder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.site.build import SiteBuilt, build_site

__all__ = ["SiteBuilt", "build_site"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from pipeline.site import build

        return getattr(build, name)
    raise AttributeError(name)
