"""`cite-check`: find rule citations in files (or in the corpus's own rulings), resolve each
against the version it was written for and the current one, and report it as current,
renumbered (with the new id), changed in wording, removed, or never existed.

The version a file was written for is `--as-of`, else the oldest stored version that
has every number the file cites (bare numbers count only when some version has them).
A citation of a number that version lacks is resolved in the nearest version that has
it, and the report says so. `fix` rewrites renumbered citations in place, keeping the
form they were written in (`rule 702.19c` stays `rule 702.19d`); a split, a range or a
weak pairing is left for a person.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from pipeline.cite.files import Protected, TextFile, collect_files, read_text_file, shown
from pipeline.cite.fixes import FileFix
from pipeline.corpus.diffs import load_document
from pipeline.corpus.renumbering import lineages_of, renumbering
from pipeline.diff.citations import Found, find_in_line, rewrite
from pipeline.diff.renumbering import lookup
from pipeline.errors import NotFound, UsageError
from pipeline.lookup import StoredCorpus
from pipeline.models.diffs import RenumberingMap
from pipeline.models.records import Ruling
from pipeline.store.ordering import version_key

Status = Literal["current", "renumbered", "changed", "removed", "never-existed"]
STATUSES: tuple[Status, ...] = ("current", "renumbered", "changed", "removed", "never-existed")
# Bounds that keep memory linear in a file's size and time linear in its lines: citations
# kept per file, and numbers on one line (matching is quadratic in those; prose has few).
MAX_CITATIONS = 100_000
MAX_NUMBERS_PER_LINE = 2_000
_NUMBER = re.compile(r"\d\.\d")


@dataclass
class Cited:
    """One citation and what became of it."""

    file: str
    line: int
    column: int
    written: str
    id: str
    form: str
    status: Status
    resolved_in: str | None = None
    new_id: str | None = None
    new_ids: list[str] = field(default_factory=list)
    change: str | None = None
    text_change: str | None = None
    weak: bool = False
    note: str = ""
    found: Found | None = field(default=None, repr=False)


@dataclass
class CiteReport:
    document: str
    current: str
    citations: list[Cited] = field(default_factory=list)
    as_of: dict[str, str | None] = field(default_factory=dict)  # file -> version written for
    notes: list[str] = field(default_factory=list)  # what was skipped, and why
    files: dict[str, TextFile] = field(default_factory=dict, repr=False)  # as checked
    guard: Protected = field(default_factory=lambda: Protected({}), repr=False)

    @property
    def exit_code(self) -> int:
        """0 when every citation is current, 1 otherwise (for CI)."""
        return 0 if all(c.status == "current" for c in self.citations) else 1

    def counts(self) -> dict[str, int]:
        return {s: sum(c.status == s for c in self.citations) for s in STATUSES}

    def as_json(self) -> dict[str, object]:
        return {
            "document": self.document,
            "current": self.current,
            "files": self.as_of,
            "counts": self.counts(),
            "notes": self.notes,
            "citations": [
                {k: v for k, v in asdict(c).items() if k != "found"} for c in self.citations
            ],
        }


class _Versions:
    """The document's published versions, their ids and maps, loaded once each."""

    def __init__(self, corpus: StoredCorpus, document: str) -> None:
        self.corpus, self.document = corpus, document
        self.versions = self.corpus.published(document)
        if not self.versions:
            raise NotFound(f"a published version of {document}")
        self.current = self.corpus.current(document) or self.versions[-1]
        self.ids = {v: set(self.corpus.version(document, v).ids()) for v in self.versions}
        self.known = set().union(*self.ids.values())
        prefixes = [i.split(":", 1)[0] for i in self.ids[self.current] if ":" in i]
        self.prefix = max(set(prefixes), key=prefixes.count) if prefixes else "cr"
        self.prefixes = set(prefixes)
        self._maps: dict[str, RenumberingMap] = {}
        self._lineages = lineages_of(self.corpus)

    def map_from(self, version: str) -> RenumberingMap:
        if version not in self._maps:
            self._maps[version] = renumbering(
                self.corpus, self.document, version, self.current, self._lineages
            )
        return self._maps[version]

    def citations(self, text: str, notes: list[str] | None = None, what: str = "") -> list[Found]:
        """The citations in a text; a bare number only if some version has it. Past the
        bounds (MAX_CITATIONS, MAX_NUMBERS_PER_LINE) the rest is left with a note."""
        out: list[Found] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if sum(1 for _ in _NUMBER.finditer(line)) > MAX_NUMBERS_PER_LINE:
                if notes is not None:
                    notes.append(
                        f"{what}: line {number} holds more than {MAX_NUMBERS_PER_LINE} "
                        "numbers (not prose); it was not checked"
                    )
                continue
            for f in find_in_line(line, number, self.prefix, self.prefixes):
                if f.form == "bare" and f.id not in self.known:
                    continue
                if len(out) == MAX_CITATIONS:
                    if notes is not None:
                        notes.append(f"{what}: only its first {MAX_CITATIONS} citations checked")
                    return out
                out.append(f)
        return out

    def written_for(self, ids: Iterable[str]) -> str | None:
        """The oldest version with every cited id some version has; else the one with most."""
        wanted = {i for i in ids if i in self.known}
        if not wanted:
            return None
        best = max(
            self.versions, key=lambda v: (len(wanted & self.ids[v]), -self.versions.index(v))
        )
        return best

    def source_of(self, ident: str, as_of: str) -> str | None:
        """Where to resolve a cited id: the as-of version, else the nearest one that has it
        (the earliest later one first)."""
        if ident in self.ids[as_of]:
            return as_of
        start = self.versions.index(as_of)
        later = [v for v in self.versions[start:] if ident in self.ids[v]]
        earlier = [v for v in self.versions[:start] if ident in self.ids[v]]
        return later[0] if later else (earlier[-1] if earlier else None)

    def resolve(self, found: Found, file: str, as_of: str | None) -> Cited:
        cited = Cited(
            file,
            found.line,
            found.start + 1,
            found.written,
            found.id,
            found.form,
            "never-existed",
            found=found,
        )
        source = self.source_of(found.id, as_of) if as_of else None
        if source is None:
            cited.note = f"no stored version of {self.document} has {found.id}"
            return cited
        cited.resolved_in = source
        if source != as_of:
            cited.note = f"not in {as_of}; resolved in {source}"
        result = lookup(self.map_from(source), found.id) if source != self.current else None
        if result is None:
            cited.status, cited.new_id = "current", found.id
            return cited
        cited.status, cited.new_id = result.status, result.new_id
        if result.entry is not None:
            e = result.entry
            cited.new_ids = list(e.new_ids)
            cited.change, cited.text_change, cited.weak = e.cls, e.text_change, e.weak
        if result.status == "renumbered" and found.id in self.ids[self.current]:
            extra = f"{found.id} now holds a different rule"
            cited.note = f"{cited.note}; {extra}" if cited.note else extra
        return cited


