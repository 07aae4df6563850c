"""`make bench`: every figure measured side by side in one run, medians of several.

First the parse target (the whole parse within three times pdftotext's wall time, in
one process, under 200 MB) on the MTG 20251114 PDF, each round running every row side by
side (so the machine's load at the moment falls on all of them):

- `pdftotext -layout FILE /dev/null`, the reference;
- `rulescorpus parse FILE --family mtg-cr > /dev/null`, the whole command a
  user runs: Python's start, imports, the parse sandbox (a limited child the
  command forks itself), extraction with the default engine, parsing, the
  canonical JSON the parse child writes and the command prints;
- the parse inside a warm process (`parse_bytes`, imports done, the
  extraction cache emptied before each run, so the extraction is cold);
- of which the extraction alone, the same way;
- of which PDFium's own part: every page and its text page loaded, and
  nothing read. No Python engine can be faster than this, so it shows what the
  target leaves for the rest.

Every page is read by the one process that parses, so the figures do not depend on
the machine's cores.

Then the rest: every real PDF parsed (`python -c` of `parse_bytes`: Python's
start, imports and the parse, no sandbox) with each PDF engine beside
`pdftotext -layout`; `rulescorpus show` beside a bare `python -c "import json"`;
the first `import` of ../shared/sources beside a no-change `update` through a
mirror server on 127.0.0.1 (conditional requests only); the diff of two MTG
versions; the static website of the imported corpus (time and the whole site's size);
and the archive row (`archive.py`): a synthetic history of 120 MTG versions
imported, then show, history, search and export over it. How memory is measured:
`measure.py`. With `--page`, the tables are also written to that Markdown page
(`make bench` writes docs/measured/bench.md).

    python -m tests.bench [--shared ../shared/sources] [--runs 5] [--quick] [--page FILE]
                          [--archive-versions 120] [--archive-only]

`--archive-only` runs the archive row alone (its four targets, in a few minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from pipeline.extract.pdf import ENGINES
from pipeline.extract.poppler import INSTALL_HINT, pdftotext_path
from tests.bench.archive import archive_rows
from tests.bench.measure import KIB_PER_MIB, Figures, Warm, measure_memory, measure_once
from tests.support.measured import machine, rich_table_markdown, write_page

MTG_PDF = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.pdf"
MTG_OLD_TXT = "mtg/comprehensive-rules/20250725/MagicCompRules 20250725.txt"
MTG_NEW_TXT = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
# The parse target: the whole parse within this many times pdftotext's wall time, under
# this memory.
TARGET_RATIO = 3.0
TARGET_MIB = 200.0
# Which family reads each real PDF (by manifest game and document).
PDF_FAMILIES: dict[tuple[str, str], tuple[str, str, dict[str, str]]] = {
    ("mtg", "comprehensive-rules"): ("mtg-cr", "mtg/cr", {}),
    ("netrunner", "comprehensive-rules"): ("netrunner-cr", "netrunner/cr", {}),
}

PARSE = """
import json, sys
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest
family, document, engine, options = sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
request = ParseRequest(family=family, document=document, rendition="pdf", what=sys.argv[1],
                       options={**options, "engine": engine})
doc = parse_bytes(open(sys.argv[1], "rb").read(), request)
print(len(doc.records), len(doc.warnings))
"""

EXTRACT = """
import sys
from pipeline.extract.pdf import extract_pdf_lines
pdf = extract_pdf_lines(open(sys.argv[1], "rb").read(), what=sys.argv[1], engine=sys.argv[2])
print(len(pdf.lines), pdf.pages)
"""

# The account of every number (parse/account.py) after a parse of the MTG text export, the
# largest count of numbers of any real document: its own seconds beside the whole parse's.
ACCOUNT = """
import sys, time
from pipeline.extract.text import extract_text_lines
from pipeline.parse.account import account_numbers
from pipeline.parse.mtg.cr import SCHEME
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest
data = open(sys.argv[1], "rb").read()
request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="txt", what=sys.argv[1])
start = time.perf_counter()
doc = parse_bytes(data, request)
whole = time.perf_counter() - start
lines = extract_text_lines(data, what=sys.argv[1])
start = time.perf_counter()
found = account_numbers(doc, lines, SCHEME)
print(f"{time.perf_counter() - start:.4f}", f"{whole:.4f}", len(found))
"""

# What `parse` imports besides the CLI before it reads a page: every parser, the engines.
PARSERS_IMPORT = "import pipeline.runner.families, pipeline.runner.sandbox"

DIFF = """
import sys, time
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest
from pipeline.diff.documents import diff_documents
def load(p):
    request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="txt", what=p)
    return parse_bytes(open(p, "rb").read(), request)
