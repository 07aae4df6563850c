"""The finishing step every numbered parser ends with: drafts -> one checked Document.

It enforces the record contract (README): depth from the parent, resolved references,
duplicate ids, misplaced parents, backward numbers and dangling references warned (except
the publisher's defects reviewed for this very version, recorded instead), the stated
version over the caller's, one set of count keys, each record's line span from its draft.
`place_offsets` adds the character offsets of every span once the extracted lines are
known (the parse entry point, `runner.families.parse_bytes`, calls it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import accumulate, chain
from typing import TypeVar

from pipeline.models.content import Line
from pipeline.models.path_parts import part_problem
from pipeline.models.records import (
    CountKey,
    Document,
    GlossaryTerm,
    Location,
    ParseOptions,
    ParserInfo,
    ParseWarning,
    Passage,
    PublisherChange,
    PublisherNote,
    Rule,
    WarningCode,
)
from pipeline.parse.common import (
    check_document,
    count_records,
    unique_slugs,
    warn,
)
from pipeline.parse.numbered.numbers import Numbering
from pipeline.parse.numbered.records import Draft, Join, paragraphs
from pipeline.parse.numbered.references import References
from pipeline.parse.numbered.statements import read_date

_PARTS = ("examples", "notes", "bullets")
Located = TypeVar("Located", Rule, GlossaryTerm, Passage)
_STATED = ("title", "published", "effective", "front_matter", "back_matter", "publisher_changes")


@dataclass
class Parsed:
    """What a reader made of a document, before the finishing step."""

    drafts: list[Draft]
    title: str | None = None
    stated: str | None = None  # the version the document states (None: states none)
    published: str | None = None
    effective: str | None = None
    missing: str = "the document states no version and none was given"
    glossary: list[tuple[str, list[str], Location]] = field(default_factory=list)
    front_matter: list[Passage] = field(default_factory=list)
    back_matter: list[Passage] = field(default_factory=list)
    publisher_changes: list[PublisherChange] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)
    notes: list[PublisherNote] = field(default_factory=list)  # of the front matter
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Finish:
    """How to finish one family's drafts."""

    family: str
    parser_version: str
    references: References
    join: Join = paragraphs
    order_from: int | None = None  # check that numbers go forward from this level down
    # the prefix of a cited id the document does not have: its companion's (the PPG cites
    # the TRP by number)
    companion: str | None = None


def build_records(drafts: list[Draft], finish: Finish) -> list[Rule]:
    """Records with their depth from their parents and their references resolved."""
    prefix, join = finish.references.scheme.prefix, finish.join
    known = {f"{prefix}:{d.number}" for d in drafts}
    depth: dict[str, int] = {}
    records: list[Rule] = []
    for draft in drafts:
        ident = f"{prefix}:{draft.number}"
        parent = f"{prefix}:{draft.parent}" if draft.parent is not None else None
        depth.setdefault(ident, 1 if parent is None else depth.get(parent, 0) + 1)
        parts = {name: [join(p) for p in getattr(draft, name)] for name in _PARTS}
        text = join(draft.text)
        title = join(draft.title) or None
        # a heading cites too: NISEI's `12.2.1. Corp's Turn (Section 5.6)`
        cited = [title or "", text, *chain(*parts.values())]
        refs = finish.references.find(*cited, known=known, own=ident)
        linked = (f"{prefix}:{n}" for n in draft.cites)
        own = ident if finish.references.scheme.exclude_self else None
        refs = list(dict.fromkeys([*refs, *(r for r in linked if r in known and r != own)]))
        if finish.companion is not None:
            moved = (r if r in known else f"{finish.companion}:{r.split(':', 1)[1]}" for r in refs)
            refs = list(dict.fromkeys(moved))
        fields = {"number": draft.number, "kind": draft.kind, "location": draft.span}
        records.append(
            Rule(id=ident, parent=parent, depth=depth[ident], title=title, text=text,
                 references=refs, highlighted=draft.highlighted, **fields, **parts)
        )  # fmt: skip
    return records


def check_order(
    records: list[Rule], numbering: Numbering, start: int
) -> tuple[list[ParseWarning], int]:
    """Numbers that go backwards or use a skipped letter, and the count of forward gaps (the
    publisher's, as MTG 20230414 numbering 712.3d right after 712.3: kept, counted)."""
    warnings: list[ParseWarning] = []
    gaps = 0
    last: dict[str | None, tuple[str, int]] = {}
    for record in records:
        parts = numbering.segments(record.number) or []
        if len(parts) - 1 < start:
            continue
        level, segment = len(parts) - 1, parts[-1]
        if numbering.levels[level].segment == "letter" and segment not in numbering.alphabet:
            message = f"{record.number} uses a letter the numbering skips"
            warnings.append(warn(WarningCode.NUMBERING, message, record.location))
            continue
        position, previous = numbering.ordinal(level, segment), last.get(record.parent)
        expected = previous[1] + 1 if previous else 1
        if previous and position < expected:
            message = f"{record.number} follows {previous[0]}"
            warnings.append(warn(WarningCode.NUMBERING, message, record.location))
        gaps += position > expected
        last[record.parent] = (record.number, position)
    return warnings, gaps


