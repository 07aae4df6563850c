"""Known defects in the publishers' own documents, reviewed by a person, version by version.

A reference that names no rule in the same document is a warning. Once a maintainer has
confirmed from the bytes that the defect is the publisher's, it is listed here with the
reason, under the document AND the versions it was reviewed in: it is then recorded in
`Document.publisher_errata` instead of warned, and applies to no other version (a new
release, or a text export of unknown version, is warned again until reviewed). Tests check
that each entry still occurs and that its target is really absent.
"""

from __future__ import annotations

Entries = dict[tuple[str, str], str]  # (record id, cited id) -> reason

_FAB_2_14 = {
    (record, "cr:5.5"): "2.14.0 has no section 5.5 (triggered effects are 6.6; "
    "2.10.1 cited [6.6] here)"
    for record in (
        "cr:1.6.2c",
        "cr:1.8.4",
        "cr:1.9.1",
        "cr:5.4.4c",
        "cr:5.4.6",
        "glossary:trigger-condition",
        "glossary:trigger-event",
        "glossary:triggered-effect",
    )
} | {("glossary:counters", "cr:4.6"): "2.14.0 has no section 4.6 (chapter 4 ends at 4.5)"}

_MTG_MAP = {
    ("glossary:map", "cr:110.10"): "predefined tokens are rule 111.10; the Map entry says "
    "'see rule 110.10' (2024-06-07 onwards)",
}

_NISEI_1_4 = {
    ("cr:4.8.5", "cr:9.1.12a"): "1.4 reorganised section 9; 9.1.12a no longer exists",
    ("cr:6.7.3b", "cr:6.7.5"): "1.4 has no rule 6.7.5",
    ("cr:9.1.6a", "cr:9.5.8"): "1.4 reorganised section 9; 9.5.8 no longer exists",
    ("cr:9.6.13", "cr:9.1.12"): "1.4 reorganised section 9; 9.1.12 no longer exists",
}

# (document, version) -> the defects reviewed in that version
REVIEWED: dict[tuple[str, str], Entries] = {
    ("fab/cr", "2.14.0"): _FAB_2_14,
    **{
        ("mtg/cr", version): _MTG_MAP
        for version in ("2024-06-07", "2025-02-07", "2025-07-25", "2025-11-14")
    },
    ("netrunner/cr", "1.4"): _NISEI_1_4,
}


def known_dangling(document: str, version: str | None, record: str, cited: str) -> str | None:
    """The reviewed reason, when this dangling reference is a known defect of this version."""
    if version is None:
        return None
    return REVIEWED.get((document, version), {}).get((record, cited))