old, new = load(sys.argv[1]), load(sys.argv[2])
start = time.perf_counter()
d = diff_documents(old, new)
print(f"{time.perf_counter() - start:.4f}", sum(d.summary.values()))
"""


def measure(command: list[str], runs: int, ok: tuple[int, ...] = (0,)) -> tuple[Figures, str]:
    """Medians of `runs` runs, and the last run's output."""
    figures = Figures()
    out = ""
    for _ in range(runs):
        run = measure_once(command, ok)
        figures.add(run.wall, run.largest)
        out = run.stdout.strip()[-400:]
    return figures, out


def ratio(ours: float, reference: float) -> str:
    if reference <= 0:
        return "-"
    value = ours / reference
    return f"{value:.1f}x" if value >= 0.1 else f"{value:.3f}x"


def target_rows(shared: Path, runs: int) -> tuple[Table, list[str]]:
    """The parse target on the MTG 20251114 PDF: four figures per round, side by side."""
    path = shared / MTG_PDF
    exe = pdftotext_path()
    if exe is None:
        raise SystemExit(f"pdftotext not found: {INSTALL_HINT}")
    reference_cmd = [exe, "-layout", str(path), "/dev/null"]
    rulescorpus = str(Path(sys.executable).with_name("rulescorpus"))
    command = [rulescorpus, "parse", str(path), "--family", "mtg-cr"]
    # What the whole command pays before it parses anything: its own start (the typer
    # app, which imports no parser), and the import of every parser and PDF engine.
    cli_start = [rulescorpus, "--help"]
    server_start = [sys.executable, "-c", PARSERS_IMPORT]
    reference, whole, warm_parse, warm_extract = Figures(), Figures(), Figures(), Figures()
    floor, after = Figures(), Figures()
    started, served = Figures(), Figures()
    warm = Warm(path, "mtg-cr", "mtg/cr")
    counts = ""
    try:
        warm.run("parse")  # once untimed: the warm process's own first-call costs
        for _ in range(runs):
            steps = [(reference, reference_cmd), (whole, command)]
            steps += [(started, cli_start), (served, server_start)]
            for figures, cmd in steps:
                done = measure_once(cmd, ok=(0, 10, 40))
                figures.add(done.wall, done.largest)
            warm_steps = [(warm_parse, "parse"), (warm_extract, "extract"), (floor, "floor")]
            warm_steps.append((after, "lines"))
            for figures, what in warm_steps:
                answer, sampler = warm.run(what)
                figures.add(answer["wall"], sampler.largest)
                if what == "parse":
                    counts = f"{answer['records']:.0f} records, {answer['warnings']:.0f} warnings"
        reference.pss = measure_memory(reference_cmd)
        whole.pss = measure_memory(command, ok=(0, 10, 40))
        warm_parse.pss = warm.run("parse", pss=True)[1].pss_peak / KIB_PER_MIB
    finally:
        warm.close()
    table = Table(title=f"parse MTG 20251114 (307 pages, {counts}); medians of {runs}")
    for column in ("what", "wall", "memory", "ratio to pdftotext"):
        table.add_column(column)
    table.add_row(
        "pdftotext -layout FILE /dev/null", f"{reference.wall:.2f} s", reference.memory(), "1x"
    )
    rows = [
        ("rulescorpus parse FILE --family mtg-cr (the whole command)", whole),
        ("  its start alone: rulescorpus --help", started),
        ("  a python importing every parser and engine, alone", served),
        ("parse_bytes in a warm process (cold extraction)", warm_parse),
        ("  of which extraction (extract_pdf_lines, cold)", warm_extract),
        ("    of which PDFium loading pages and text pages, nothing read", floor),
        ("  of which the parse of the extracted lines (parse_extracted)", after),
    ]
    verdicts = []
    for label, figures in rows:
        table.add_row(
            label, f"{figures.wall:.2f} s", figures.memory(), ratio(figures.wall, reference.wall)
        )
    for label, figures in (rows[0], rows[3]):
        # Memory: all the processes together where measured (PSS), else the largest one.
        memory = figures.pss if figures.pss is not None else figures.peak
        within = figures.wall <= TARGET_RATIO * reference.wall
        verdict = "met" if within and memory < TARGET_MIB else "NOT met"
        verdicts.append(
            f"the parse target by {label.split(' (')[0]}: {verdict} "
            f"({figures.wall / reference.wall:.2f}x pdftotext's wall time, {memory:.0f} MiB)"
        )
    # What the target leaves for everything PDFium does not do: Python's start, the
    # imports, reading the text pages, the parse, the lint and the JSON.
    left = TARGET_RATIO * reference.wall - floor.wall
    verdicts.append(
        f"PDFium's own loading takes {ratio(floor.wall, reference.wall)} "
        f"pdftotext's wall time; a {TARGET_RATIO:g}x target leaves {max(left, 0.0):.2f} s "
        f"for everything else, where the whole command takes {whole.wall - floor.wall:.2f} s more"
    )
    # What no reader of PDFium's text pages in Python can avoid: PDFium's own loading, the
    # imports and the parse of the lines, before a single character is read.
    fixed = floor.wall + served.wall + after.wall
    verdicts.append(
        f"PDFium's loading, the imports and the parse of the extracted lines alone take "
        f"{ratio(fixed, reference.wall)} pdftotext's wall time, before Python reads a character"
    )
    return table, verdicts


