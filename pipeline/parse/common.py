"""Helpers every parser shares: slugs, warnings, tree and reference checks, counts."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable

from pipeline.models.content import Line
from pipeline.models.records import (
    CountKey,
    Document,
    Erratum,
    Location,
    ParseWarning,
    PublisherNote,
    Rule,
    WarningCode,
    text_digest,
)
from pipeline.models.slugs import slugify as slugify  # the one slug rule; parsers import it here
from pipeline.parse.errata import known_dangling
from pipeline.parse.numbered.layout import mode


def unique_slugs(terms: Iterable[str]) -> list[str]:
    """Slugs made unique in order of appearance (a second 'Attack' becomes 'attack-2')."""
    seen: Counter[str] = Counter()
    out = []
    for term in terms:
        slug = slugify(term)
        seen[slug] += 1
        out.append(slug if seen[slug] == 1 else f"{slug}-{seen[slug]}")
    return out


def baseline(line: Line) -> float:
    """Where a PDF line's text stands: the foot of its characters."""
    return (line.top or 0.0) + (line.size or 0.0)


def leading(lines: list[Line]) -> float | None:
    """The most common step from one baseline down to the next on a page."""
    steps = [
        round(baseline(b) - baseline(a), 1)
        for a, b in itertools.pairwise(lines)
        if a.page == b.page and baseline(b) > baseline(a)
    ]
    return mode(steps)


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


# The warnings that say a rule may be missing or misplaced (its text in another record,
# its page unread, the document cut short).
MAY_LOSE_RULES = frozenset(
    {
        WarningCode.DUPLICATE_ID,
        WarningCode.ORPHAN,
        WarningCode.MISPLACED,
        WarningCode.NUMBERING,
        WarningCode.UNPLACED_TEXT,
        WarningCode.UNACCOUNTED_NUMBER,
        WarningCode.UNLABELLED_PARAGRAPH,
        WarningCode.UNALIGNED_NUMBERS,
        WarningCode.CONTENTS_MISMATCH,
        WarningCode.UNEXPECTED_END,
        WarningCode.PAGE_MISSING,
        WarningCode.ANCHOR_MISMATCH,
        WarningCode.HEADING_LEVEL,
    }
)


def check_document(doc: Document, warnings: list[ParseWarning]) -> Document:
    """The document with `warnings`, then its tree's, then its references to its own ids
    that name nothing in it (a citation of another document, such as the PPG's `trp:6.2`,
    cannot be checked here). Such a citation is the publisher's (a rule since removed or
    renumbered) and a publisher note, unless the parser may have lost the rule: the cited
    number opens a paragraph of some record (the rule read as text), or the parse warns of
    a rule missing or misplaced (`doubt_citations`); then it is a warning. Defects
    reviewed in this very text (parse/errata.toml) are listed as errata instead."""
    known = {r.id for r in doc.records} | {g.id for g in doc.glossary}
    own = {ident.split(":", 1)[0] for ident in known}
    found = [(r.id, "text", r.text, ref, r.location) for r in doc.records for ref in r.references]
    found += [
        (g.id, "definition", g.definition, ref, g.location)
        for g in doc.glossary
        for ref in g.references
    ]
    dangling: list[ParseWarning] = []
    notes: list[PublisherNote] = []
    errata: list[Erratum] = []
    swallowed = _paragraph_openers(doc.records)
    for rid, name, text, ref, loc in found:
        if ref in known or ref.split(":")[0] not in own:
            continue
        message = f"{rid} cites {ref}, which is not in the document"
        digest = text_digest(text)
        if (reason := known_dangling(doc.document, rid, name, ref, digest)) is not None:
            errata.append(
                Erratum(record=rid, cites=ref, reason=reason, location=loc, digest=digest)
            )
        elif ref.split(":", 1)[1] in swallowed:
            message += " (its number opens a paragraph of another record)"
            dangling.append(warn(WarningCode.DANGLING_REFERENCE, message, loc))
        else:
            notes.append(
                PublisherNote(
                    code=WarningCode.DANGLING_REFERENCE,
                    record=rid,
                    field=name,
                    text=ref,
                    message=message,
                    digest=digest,
                    location=loc,
                )
            )
    warnings = [*warnings, *check_tree(doc.records), *dangling]
    return doubt_citations(
        doc.model_copy(
            update={"warnings": warnings, "publisher_errata": errata, "publisher_notes": notes}
        )
    )


def doubt_citations(doc: Document) -> Document:
    """Where the parse warns that a rule may be missing or misplaced (MAY_LOSE_RULES), a
    citation of a rule it did not find may be one it lost: its notes of dangling references
    go back to the warnings. Run again once every check has warned (the parse entry point,
    after the ending check); a document with no such warning is returned as it is."""
    if not any(w.code in MAY_LOSE_RULES for w in doc.warnings):
        return doc
    doubted = [n for n in doc.publisher_notes if n.code == WarningCode.DANGLING_REFERENCE]
    if not doubted:
        return doc
    warnings = [warn(n.code, n.message, n.location) for n in doubted]
    kept = [n for n in doc.publisher_notes if n.code != WarningCode.DANGLING_REFERENCE]
    return doc.model_copy(update={"warnings": [*doc.warnings, *warnings], "publisher_notes": kept})


# A number standing at the start of a paragraph, as a rule's own number stands: `702.19c`,
# `1-2-3` or `4.1.` followed by a space.
_OPENER = re.compile(r"(?m)^(\w+(?:[.-]\w+)*)\.?[ \t]")


def _paragraph_openers(records: list[Rule]) -> set[str]:
    """Every number that opens a paragraph of a record's text, examples or notes."""
    found: set[str] = set()
    for rule in records:
        for text in (rule.text, *rule.examples, *rule.notes):
            found.update(m.group(1) for m in _OPENER.finditer(text))
    return found
