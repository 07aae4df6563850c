"""Lines (or files) -> records, one module per rules family.

Contract for a family module (see fab.py for the reference implementation):

    FAMILY = "fab-cr"
    PARSER_VERSION = "1.0"
    def parse(lines: list[Line], *, document: str, rendition: str,
              version: str | None = None) -> Document

Parsers are pure functions of their input: never a URL, never a path, no
clock. `Document.source` is left None; the jobs stage fills it in.
"""