def cite_check(
    corpus: StoredCorpus,
    document: str,
    paths: Iterable[Path],
    as_of: str | None = None,
    protected: Sequence[tuple[Path, str]] = (),
) -> CiteReport:
    """Every citation in the files, resolved against the version each was written for.
    The corpus (and the `protected` folders, e.g. the cache) is never read as a file."""
    versions = _Versions(corpus, document)
    if as_of is not None and as_of not in versions.versions:
        known = ", ".join(versions.versions)
        raise NotFound(f"version {shown(as_of)} of {document}", f"published versions: {known}")
    report = CiteReport(document, versions.current, guard=Protected.of(corpus.root, protected))
    walk = collect_files(list(paths), report.guard)
    report.notes += walk.notes
    for path in walk.files:
        read = read_text_file(path)
        if isinstance(read, str):
            report.notes.append(read)
            continue
        found = versions.citations(read.searched, report.notes, shown(path))
        if not found:
            continue
        written_for = as_of or versions.written_for(f.id for f in found)
        report.as_of[str(path)] = written_for
        report.files[str(path)] = read
        report.citations += [versions.resolve(f, str(path), written_for) for f in found]
    return report


def _ruling_text(ruling: Ruling) -> str:
    return "\n".join(p for p in (ruling.question, ruling.answer, ruling.text) if p)