def settle_version(parsed: Parsed, expected: str | None) -> tuple[str | None, list[ParseWarning]]:
    """The stated version wins over the caller's (warned when they differ; `20251114` and
    `2025-11-14` do not); the caller's stands in when none is stated. A stated version
    that cannot name a file (`../x`, a slash) is warned about and never used."""
    stated = parsed.stated
    unsafe = part_problem(stated, "version") if stated is not None else None
    if unsafe is not None:
        message = f"the document states version {stated!r}, which is not taken: {unsafe}"
        version, more = settle_version(replace(parsed, stated=None), expected)
        return version, [warn(WarningCode.NO_VERSION, message), *more]
    day = read_date(expected) if expected is not None else None
    same_date = day is not None and stated is not None and day == read_date(stated)
    if stated is not None and expected is not None and expected != stated and not same_date:
        message = f"expected version {expected}, but the document states {stated}"
        return stated, [warn(WarningCode.VERSION_MISMATCH, message)]
    if stated is None and expected is None:
        return None, [warn(WarningCode.NO_VERSION, f"{parsed.missing}; version unknown")]
    return stated or expected, []


def finish_document(
    parsed: Parsed, finish: Finish, options: ParseOptions, notes: dict[str, int] | None
) -> Document:
    """The Document of a reader's drafts, checked, counted and with its errata recorded."""
    version, warnings = settle_version(parsed, options.version)
    records = build_records(parsed.drafts, finish)
    warnings += parsed.warnings
    counts = count_records(records)
    if finish.order_from is not None:
        order, gaps = check_order(records, finish.references.numbering, finish.order_from)
        warnings += order
        counts.update({CountKey.NUMBERING_GAPS: gaps} if gaps else {})
    known = {r.id for r in records}
    glossary = [
        GlossaryTerm(
            id=f"glossary:{slug}", term=term, definition="\n".join(lines), location=location,
            references=finish.references.find(*lines, known=known),
        )
        for slug, (term, lines, location) in zip(
            unique_slugs(term for term, _, _ in parsed.glossary), parsed.glossary, strict=True
        )
    ]  # fmt: skip
    counts[CountKey.GLOSSARY] = len(glossary)
    counts[CountKey.EXAMPLES] = sum(len(r.examples) for r in records)
    counts.update(parsed.counts)
    doc = Document(
        game=options.document.split("/")[0], document=options.document, version=version,
        parser=ParserInfo(family=finish.family, version=finish.parser_version),
        records=records, glossary=glossary, extraction=dict(sorted((notes or {}).items())),
        counts=counts, **{name: getattr(parsed, name) for name in _STATED},
    )  # fmt: skip
    doc = check_document(doc, warnings)
    if parsed.notes:
        doc = doc.model_copy(update={"publisher_notes": [*parsed.notes, *doc.publisher_notes]})
    return doc


def place_offsets(doc: Document, lines: list[Line]) -> Document:
    """The document with `char_start` and `char_end` set on every spanned location of its
    records, glossary terms and passages: the offsets, in the lines' texts joined with
    "\n", of the span's first visible character (leading spaces and form feeds skipped)
    and of the end of its last line. Locations without a span are left as they are."""
    texts = {line.line: line.text for line in lines}
    offsets = accumulate((len(line.text) + 1 for line in lines), initial=0)
    starts = {line.line: offset for line, offset in zip(lines, offsets, strict=False)}

    def place(at: Location) -> Location:
        last = at.end_line
        if last is None or at.line not in starts or last not in starts:
            return at
        first_text = texts[at.line]
        start = starts[at.line] + len(first_text) - len(first_text.lstrip(" \t\f"))
        end = max(start, starts[last] + len(texts[last].rstrip()))
        return at.model_copy(update={"char_start": start, "char_end": end})

    def placed(items: list[Located]) -> list[Located]:
        return [item.model_copy(update={"location": place(item.location)}) for item in items]

    spanned = ("records", "glossary", "front_matter", "back_matter")
    update = {name: placed(getattr(doc, name)) for name in spanned}
    update["records"] = split_run_in(update["records"], "\n".join(line.text for line in lines))
    return doc.model_copy(update=update)


def split_run_in(records: list[Located], text: str) -> list[Located]:
    """Records in document order, a rule run into the line of the one before (`… below:
    1301.1a. If only …`) starting at its own number, the one before ending there: line
    spans alone would give both the whole line."""
    out = list(records)
    for n in range(1, len(out)):
        before, after = out[n - 1].location, out[n].location
        number = getattr(out[n], "number", None)
        if (
            not number
            or before.char_start is None
            or before.char_end is None
            or after.char_start is None
            or after.char_start >= before.char_end
        ):
            continue
        pattern = re.compile(rf"(?<=\s){re.escape(number)}(?=[.\s])")
        found = pattern.search(text, before.char_start + 1, before.char_end)
        if found is None:
            continue
        at = found.start()
        end = before.char_start + len(text[before.char_start : at].rstrip())
        out[n - 1] = out[n - 1].model_copy(
            update={"location": before.model_copy(update={"char_end": end})}
        )
        out[n] = out[n].model_copy(update={"location": after.model_copy(update={"char_start": at})})
    return out
