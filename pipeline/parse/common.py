"""Helpers every parser shares: slugs, warnings, tree and reference checks, counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pipeline.models.records import (
    CountKey,
    Document,
    Erratum,
    Location,
    ParseWarning,
    Rule,
    WarningCode,
)
from pipeline.models.slugs import slugify as slugify  # the one slug rule; parsers import it here
from pipeline.parse.errata import known_dangling


def unique_slugs(terms: Iterable[str]) -> list[str]:
    """Slugs made unique in order of appearance (a second 'Attack' becomes 'attack-2')."""
    seen: Counter[str] = Counter()
    out = []
    for term in terms:
        slug = slugify(term)
        seen[slug] += 1
        out.append(slug if seen[slug] == 1 else f"{slug}-{seen[slug]}")
    return out


def warn(
    code: WarningCode, message: str, where: Location | int | None = None, page: int | None = None
) -> ParseWarning:
    """A warning at a record's location, or at a line (and page) number."""
    if isinstance(where, int):
        where = Location(line=where, page=page)
    return ParseWarning(code=code, message=message, location=where)


def unplaced(text: str, where: Location) -> ParseWarning:
    """Text read where no record is open to take it."""
    message = f"cannot place {text[:80]!r}: no rule is open here"
    return warn(WarningCode.UNPLACED_TEXT, message, where)


def count_records(records: list[Rule]) -> dict[str, int]:
    """Counts per record kind (`chapters`, `rules`, ...) plus the total."""
    counts = Counter(r.kind for r in records)
    return {f"{kind}s": n for kind, n in sorted(counts.items())} | {CountKey.RECORDS: len(records)}


def check_tree(records: list[Rule]) -> list[ParseWarning]:
    """Duplicate ids and parents that do not precede their children are warnings."""
    warnings = []
    seen: set[str] = set()
    for rule in records:
        if rule.id in seen:
            message = f"{rule.id} appears more than once"
            warnings.append(warn(WarningCode.DUPLICATE_ID, message, rule.location))
        seen.add(rule.id)
        if rule.parent is not None and rule.parent not in seen:
            message = f"{rule.id} has parent {rule.parent}, not seen before it"
            warnings.append(warn(WarningCode.ORPHAN, message, rule.location))
    return warnings


def check_document(doc: Document, warnings: list[ParseWarning]) -> Document:
    """The document with `warnings`, then its tree's, then one for every reference to its
    own ids that names nothing in it (a citation of another document, such as the PPG's
    `trp:6.2`, cannot be checked here), except the publisher defects reviewed for this
    version (parse/errata.py), which are listed as its errata instead."""
    known = {r.id for r in doc.records} | {g.id for g in doc.glossary}
    own = {ident.split(":", 1)[0] for ident in known}
    found = [(r.id, ref, r.location) for r in doc.records for ref in r.references]
    found += [(g.id, ref, g.location) for g in doc.glossary for ref in g.references]
    dangling, errata = [], []
    for rid, ref, loc in found:
        if ref in known or ref.split(":")[0] not in own:
            continue
        if (reason := known_dangling(doc.document, doc.version, rid, ref)) is None:
            message = f"{rid} cites {ref}, which is not in the document"
            dangling.append(warn(WarningCode.DANGLING_REFERENCE, message, loc))
        else:
            errata.append(Erratum(record=rid, cites=ref, reason=reason, location=loc))
    warnings = [*warnings, *check_tree(doc.records), *dangling]
    return doc.model_copy(update={"warnings": warnings, "publisher_errata": errata})
