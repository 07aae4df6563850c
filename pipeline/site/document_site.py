"""What the pages of one document share: its current version's records in order, who cites
whom, which glossary terms and rulings cite a rule, where its bytes came from, and its
lineage across stored versions. Read once per document; every page is a view of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from pipeline.corpus import CorpusReader, VersionInfo
from pipeline.corpus.site_queries import Retrieval, version_retrieval
from pipeline.models.records import Document, GlossaryTerm, Rule, Ruling
from pipeline.site import paths
from pipeline.site.dates import version_times
from pipeline.site.lineage import Lineage, paged_records, read_lineage
from pipeline.site.linking import MENTION, Linker, Segment


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
    linker: Linker
    children: dict[str, list[Rule]] = field(default_factory=dict)
    cited_by: dict[str, list[Rule]] = field(default_factory=dict)
    glossary_citing: dict[str, list[GlossaryTerm]] = field(default_factory=dict)
    rulings_citing: dict[str, list[tuple[str, Ruling]]] = field(default_factory=dict)
    times: dict[str, str] = field(default_factory=dict)  # version -> when it came out
    stated: dict[str, str] = field(default_factory=dict)  # version -> the date it states
    card_names: dict[str, str] = field(default_factory=dict)  # a ruling's card slug -> name
    built: dict[str, str] = field(default_factory=dict)  # the site's documents -> titles

    @property
    def version(self) -> str:
        return self.info.version

    def segments(self, text: str, references: list[str]) -> list[Segment]:
        """The text, each cited rule's number in it a link to that rule's page."""
        return self.linker.segments(text, references)


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
    lineage = read_lineage(reader, document)
    site = DocumentSite(
        id=document,
        title=reader.document_info(document).title or doc.title or document,
        info=info,
        doc=doc,
        retrieval=version_retrieval(reader, document, info.version),
        lineage=lineage,
        rules=rules,
        by_id={r.id: r for r in rules},
        position={r.id: i for i, r in enumerate(rules)},
        times=version_times(reader, document, lineage.versions),
        stated={
            v.version: d for v in reader.versions(document) if (d := v.effective or v.published)
        },
        linker=Linker({r.id: r.number for r in rules}, partial(paths.rule_page, document)),
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
        named = {m.group(1) for t in texts if t for m in MENTION.finditer(t)}
        for number in sorted(named):
            if number in by_number:
                site.rulings_citing.setdefault(by_number[number], []).append((source, ruling))
    return site