def pdf_rows(table: Table, shared: Path, runs: int, quick: bool) -> None:
    exe = pdftotext_path()
    manifest = json.loads((shared / "manifest.json").read_text())
    pdfs = [e for e in manifest if e["format"] == "pdf"]
    if quick:
        pdfs = [e for e in pdfs if "20251114" in e["path"]]
    for entry in pdfs:
        path = shared / entry["path"]
        name = f"{entry['game']}/{entry['document']} {entry['version']}"
        reference = measure([exe, "-layout", str(path), "/dev/null"], runs)[0] if exe else None
        family = PDF_FAMILIES.get((entry["game"], entry["document"]))
        for engine in ENGINES:
            if family is not None:
                fam, document, options = family
                command = [sys.executable, "-c", PARSE, str(path), fam, document, engine]
                command.append(json.dumps(options))
                what = "python -c parse_bytes"
            else:  # a document no PDF family of the bench knows: extraction alone
                command = [sys.executable, "-c", EXTRACT, str(path), engine]
                what = "python -c extract_pdf_lines"
            # The reference engine is slow: one run of pdfplumber on big files is enough.
            n = runs if engine == "pdfium" else 1
            ours, out = measure(command, n)
            table.add_row(
                f"{what} {name} ({out}) with {engine}",
                f"{ours.wall:.2f} s, {ours.peak:.0f} MiB",
                f"{reference.wall:.2f} s, {reference.peak:.0f} MiB" if reference else "-",
                (
                    f"{ratio(ours.wall, reference.wall)} time, "
                    f"{ratio(ours.peak, reference.peak)} memory"
                )
                if reference
                else "-",
            )


def account_row(table: Table, shared: Path, runs: int) -> None:
    """The account of every number on the MTG text export, beside the whole parse it ends."""
    accounts, parses = Figures(), Figures()
    for _ in range(runs):
        out = measure_once([sys.executable, "-c", ACCOUNT, str(shared / MTG_NEW_TXT)]).stdout
        alone, whole, _ = out.split()
        accounts.add(float(alone), 0.0)
        parses.add(float(whole), 0.0)
    table.add_row(
        "account of every number, MTG 20251114 TXT (the account alone)",
        f"{accounts.wall:.3f} s",
        f"{parses.wall:.3f} s (parse_bytes, the account in it)",
        ratio(accounts.wall, parses.wall),
    )


