"""The parser families' names, without importing a parser.

The registry checks each source's `family` against these when it loads, and every
command loads the registry (`sources` and the read commands too), so the names must
not cost the parsers, the PDF engines and the HTML library that the typed table in
`runner.families` imports. That table is built for exactly these names: it refuses to
import if the two ever differ.
"""

from __future__ import annotations

NAMES = frozenset(
    {
        "fab-cr", "fab-html", "fab-policy", "faq-html", "fandom-wiki", "headed-sections",
        "mtg-cr", "mtg-policy", "netrunner-cr", "nrdb-rulings", "nsg-html", "nsg-yaml", "numbered",
        "riftbound-cr", "swu-cr",
    }
)  # fmt: skip
