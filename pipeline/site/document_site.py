"""What the pages of one document share: its current version's records in order, who cites
whom, which glossary terms and rulings cite a rule, where its bytes came from, and its
lineage across stored versions. Read once per document; every page is a view of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.corpus import CorpusReader, VersionInfo
from pipeline.corpus.site_queries import Retrieval, version_retrieval
from pipeline.models.records import Document, GlossaryTerm, Rule, Ruling
from pipeline.site import paths
from pipeline.site.lineage import Lineage, paged_records, read_lineage

# How a ruling or FAQ answer names a rule to its reader: "rule 702.19c", "rules 603.2",
# "see rule 1.1.a." (a sentence's full stop is not part of the number). A number the
# document does not have is no citation and is dropped.
_RULE_MENTION = re.compile(r"\brules?\s+(\d+(?:\.?[0-9a-z]+)*)", re.IGNORECASE)


@dataclass(frozen=True)
class Segment:
    """A run of a record's text; `page` is set where the run is a cited rule's number."""

    text: str
    page: str | None = None


@dataclass
class DocumentSite:
    id: str
    title: str
    info: VersionInfo
    doc: Document
    retrieval: Retrieval
    lineage: Lineage
    rules: list[Rule]
    by_id: dict[str, Rule]
    position: dict[str, int]
    children: dict[str, list[Rule]] = field(default_factory=dict)
    cited_by: dict[str, list[Rule]] = field(default_factory=dict)
    glossary_citing: dict[str, list[GlossaryTerm]] = field(default_factory=dict)
    rulings_citing: dict[str, list[tuple[str, Ruling]]] = field(default_factory=dict)

    @property
    def version(self) -> str:
        return self.info.version

    def rule_page(self, citation: str) -> str | None:
        rule = self.by_id.get(citation)
        return paths.rule_page(self.id, rule.number) if rule else None

    def segments(self, text: str, references: list[str]) -> list[Segment]:
        """The text, each cited rule's number in it a link to that rule's page."""
        cited = {
            self.by_id[ref].number: self.rule_page(ref)
            for ref in references
            if ref in self.by_id and self.by_id[ref].number
        }
        if not cited or not text:
            return [Segment(text)]
        names = "|".join(re.escape(n) for n in sorted(cited, key=len, reverse=True))
        # A number is cited where it stands alone: not inside a longer number (702.19c in
        # 702.19ca) and not followed by another of its parts.
        pattern = re.compile(rf"(?<![\w.])(?:{names})(?![\w]|\.\w)")
        out: list[Segment] = []
        last = 0
        for match in pattern.finditer(text):
            if match.start() > last:
                out.append(Segment(text[last : match.start()]))
            out.append(Segment(match.group(0), cited[match.group(0)]))
            last = match.end()
        if last < len(text):
            out.append(Segment(text[last:]))
        return out


def read_document_site(
    reader: CorpusReader, document: str, rulings: list[tuple[str, Ruling]]
) -> DocumentSite | None:
    """The shared facts of a document's current published version (None: none published).

    `rulings` are the (document, ruling) pairs of the corpus's other documents of the same
    game; those whose text names a rule of this one by number are listed on its page."""
    info = next((v for v in reader.versions(document) if v.current), None)
    if info is None or info.status != "published":
        return None
    doc = reader.document(document, info.version)
    rules = paged_records(reader, document, info.version)
    site = DocumentSite(
        id=document,
        title=reader.document_info(document).title or doc.title or document,
        info=info,
        doc=doc,
        retrieval=version_retrieval(reader, document, info.version),
        lineage=read_lineage(reader, document),
        rules=rules,
        by_id={r.id: r for r in rules},
        position={r.id: i for i, r in enumerate(rules)},
    )
    for rule in rules:
        if rule.parent in site.by_id:
            site.children.setdefault(rule.parent, []).append(rule)
        for ref in dict.fromkeys(rule.references):
            if ref in site.by_id and ref != rule.id:
                site.cited_by.setdefault(ref, []).append(rule)
    for term in doc.glossary:
        for ref in dict.fromkeys(term.references):
            if ref in site.by_id:
                site.glossary_citing.setdefault(ref, []).append(term)
    by_number = {r.number: r.id for r in rules}
    for source, ruling in rulings:
        texts = (ruling.question, ruling.answer, ruling.text)
        named = {m.group(1) for t in texts if t for m in _RULE_MENTION.finditer(t)}
        for number in sorted(named):
            if number in by_number:
                site.rulings_citing.setdefault(by_number[number], []).append((source, ruling))
    return site
