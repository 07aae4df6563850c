"""One `cite-check` run: check the files (and the rulings asked for), say each citation,
plan or write the fixes, and give the exit code. The command line builds a `CiteCheck`,
hands it the streams it speaks through, and exits with what `run` returns."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pipeline.cite.check import (
    Cited,
    CiteReport,
    check_args,
    check_rulings,
    cite_check,
    exit_after_fixes,
    left_for_a_person,
    plan_fixes,
)
from pipeline.cite.fixes import partial, write_fixes
from pipeline.errors import EXIT_IO, NAME_LENGTH, shorten
from pipeline.lookup import StoredCorpus


class Speaker(Protocol):
    """Where a run speaks: `line` a result line on stdout, `raw` text written to stdout as
    it is (JSON, a unified diff), `note` one line on stderr."""

    def line(self, text: str) -> None: ...
    def raw(self, text: str) -> None: ...
    def note(self, text: str) -> None: ...


@dataclass(frozen=True)
class CiteCheck:
    corpus: StoredCorpus
    document: str
    paths: Sequence[Path]
    as_of: str | None = None
    rulings: str | None = None
    fix: bool = False
    write: bool = False  # with fix: write the files, not only print the rewrite
    break_hard_links: bool = False
    as_json: bool = False
    protected: Sequence[tuple[Path, str]] = ()  # folders never read as a file, named

    def report(self) -> CiteReport:
        files = list(self.paths)
        check_args(files, self.rulings)
        report = (
            cite_check(self.corpus, self.document, files, self.as_of, self.protected)
            if files
            else None
        )
        if self.rulings is not None:
            extra = check_rulings(self.corpus, self.document, self.rulings)
            if report is None:
                return extra
            report.citations += extra.citations
            report.as_of.update(extra.as_of)
        assert report is not None
        return report

    def run(self, say: Speaker) -> int:
        """Check, say what was found, fix if asked; the exit code."""
        report = self.report()
        for note in report.notes:
            say.note(f"note: {shorten(note, one_line=True)}")
        if self.as_json:
            say.raw(json.dumps(report.as_json(), indent=2, sort_keys=True, ensure_ascii=False))
            say.raw("\n")
        else:
            say_citations(report, say)
        if not self.fix:
            return report.exit_code
        fixes = plan_fixes(report)
        if not self.write:
            for f in fixes:
                say.raw(f.unified_diff())
            if not fixes:
                return report.exit_code
            say.note("(a dry run: add --yes to write these changes)")
            # A check in CI that would rewrite something has found stale citations.
            return max(report.exit_code, 1)
        results = write_fixes(fixes, break_hard_links=self.break_hard_links)
        for result in results:
            say.note(shorten(result.line(), one_line=True))
        if not fixes:
            say.note("nothing to fix")
        for file, version in sorted(left_for_a_person(report, fixes).items()):
            say.note(
                f"{shorten(str(file), NAME_LENGTH, one_line=True)} keeps citations for a "
                f"person to check; check it again with "
                f"--as-of {version} (it now mixes old and new numbers)"
            )
        if partial(results):
            done = sum(r.state == "changed" for r in results)
            say.note(f"the fix was partial: {done} of {len(results)} files written")
            return EXIT_IO
        return exit_after_fixes(report, fixes)


def say_citations(report: CiteReport, say: Speaker) -> None:
    for c in report.citations:
        say.line(
            shorten(f"{c.file}:{c.line}:{c.column}  {c.written}  {describe(c)}", one_line=True)
        )
    counts = ", ".join(f"{n} {s}" for s, n in report.counts().items() if n)
    written_for = sorted({v for v in report.as_of.values() if v})
    say.note(
        f"{len(report.citations)} citations of {report.document} "
        f"(written for {', '.join(written_for) or 'no stored version'}; current "
        f"{report.current}): {counts or 'none found'}"
    )


def describe(c: Cited) -> str:
    """What became of one citation, as its line says it."""
    if c.status == "renumbered":
        ids = " + ".join(c.new_ids) if len(c.new_ids) > 1 else (c.new_id or "")
        how = c.change or "renumbered"
        if c.text_change:
            how += f", text {c.text_change}"
        text = f"renumbered → {ids} ({how}{'; weak pairing, check it' if c.weak else ''})"
    elif c.status == "changed":
        text = f"changed: {c.change}"
    elif c.status == "removed":
        text = "removed"
    elif c.status == "never-existed":
        text = "never existed"
    else:
        text = "current"
    return text + (f" [{c.note}]" if c.note else "")
