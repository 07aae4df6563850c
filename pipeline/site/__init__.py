"""The corpus as a static website: a page per rule, its history, what changed, the bytes
it came from, Atom feeds and a search that needs no server (`site.build.build_site`).
Reads through `pipeline.corpus`; the HTML report renders through this package's templates
(`site.render`) without loading the builder."""
