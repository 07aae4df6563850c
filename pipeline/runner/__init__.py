"""Runs a parser on a rendition's bytes: picks the family, runs it in a limited child,
caches the result."""
