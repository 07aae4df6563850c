"""`rulescorpus verify` and `accept`: prove the stored corpus is what its bytes say.

verify re-hashes every file index.json names (versions, alias tables,
provenance, diffs, renumbering maps) and every cached blob against its name,
checks each version's renditions against the lock, and with --reproduce
re-parses the blobs and compares the JSON byte for byte.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from pipeline.errors import (
    EXIT_OK,
    EXIT_VERIFY,
    HashMismatch,
    NotFound,
    RulesCorpusError,
    StoreError,
    UsageError,
)
from pipeline.jobs.context import Context
from pipeline.jobs.outcomes import RunSummary
from pipeline.jobs.publish import Candidate
from pipeline.jobs.published import check_attestations, check_published_hashes
from pipeline.jobs.versions import add_version
from pipeline.models.index import DiffEntry, VersionEntry
from pipeline.models.outcomes import Outcome
from pipeline.models.records import Document, Rule
from pipeline.models.sources import FetchResult, Pin
from pipeline.runner.families import engine_neutral
from pipeline.runner.request import ParseRequest, request_for
from pipeline.runner.sandbox import parse_isolated
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus
from pipeline.store.ids import build_id_index
from pipeline.store.ordering import order_problems


def request_of(
    ctx: Context, stored: Document, family: str, rendition: str, what: str
) -> ParseRequest:
    """The request a stored version was parsed with: its registry entry's options and
    scheme (the document's source of that rendition and family), else a bare request. The
    stored version is only a fallback (the text export states none)."""
    source = next(
        (
            s
            for s in ctx.registry()
            if (s.document, s.rendition, s.family) == (stored.document, rendition, family)
        ),
        None,
    )
    if source is not None:
        return request_for(source, what=what, version=stored.version)
    return ParseRequest(
        family=family, document=stored.document, rendition=rendition, what=what,
        version=stored.version,
    )  # fmt: skip


def reproduce(ctx: Context, stored: Document, family: str, rendition: str, sha256: str) -> bytes:
    """Re-parse the pinned bytes and give the JSON they produce now (bypassing the parse
    cache is the point of reproducing)."""
    what = f"{stored.document} {stored.version} ({sha256[:12]})"
    request = request_of(ctx, stored, family, rendition, what)
    doc = parse_isolated(ctx.blobs.read(sha256), request, ctx.limits)
    doc = doc.model_copy(update={"source": stored.source, "renditions": stored.renditions})
    return canonical_json(doc)


def _check_version(
    ctx: Context,
    corpus: Corpus,
    document: str,
    family: str,
    item: VersionEntry,
    reproduce_json: bool,
    cross_engine: bool,
) -> tuple[list[str], list[str]]:
    """The version's problems, and its publisher notes (reported, never a problem)."""
    problems: list[str] = []
    try:
        raw = corpus.read_file(item.file, item.sha256)
    except StoreError as exc:
        return [str(exc)], []
    stored = Document.model_validate_json(raw)
    problems.extend(check_files(corpus, [item.aliases, item.provenance]))
    problems.extend(check_id_index(corpus, item, raw))  # re-hashes the id index too
    pins = {(p.rendition, p.version): p for p in corpus.lock().pins if p.document == document}
    for rendition, sha256 in sorted(item.sources.items()):
        pin = pins.get((rendition, item.version))
        if item.status == "published" and (pin is None or pin.sha256 != sha256):
            problems.append(f"{rendition}: lock.json does not pin {sha256} for {item.version}")
        if not ctx.blobs.has(sha256):
            problems.append(
                f"{rendition}: blob {sha256} is not in the cache {ctx.cache_dir}; "
                "run `rulescorpus fetch` or `import` to restore it"
            )
            continue
        try:
            ctx.blobs.check(sha256)
        except HashMismatch as exc:
            problems.append(str(exc))
            continue
        if cross_engine and rendition == "pdf":
            problems.extend(cross_check_engine(ctx, stored, sha256))
            problems.extend(compare_pdf_engines(ctx, stored, sha256))
    primary = stored.source
    if reproduce_json and primary is not None and ctx.blobs.has(primary.sha256):
        # The family that parsed this version (a document's renditions and versions can
        # come from different families: NISEI's PDFs and Null Signal Games' YAML).
        again = reproduce(ctx, stored, stored.parser.family, primary.rendition, primary.sha256)
        if again != raw:
            problems.append(
                f"re-parsing {primary.sha256[:12]} does not reproduce {item.file} "
                "byte for byte (the parser changed, or the output is not deterministic)"
            )
    return problems, [note.message for note in stored.publisher_notes]


def check_id_index(corpus: Corpus, item: VersionEntry, raw: bytes) -> list[str]:
    """The version's id index must be the one its file gives now (`show` trusts its spans),
    and, like every file the index names, hash to the digest its name carries."""
    if item.ids is None:
        return []
    try:
        stored = json.loads(corpus.read_file(item.ids))
    except (StoreError, ValueError) as exc:
        return [str(exc)]
    try:
        fresh = build_id_index(item.file, raw)
    except ValueError as exc:
        return [f"{item.file}: {exc}"]
    if stored != fresh:
        return [f"{item.ids} does not match {item.file}; re-import the document"]
    return []


def check_files(corpus: Corpus, names: list[str | None]) -> list[str]:
    """Each named file re-hashed against the digest its name carries (the alias table,
    provenance, diffs and renumbering maps: every file the index names, not only versions)."""
    problems: list[str] = []
    for name in names:
        if name is None:
            continue
        try:
            corpus.read_file(name)
        except StoreError as exc:
            problems.append(str(exc))
    return problems


def _check_diff(corpus: Corpus, document: str, diff: DiffEntry) -> Outcome:
    names: list[str | None] = [diff.json_file, diff.markdown, diff.html, diff.renumbering]
    problems = check_files(corpus, names)
    return Outcome(
        document=document,
        version=f"{diff.old}..{diff.new}",
        outcome="verified" if not problems else "verify-failed",
        exit_code=EXIT_OK if not problems else EXIT_VERIFY,
        message="\n".join(problems),
    )


def _letters(text: str) -> str:
    """Letters and digits only: what two PDF engines agree on whatever their spacing,
    hyphenation at line ends or quote glyphs."""
    return re.sub(r"[^0-9a-z]", "", unicodedata.normalize("NFKD", text).lower())


def _words(text: str) -> list[str]:
    return re.findall(r"[0-9a-z]+", unicodedata.normalize("NFKD", text).lower())


def cross_check_engine(ctx: Context, stored: Document, sha256: str) -> list[str]:
    """Every record's text must also be found by a second PDF engine (poppler's pdftotext)."""
    from pipeline.extract.poppler import pdftotext

    return cross_check_text(stored, pdftotext(ctx.blobs.read(sha256), what=stored.document))


def compare_pdf_engines(ctx: Context, stored: Document, sha256: str) -> list[str]:
    """The PDF parsed with each of the project's engines (PDFium, pdfplumber) must give the
    same Document; both parses bypass the parse cache, as reproducing must."""
    from pipeline.extract.pdf import ENGINES

    data = ctx.blobs.read(sha256)
    what = f"{stored.document} {stored.version} pdf ({sha256[:12]})"
    request = request_of(ctx, stored, stored.parser.family, "pdf", what)
    docs = {}
    for engine in ENGINES:
        request = replace(request, options={**request.options, "engine": engine})
        # each Document names its engine; all else must agree (families.engine_neutral)
        docs[engine] = canonical_json(engine_neutral(parse_isolated(data, request, ctx.limits)))
    first, *others = ENGINES
    return [
        f"{what}: the {first} and {other} engines give different Documents"
        for other in others
        if docs[other] != docs[first]
    ]


def cross_check_text(stored: Document, other_engine_text: str) -> list[str]:
    haystack = _letters(other_engine_text)

    pages = [Counter(_words(page)) for page in other_engine_text.split("\f")]

    def found(record: Rule) -> bool:
        # Paragraph by paragraph in reading order; where pdftotext reads a table's columns
        # one after the other (and this engine row by row), the words of the record must
        # still all be on its page, as often as the record uses them.
        parts = [_letters(part)[:60] for part in record.text.split("\n")]
        if all(part in haystack for part in parts if len(part) >= 8):
            return True
        first = (record.location.page or 0) - 1
        if not 0 <= first < len(pages):
            return False
        near = sum(pages[first : first + 2], Counter())  # a record may run onto the next page
        words = Counter(w for w in _words(record.text) if len(w) >= 4)
        return all(near[w] >= n for w, n in words.items())

    missing = [r.id for r in stored.records if r.text and not found(r)]
    if not missing:
        return []
    return [
        f"pdftotext does not find the text of {len(missing)} records: " + ", ".join(missing[:20])
    ]


def verify(
    ctx: Context,
    wanted: list[str],
    *,
    reproduce_json: bool = False,
    published: bool = False,
    cross_engine: bool = False,
) -> RunSummary:
    summary = RunSummary("verify")
    corpus = ctx.corpus
    index = corpus.index()
    names = sorted(index.documents)
    if wanted:
        unknown = [w for w in wanted if w not in index.documents]
        if unknown:
            raise NotFound(f"document {', '.join(unknown)}", f"stored: {', '.join(names)}")
        names = wanted
    work = [(document, item) for document in names for item in index.documents[document].versions]

    def check(job: tuple[str, VersionEntry]) -> tuple[list[str], list[str]]:
        document, item = job
        try:
            return _check_version(
                ctx,
                corpus,
                document,
                index.documents[document].family,
                item,
                reproduce_json,
                cross_engine,
            )
        except RulesCorpusError as exc:
            return [str(exc)], []

    # Versions are independent: checked on every core, reported in index order.
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        results = pool.map(check, work)
        for done, ((document, item), (problems, notes)) in enumerate(
            zip(work, results, strict=True)
        ):
            ctx.progress(f"verified {document} {item.version}", done + 1, len(work))
            if published:
                problems.extend(check_published_hashes(ctx, document, item))
            summary.outcomes.append(
                Outcome(
                    document=document,
                    version=item.version,
                    records=item.records or item.rulings,
                    outcome="verified" if not problems else "verify-failed",
                    exit_code=EXIT_OK if not problems else EXIT_VERIFY,
                    message="\n".join(problems),
                    notes=notes,
                )
            )
    for document in names:
        summary.outcomes.extend(
            _check_diff(corpus, document, d) for d in index.documents[document].diffs
        )
        if misordered := order_problems(corpus.reader(), document):
            summary.outcomes.append(
                Outcome(
                    document=document,
                    outcome="verify-failed",
                    exit_code=EXIT_VERIFY,
                    message="\n".join(misordered)
                    + "\nrebuild the corpus from its archive into a new folder: "
                    "`rulescorpus --corpus NEW_FOLDER import ARCHIVE_DIR`",
                )
            )
    if not wanted and index.fetch:
        problems = check_files(corpus, [index.fetch[s] for s in sorted(index.fetch)])
        summary.outcomes.append(
            Outcome(
                document="fetch records",
                records=len(index.fetch),
                outcome="verified" if not problems else "verify-failed",
                exit_code=EXIT_OK if not problems else EXIT_VERIFY,
                message="\n".join(problems),
            )
        )
    if published:
        for document in names:
            summary.outcomes.extend(check_attestations(ctx, document))
    return summary


def accept(ctx: Context, document: str, version: str) -> RunSummary:
    """Publish a version that update staged because its parse had warnings."""
    corpus = ctx.corpus
    summary = RunSummary("accept")
    with ctx.run_lock():
        entry = corpus.document_entry(document)
        item = entry.entry(version)
        if item is None or item.status != "staged":
            raise UsageError(
                f"{document} {version} is not staged; staged versions: "
                + (", ".join(v.version for v in entry.versions if v.status == "staged") or "none")
            )
        doc = corpus.load_document(document, version)
        prov = corpus.reader().provenance(document, version)
        if not prov:
            raise UsageError(f"{document} {version}: the staged version has no provenance file")
        candidate = Candidate(
            document=document,
            family=entry.family,
            title=entry.title,
            doc=doc,
            pins=[Pin.model_validate(p) for p in prov["pins"]],
            fetches=[FetchResult.model_validate(f) for f in prov["fetches"]],
        )
        tx = corpus.transaction()
        # The published entry replaces the staged one; the commit removes the staged files.
        published = add_version(tx, candidate, ctx.renderers)
        tx.commit()
    summary.outcomes.append(
        Outcome(
            document=document,
            version=version,
            records=len(doc.records) or len(doc.rulings),
            outcome="accepted",
            warnings=len(doc.warnings),
            notes=[note.message for note in doc.publisher_notes],
            previous=published.previous,
            changes=dict(published.diff.summary) if published.diff else {},
        )
    )
    return summary
