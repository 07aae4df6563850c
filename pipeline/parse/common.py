"""Helpers every family parser shares: slugs, warnings, reference resolution, counts."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from pipeline.models import Document, Erratum, Location, ParseWarning, Rule
from pipeline.parse.errata import known_dangling


def slugify(text: str) -> str:
    """Stable ASCII slug for glossary ids: 'Ability Keyword' -> 'ability-keyword'."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", norm.lower()).strip("-")
    return slug or "term"


def unique_slugs(terms: Iterable[str]) -> list[str]:
    """Slugs made unique in order of appearance (a second 'Attack' becomes 'attack-2')."""
    seen: Counter[str] = Counter()
    out = []
    for term in terms:
        slug = slugify(term)
        seen[slug] += 1
        out.append(slug if seen[slug] == 1 else f"{slug}-{seen[slug]}")
    return out


def warn(code: str, message: str, line: int | None = None, page: int | None = None) -> ParseWarning:
    location = Location(line=line, page=page) if line is not None else None
    return ParseWarning(code=code, message=message, location=location)


def check_references(doc: Document) -> list[ParseWarning]:
    """A warning for every reference that names no record or glossary term in the document.

    References listed in parse/errata.py as the publisher's own reviewed defects
    are not warnings; `record_errata` puts them in `Document.publisher_errata`.
    """
    return [
        warn(
            "dangling-reference",
            f"{rid} cites {ref}, which is not in the document",
            loc.line,
            loc.page,
        )
        for rid, ref, loc in _dangling(doc)
        if known_dangling(doc.document, rid, ref) is None
    ]


def record_errata(doc: Document) -> Document:
    """The document with its known publisher defects listed (see parse/errata.py)."""
    errata = [
        Erratum(record=rid, cites=ref, reason=reason, location=loc)
        for rid, ref, loc in _dangling(doc)
        if (reason := known_dangling(doc.document, rid, ref)) is not None
    ]
    return doc.model_copy(update={"publisher_errata": errata}) if errata else doc


def _dangling(doc: Document) -> list[tuple[str, str, Location]]:
    known = {r.id for r in doc.records} | {g.id for g in doc.glossary}
    found = [(r.id, ref, r.location) for r in doc.records for ref in r.references]
    found += [(g.id, ref, g.location) for g in doc.glossary for ref in g.references]
    return [(rid, ref, loc) for rid, ref, loc in found if ref not in known]


def count_records(records: list[Rule]) -> dict[str, int]:
    """Counts per record kind plus the total, for Document.counts."""
    counts = Counter(r.kind for r in records)
    result = {f"{kind}s": n for kind, n in sorted(counts.items())}
    result["records"] = len(records)
    return result


def check_tree(records: list[Rule]) -> list[ParseWarning]:
    """Duplicate ids and parents that do not exist are warnings, never silent."""
    warnings = []
    seen: set[str] = set()
    for rule in records:
        if rule.id in seen:
            warnings.append(
                warn(
                    "duplicate-id",
                    f"{rule.id} appears more than once",
                    rule.location.line,
                    rule.location.page,
                )
            )
        seen.add(rule.id)
        if rule.parent is not None and rule.parent not in seen:
            warnings.append(
                warn(
                    "orphan",
                    f"{rule.id} has parent {rule.parent}, not seen before it",
                    rule.location.line,
                    rule.location.page,
                )
            )
    return warnings
