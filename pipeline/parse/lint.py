"""Extraction-artefact lint: text a parse kept that no publisher printed on purpose.

`lint_document(doc)` reads every text of a parsed document (rule titles, texts,
examples, notes and bullets; glossary terms and definitions; front and back
matter; rulings) and returns one ParseWarning per finding, naming the record id,
the field and the exact offending text (marked `«…»`, with a little context).
`find_artefacts(doc)` gives the same findings as data. Both are pure.

`lint_parsed(doc)` is what the parse entry point (`runner.families.parse_bytes`) runs
after every parse: a finding a maintainer has reviewed in the publisher's own bytes, in
this very text of this document (`parse/errata.toml`), is recorded in
`publisher_errata`; an unreviewed one is a publisher note when it is what the publisher
printed (`PUBLISHERS`: quotation marks, brackets, spaces, a `?` the file holds) and a
warning otherwise (so the version is staged for review, as any warning stages it).

The rules themselves are declarative entries of RULES, in `parse/lint_rules.py`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate

from pipeline.models.records import (
    Document,
    Erratum,
    Location,
    ParseWarning,
    PublisherNote,
    WarningCode,
    text_digest,
)
from pipeline.parse.errata import known_artefact
from pipeline.parse.lint_predicates import LintField
from pipeline.parse.lint_rules import EXTRACTED, MESSAGES, PUBLISHERS, RULES, LintRule

__all__ = [
    "EXTRACTED",
    "PUBLISHERS",
    "RULES",
    "Finding",
    "LintField",
    "LintRule",
    "find_artefacts",
    "lint_document",
    "lint_parsed",
]

_CONTEXT = 24


@dataclass(frozen=True)
class Finding:
    """One artefact: which rule, which record and field, the exact text, and its context."""

    code: WarningCode
    record: str
    field: str
    text: str
    excerpt: str
    location: Location | None
    digest: str  # text_digest of the whole text the finding is in

    def describe(self, message: str) -> str:
        return f"{self.record} {self.field}: {message}: {self.excerpt!r}"

    def warning(self, message: str) -> ParseWarning:
        return ParseWarning(code=self.code, message=self.describe(message), location=self.location)

    def note(self, message: str) -> PublisherNote:
        return PublisherNote(
            code=self.code,
            record=self.record,
            field=self.field,
            text=self.text,
            message=self.describe(message),
            digest=self.digest,
            location=self.location,
        )


def _excerpt(text: str, start: int, end: int) -> str:
    """The exact match with some context either side, marked `«…»` so spaces show."""
    before = text[max(0, start - _CONTEXT) : start]
    after = text[end : end + _CONTEXT]
    return f"{before}«{text[start:end]}»{after}"


# --------------------------------------------------------------------------- reading a document


def _fields(doc: Document) -> Iterator[LintField]:
    for rule in doc.records:
        where = rule.location
        if rule.title:
            yield LintField(rule.id, "title", rule.title, where)
        if rule.text:
            yield LintField(rule.id, "text", rule.text, where, title=rule.title)
        for name, parts in (
            ("examples", rule.examples),
            ("notes", rule.notes),
            ("bullets", rule.bullets),
        ):
            for index, part in enumerate(parts):
                yield LintField(rule.id, f"{name}[{index}]", part, where)
    for term in doc.glossary:
        yield LintField(term.id, "term", term.term, term.location)
        yield LintField(term.id, "definition", term.definition, term.location, title=term.term)
    for passage in doc.front_matter + doc.back_matter:
        yield LintField(passage.id, "title", passage.title, passage.location)
        yield LintField(passage.id, "text", passage.text, passage.location)
    for ruling in doc.rulings:
        for name, value in (
            ("question", ruling.question),
            ("answer", ruling.answer),
            ("text", ruling.text),
        ):
            if value:
                yield LintField(ruling.id, name, value, ruling.location)


# Joins the texts for the gates' one search: a noncharacter, which no gate matches.
SEPARATOR = "\uffff"


def _reading_lists(fields: list[LintField], rules: tuple[LintRule, ...]) -> list[list[LintRule]]:
    """For each text, the rules to read it with, in `rules` order: a gated rule only where
    its gate matches, found by one search of all texts joined (some 5,000 texts and a
    dozen rules: a search of each text by each rule was most of the lint's time)."""
    joined = SEPARATOR.join(field.text for field in fields)
    starts = list(accumulate((len(field.text) + 1 for field in fields[:-1]), initial=0))
    # Which texts each rule reads: its gate's or its marks' matches, mapped to texts.
    reads: list[set[int] | None] = []
    by_mark: dict[str, list[set[int]]] = {}
    for rule in rules:
        if rule.gate is None:
            reads.append(None)  # every text
            continue
        found: set[int] = set()
        reads.append(found)
        if rule.marks:
            for mark in rule.marks:
                by_mark.setdefault(mark, []).append(found)
        else:
            found.update(bisect_right(starts, m.start()) - 1 for m in rule.gate.finditer(joined))
    if by_mark:
        any_mark = re.compile(f"[{re.escape(''.join(by_mark))}]")
        for match in any_mark.finditer(joined):
            index = bisect_right(starts, match.start()) - 1
            for marked in by_mark[match.group()]:
                marked.add(index)
    lists: list[list[LintRule]] = [[] for _ in fields]
    for rule, texts in zip(rules, reads, strict=True):
        for index in range(len(fields)) if texts is None else sorted(texts):
            lists[index].append(rule)
    return lists


def find_artefacts(doc: Document, rules: tuple[LintRule, ...] = RULES) -> list[Finding]:
    """Every finding of `rules` in the document's texts, in record order."""
    fields = list(_fields(doc))
    return [
        Finding(
            code=rule.code,
            record=field.record,
            field=field.name,
            text=field.text[start:end],
            excerpt=_excerpt(field.text, start, end),
            location=field.location,
            digest=text_digest(field.text),
        )
        for field, todo in zip(fields, _reading_lists(fields, rules), strict=True)
        for rule in todo
        for start, end in rule.spans(field)
    ]


def lint_document(doc: Document) -> list[ParseWarning]:
    """Every extraction artefact in the document's texts as a warning; [] when clean."""
    return [finding.warning(MESSAGES[finding.code]) for finding in find_artefacts(doc)]


def lint_parsed(doc: Document, *, text_file: bool = False) -> Document:
    """The document with its findings added: reviewed ones (parse/errata.toml: this document,
    the very text reviewed) to `publisher_errata`, the publisher's own (PUBLISHERS') to
    `publisher_notes`, the rest to `warnings`. From a text file (`text_file`), whose bytes
    are the text, what an extraction could have made (EXTRACTED) is the file's own too:
    a note."""
    publishers = PUBLISHERS | EXTRACTED if text_file else PUBLISHERS
    errata: list[Erratum] = []
    notes: list[PublisherNote] = []
    warnings: list[ParseWarning] = []
    for finding in find_artefacts(doc):
        message = MESSAGES[finding.code]
        reason = known_artefact(
            doc.document, finding.code, finding.record, finding.field, finding.text, finding.digest
        )
        if reason is not None:
            errata.append(
                Erratum(
                    record=finding.record,
                    cites=finding.text,
                    reason=reason,
                    location=finding.location,
                    code=str(finding.code),
                    field=finding.field,
                    digest=finding.digest,
                )
            )
        elif finding.code in publishers:
            notes.append(finding.note(message))
        else:
            warnings.append(finding.warning(message))
    if not errata and not warnings and not notes:
        return doc
    return doc.model_copy(
        update={
            "warnings": [*doc.warnings, *warnings],
            "publisher_errata": [*doc.publisher_errata, *errata],
            "publisher_notes": [*doc.publisher_notes, *notes],
        }
    )
