"""`make fuzz`: coverage-guided fuzzing (atheris, libFuzzer) of every parser entry point.

One harness per way bytes enter the pipeline's parsers: PDF extraction (both engines),
each family's parser from the bytes of its rendition (text, tar.gz, YAML bundle, FAQ
HTML, wiki JSON, site bundle), each PDF family's parser from the lines a PDF gives,
tar headers, ruling JSON, the archive manifest reader (with its path confinement),
the registry, link discovery and the MediaWiki answers. Seeds are the real files in
../shared/sources (windows of them, so an input parses in milliseconds) and the
project's own fixtures.

A finding is any exception other than the project's own errors (RulesCorpusError
subclasses), any input slower than the per-input timeout (a hang), any MemoryError
within the parse memory budget, any process crash, and for the manifest reader any
path that escapes its folder. `python -m tests.faults.fuzz [HARNESS ...]`, FUZZ_SECONDS per
harness (default 600).
"""
