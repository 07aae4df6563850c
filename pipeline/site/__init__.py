"""The corpus as a static website: a page per rule, its history, what changed, the bytes
it came from, Atom feeds and a search that needs no server. Reads through `pipeline.corpus`."""

from pipeline.site.build import SiteBuilt, build_site

__all__ = ["SiteBuilt", "build_site"]
