"""Lines (or files) -> records. `numbered/` is the engine of the numbered rules documents;
one sub-package per game holds only what is that game's own; rulings, FAQ and wiki parsers
sit beside them. Every parser is `parse(content, notes, options) -> Document` (see
runner/families.py), a pure function of its input: never a URL, never a path, no clock.
"""
