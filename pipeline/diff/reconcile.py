"""Pure: the publisher's own change list set against the changes a diff found.

A named change is *found* when one of the ids it cites appears in a change of
the diff (old or new side), or a descendant of it does (citing `rule 1.15.4`
covers a change to `1.15.4a`; citing `section 9.8` covers `9.8.3`). When the
citation was written `section X`, a change recorded at an ancestor of X also
counts (a section's rules are sometimes rewritten as one block and the diff
reports the section), but never a top-level chapter: a chapter heading
changing says nothing about one section of it.

`found_not_named` lists the diff's changes no named change covers. Pure
renumberings (same text, new number, perhaps with shifted citations or
typography) are left out: they follow from another change and no publisher
lists them one by one.
"""

from __future__ import annotations

import re

from pipeline.diff.documents import is_renumbering_noise
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff, Reconciliation
from pipeline.models.records import PublisherChange

_SECTION_RE = re.compile(
    r"\bsections?\s+((?:\d+(?:\.\d+)*[a-z]?)(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+)\d+(?:\.\d+)*[a-z]?)*)",
    re.IGNORECASE,
)
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)*[a-z]?")


def is_descendant(child: str, ancestor: str) -> bool:
    """`cr:1.5.4d` and `cr:1.5.4.1` descend from `cr:1.5.4`; `cr:1.5.40` does not."""
    if not child.startswith(ancestor) or child == ancestor:
        return False
    rest = child[len(ancestor) :]
    if rest.startswith("."):
        return True
    # Netrunner appends subrule letters without a dot: 1.5.4 -> 1.5.4d.
    return ancestor[-1].isdigit() and rest[0].isalpha()


def _depth(ident: str) -> int:
    return ident.count(".") + 1


def section_citations(change: PublisherChange) -> set[str]:
    """The cited ids the text introduces with `section`/`sections`."""
    found: set[str] = set()
    for match in _SECTION_RE.finditer(change.text):
        for number in _NUMBER_RE.findall(match.group(1)):
            found.add("cr:" + number)
    return found & set(change.cites)


def covers(cited: str, changed: str, as_section: bool) -> bool:
    """Whether a citation of `cited` accounts for a change recorded at `changed`."""
    if changed == cited or is_descendant(changed, cited):
        return True
    return as_section and _depth(changed) > 1 and is_descendant(cited, changed)


def change_ids(change: Change) -> list[str]:
    """Every id a change touches, old and new side, in a stable order without repeats."""
    ids: list[str] = []
    for ident in [change.old_id, change.new_id, *change.old_ids, *change.new_ids]:
        if ident is not None and ident not in ids:
            ids.append(ident)
    return ids


def reconcile(changes: list[PublisherChange], diff: DocumentDiff) -> Reconciliation:
    """Named changes found and not found in the diff, and diff changes nobody named."""
    touched = [change_ids(c) for c in diff.changes]
    named_found: list[PublisherChange] = []
    named_not_found: list[PublisherChange] = []
    covered: set[int] = set()
    for named in changes:
        sections = section_citations(named)
        hit = False
        for index, ids in enumerate(touched):
            if any(
                covers(cited, ident, cited in sections) for cited in named.cites for ident in ids
            ):
                hit = True
                covered.add(index)
        (named_found if hit else named_not_found).append(named)
    # A follow-on renumbering is nobody's to name. (It was looked for in a list of the
    # others: a pydantic comparison with each, quadratic in the number of changes.)
    found_not_named: dict[str, None] = {}
    for index, change in enumerate(diff.changes):
        if index in covered or is_renumbering_noise(change):
            continue
        primary = change.new_id or change.old_id or next(iter(change_ids(change)), None)
        if primary is not None:
            found_not_named.setdefault(primary)
    return Reconciliation(
        named_not_found=named_not_found,
        found_not_named=list(found_not_named),
        named_found=named_found,
    )