def show_row(table: Table, corpus: Path, runs: int) -> None:
    show = [sys.executable, "-m", "pipeline", "--corpus", str(corpus), "show", "cr:702.19c"]
    show += ["--doc", "mtg/cr"]
    ours = measure(show, max(runs, 5))[0]
    bare = measure([sys.executable, "-c", "import json"], max(runs, 5))[0]
    table.add_row(
        "show cr:702.19c --doc mtg/cr",
        f"{ours.wall * 1000:.0f} ms",
        f"{bare.wall * 1000:.0f} ms (python -c 'import json')",
        ratio(ours.wall, bare.wall),
    )


def site_row(table: Table, corpus: Path, tmp: Path) -> None:
    """`rulescorpus site` of the corpus: its time, the whole site's size, its biggest rule
    page (a rule page stays under 30 KB)."""
    out = tmp / "site"
    command = [sys.executable, "-m", "pipeline", "--corpus", str(corpus), "site", str(out)]
    built = measure_once(command)
    files = [p for p in out.rglob("*") if p.is_file()]
    # <game>/<document>/<number>/index.html; "changes" and "v" hold other pages
    rule_pages = [
        p
        for p in files
        if len(p.relative_to(out).parts) == 4
        and p.name == "index.html"
        and p.relative_to(out).parts[2] not in ("changes", "v")
    ]
    biggest = max((p.stat().st_size for p in rule_pages), default=0)
    table.add_row(
        "site of the corpus (every page, feed and the search index)",
        f"{built.wall:.1f} s, {built.largest:.0f} MiB",
        f"{sum(p.stat().st_size for p in files) / 2**20:.1f} MiB in {len(files)} files",
        f"largest rule page {biggest / 1000:.1f} KB",
    )


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """The bench's table is the output; the server's request log is not."""