def check_rulings(corpus: StoredCorpus, document: str, rulings: str) -> CiteReport:
    """The current rulings of `rulings` whose text cites rules of `document`: each resolved
    against the rules version in force on the ruling's date (else as a file would be)."""
    versions = _Versions(corpus, document)
    published = set(versions.versions)
    dated = sorted(
        (
            (v.get("effective") or v.get("published") or v["version"], v["version"])
            for v in corpus.entry(document).get("versions") or []
            if v["version"] in published
        ),
        key=lambda d: version_key(d[0]),
    )
    report = CiteReport(document, versions.current)
    for ruling in load_document(corpus, rulings).rulings:
        found = versions.citations(_ruling_text(ruling))
        if not found:
            continue
        label = f"{rulings}:{ruling.id}" + (
            f" ({', '.join(ruling.card_titles)})" if ruling.card_titles else ""
        )
        in_force = [v for d, v in dated if ruling.updated and d <= ruling.updated]
        written_for = in_force[-1] if in_force else versions.written_for(f.id for f in found)
        report.as_of[label] = written_for
        report.citations += [versions.resolve(f, label, written_for) for f in found]
    return report


def plan_fixes(report: CiteReport) -> list[FileFix]:
    """The rewrite of every file with a renumbered citation that can be fixed unattended:
    one new id, not part of a range, not a weak pairing. Each is planned on the bytes the
    check read; writing compares them again."""
    by_file: dict[str, list[Cited]] = {}
    for c in report.citations:
        f = c.found
        if c.status != "renumbered" or f is None or c.new_id is None or c.file not in report.files:
            continue
        if f.in_range or c.weak or len(c.new_ids) > 1:
            continue
        if c.new_id.partition(":")[0] != f.prefix:
            continue
        by_file.setdefault(c.file, []).append(c)
    fixes = []
    for file, cited in sorted(by_file.items()):
        read = report.files[file]
        edits = {
            (c.found.line, c.found.start, c.found.end): (c.new_id or "").partition(":")[2]
            for c in cited
            if c.found is not None
        }
        fixes.append(FileFix(read, rewrite(read.text, edits), list(cited), report.guard))
    return fixes


def left_for_a_person(report: CiteReport, fixes: list[FileFix]) -> dict[str, str | None]:
    """Files that keep stale citations after their fix, with the version they were written
    for: once some of their numbers are new, a later check cannot tell that version by
    itself, so it must be given (`--as-of`). A file whose fix was not written (skipped,
    failed) still holds only its old numbers: it is not one of them."""
    written = [f for f in fixes if f.written]
    fixed = {id(c) for f in written for c in f.fixed}
    rewritten = {f.path for f in written}
    return {
        c.file: report.as_of.get(c.file)
        for c in report.citations
        if c.file in rewritten and c.status != "current" and id(c) not in fixed
    }


def exit_after_fixes(report: CiteReport, fixes: list[FileFix]) -> int:
    """0 when every citation is current once the fixes are written, 1 otherwise."""
    fixed = {id(c) for f in fixes for c in f.fixed}
    return 0 if all(c.status == "current" or id(c) in fixed for c in report.citations) else 1


def check_args(paths: list[Path], rulings: str | None) -> None:
    if not paths and rulings is None:
        raise UsageError("cite-check needs files or folders to check, or --rulings DOC")
