"""How each family's documents end, so a truncated document is never a clean version.

A download cut short, or a file that stops mid-way, still parses: the rules it
has are rules. What gives it away is its end. Each family states what its
documents end with, as a person who has read them would check it; a document
that ends elsewhere gets an `unexpected-end` warning (and `update` stages it).
MTG's parser already warns when the Glossary or the Credits are missing
(`no-glossary`, `no-credits`). Families whose documents have no fixed last part
(the Riftbound rules end with whichever keyword is last) state none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pipeline.models.records import Document, ParseWarning, WarningCode


@dataclass(frozen=True)
class Ending:
    what: str  # for the warning: "its glossary and acknowledgements"
    present: Callable[[Document], bool]


def _chapter(doc: Document, words: str) -> bool:
    return any(r.parent is None and words in (r.title or "").lower() for r in doc.records)


def _fab(doc: Document) -> bool:
    # The text export has the glossary and acknowledgements inline after chapter 1, and
    # ends with chapter 9, Additional Rules: a cut file loses that chapter first.
    titles = [p.title.lower() for p in doc.back_matter]
    acknowledged = any(t.startswith("acknowledg") for t in titles)
    return bool(doc.glossary) and acknowledged and _chapter(doc, "additional rules")


def _netrunner(doc: Document) -> bool:
    # Every NISEI release ends with its appendices, the Timing Structure Reference among them.
    return _chapter(doc, "timing structure")


ENDINGS: dict[str, Ending] = {
    "fab-cr": Ending("its glossary, acknowledgements and chapter 'Additional Rules'", _fab),
    "netrunner-cr": Ending("its appendix 'Timing Structure Reference'", _netrunner),
}


def check_ending(family: str, doc: Document) -> Document:
    """The document, with an `unexpected-end` warning when it does not end as its family's
    documents end."""
    ending = ENDINGS.get(family)
    if ending is None or ending.present(doc):
        return doc
    warning = ParseWarning(
        code=WarningCode.UNEXPECTED_END,
        message=f"the document does not end with {ending.what}: it may be truncated or "
        "incomplete; compare it with the publisher's file",
    )
    return doc.model_copy(update={"warnings": [*doc.warnings, warning]})