def serve(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    """A mirror server on 127.0.0.1 (If-Modified-Since answered with 304)."""
    handler = partial(_Quiet, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def import_rows(table: Table, shared: Path, tmp: Path) -> Path:
    corpus, cache = tmp / "corpus", tmp / "cache"
    base = [sys.executable, "-m", "pipeline", "--corpus", str(corpus), "--cache", str(cache)]
    first = measure_once([*base, "import", str(shared)])
    table.add_row(
        "first import of ../shared/sources (all files, both cores)",
        f"{first.wall:.1f} s, {first.largest:.0f} MiB",
        "",
        "",
    )
    server, url = serve(shared)
    try:
        # The first update learns the mirror's validators; the second is all 304s.
        measure_once([*base, "update", "--mirror", url], ok=(0, 10))
        again = measure_once([*base, "update", "--mirror", url], ok=(0,))
    finally:
        server.shutdown()
    table.add_row(
        "no-change update through a mirror server on 127.0.0.1",
        f"{again.wall:.1f} s, {again.largest:.0f} MiB",
        f"{first.wall:.1f} s (the first import)",
        ratio(again.wall, first.wall),
    )
    return corpus


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared/sources"))
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--quick", action="store_true", help="one PDF, no full import")
    parser.add_argument("--page", type=Path, help="also write the tables to this Markdown page")
    parser.add_argument(
        "--archive-versions",
        type=int,
        default=120,
        help="versions in the synthetic archive row (0: no archive row)",
    )
    parser.add_argument(
        "--archive-only",
        action="store_true",
        help="the archive row alone (no parse target, PDFs, import of ../shared/sources or site)",
    )
    args = parser.parse_args(argv)
    if args.archive_only and not args.archive_versions:
        parser.error("--archive-only needs an archive: --archive-versions must be at least 1")
    if args.runs < 1:
        parser.error(f"--runs {args.runs}: a median needs at least one run")
    console = Console(width=140)
    shared: Path = args.shared
    if not (shared / "manifest.json").exists():
        console.print(
            f"[red]{shared}/manifest.json is missing: the bench reads the real "
            "documents from ../shared/sources[/red]"
        )
        return 2
    if pdftotext_path() is None:
        console.print(f"[yellow]pdftotext not found: {INSTALL_HINT}[/yellow]")
    load_at_start = _load()
    console.print(f"rulescorpus bench: {machine()}; load average {load_at_start} at the start")
    if args.archive_only:
        return _archive_only(args, console, load_at_start, argv)
    target, verdicts = target_rows(shared, args.runs)
    console.print(target)
    for verdict in verdicts:
        console.print(verdict)
    table = Table(title=f"every PDF, the diff, import, update and show; medians of {args.runs}")
    for column in ("what", "rulescorpus", "reference", "ratio"):
        table.add_column(column)
    pdf_rows(table, shared, args.runs, args.quick)
    diff = measure(
        [sys.executable, "-c", DIFF, str(shared / MTG_OLD_TXT), str(shared / MTG_NEW_TXT)],
        args.runs,
    )
    seconds, changes = diff[1].split()
    table.add_row(
        "diff MTG 20250725 -> 20251114 (the diff alone)",
        f"{float(seconds):.3f} s",
        f"{changes} changes",
        "",
    )
    account_row(table, shared, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        if args.quick:
            corpus = Path(tmp) / "corpus"
            archive = Path(tmp) / "archive"
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pipeline",
                    "--corpus",
                    str(corpus),
                    "--cache",
                    f"{tmp}/cache",
                    "import",
                    str(_mtg_archive(shared, archive)),
                ],
                check=False,
                capture_output=True,
            )
        else:
            corpus = import_rows(table, shared, Path(tmp))
        show_row(table, corpus, args.runs)
        site_row(table, corpus, Path(tmp))
        archived = (
            archive_rows(table, shared, Path(tmp), args.archive_versions, args.runs)
            if args.archive_versions
            else []
        )
    console.print(table)
    for verdict in archived:
        console.print(verdict)
    listed = "\n".join(f"- {_plain(verdict)}" for verdict in [*verdicts, *archived])
    parts = [rich_table_markdown(target), listed, rich_table_markdown(table)]
    return _end(console, args, load_at_start, argv, parts)


def _archive_only(
    args: argparse.Namespace, console: Console, load_at_start: str, argv: list[str] | None
) -> int:
    """The archive row alone: its table and verdicts, and the page when asked."""
    table = Table(title=f"the archive row; medians of {args.runs}")
    for column in ("what", "rulescorpus", "reference", "ratio"):
        table.add_column(column)
    with tempfile.TemporaryDirectory() as tmp:
        verdicts = archive_rows(table, args.shared, Path(tmp), args.archive_versions, args.runs)
    console.print(table)
    for verdict in verdicts:
        console.print(verdict)
    listed = "\n".join(f"- {_plain(verdict)}" for verdict in verdicts)
    return _end(console, args, load_at_start, argv, [listed, rich_table_markdown(table)])


def _end(
    console: Console,
    args: argparse.Namespace,
    load_at_start: str,
    argv: list[str] | None,
    parts: list[str],
) -> int:
    """The load at the end on the console; with --page, the page of `parts` (tables and
    verdicts as Markdown) under the load at the start and the end."""
    load_at_end = _load()
    console.print(f"load average {load_at_end} at the end (other work on the machine shows here)")
    if args.page is not None:
        load = (
            f"Load average {load_at_start} at the start and {load_at_end} at the end (other "
            "work on the machine shows here). Compare ratios, not seconds, across runs."
        )
        command = "python -m tests.bench " + " ".join(argv if argv is not None else sys.argv[1:])
        write_page(args.page, "Benchmark", command.strip(), "\n\n".join([load, *parts]))
    return 0


def _plain(markup: str) -> str:
    """A verdict printed in rich markup, as the page's plain text."""
    return Text.from_markup(markup).plain


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _mtg_archive(shared: Path, archive: Path) -> Path:
    """A small archive of the MTG text files (hard links), for --quick."""
    manifest = [
        e
        for e in json.loads((shared / "manifest.json").read_text())
        if e["game"] == "mtg" and e["format"] == "txt"
    ]
    for entry in manifest:
        target = archive / entry["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(shared / entry["path"], target)
    (archive / "manifest.json").write_text(json.dumps(manifest))
    return archive


if __name__ == "__main__":
    raise SystemExit(main())
