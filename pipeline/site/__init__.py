"""The corpus as a static website: a page per rule, its history, what changed, the bytes
it came from, Atom feeds and a search that needs no server. Reads through `pipeline.corpus`.
`pipeline.site.build` builds it; the HTML report renders through this package's templates
(`pipeline.site.render`) without loading the builder."""
