"""The parser families' names, without importing a parser.

The registry checks each source's `family` against these when it loads, and every
command loads the registry (`sources` and the read commands too), so the names must
not cost the parsers, the PDF engines and the HTML library that the typed table in
`runner.families` imports. That table is built for exactly these names: it refuses to
import if the two ever differ.

`LINE_NAMES` are the families whose extractor is `families.Lines` (text or PDF lines):
the parse sandbox starts their PDF extraction before it imports the table, and the
table checks this list too.
"""

from __future__ import annotations

NAMES = frozenset(
    {
        "fab-cr", "fab-html", "fab-policy", "faq-html", "fandom-wiki", "headed-sections",
        "mtg-cr", "netrunner-cr", "nrdb-rulings", "nsg-html", "nsg-yaml", "numbered",
        "riftbound-cr", "swu-cr",
    }
)  # fmt: skip
LINE_NAMES = frozenset(
    {
        "fab-cr", "fab-policy", "headed-sections", "mtg-cr", "netrunner-cr", "numbered",
        "riftbound-cr", "swu-cr",
    }
)  # fmt: skip
