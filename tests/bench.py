"""`make bench`: every figure measured side by side in one run, medians of several.

Each measured step runs in a child process of its own, so its wall time and
peak memory (ru_maxrss of that child and its descendants) are its own:

- every real PDF: a full parse (extraction and parsing) with each PDF engine,
  beside `pdftotext -layout` on the same file, and the ratios;
- `rulescorpus show` beside a bare `python -c "import json"`;
- the first `import` of ../shared/sources beside a no-change `update` through a
  mirror server on 127.0.0.1 (conditional requests only);
- the diff of two MTG versions.

    python -m tests.bench [--shared ../shared/sources] [--runs 3] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from rich.console import Console
from rich.table import Table

from pipeline.extract.pdf import ENGINES
from pipeline.extract.poppler import INSTALL_HINT, pdftotext_path

MTG_OLD_TXT = "mtg/comprehensive-rules/20250725/MagicCompRules 20250725.txt"
MTG_NEW_TXT = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
# Which family reads each real PDF (by manifest game and document).
PDF_FAMILIES = {
    ("mtg", "comprehensive-rules"): ("mtg-cr", "mtg/cr", {}),
    ("netrunner", "comprehensive-rules"): ("netrunner-cr", "netrunner/cr", {}),
}

PARSE = """
import json, sys
from pipeline.jobs.families import ParseRequest, parse_bytes
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

DIFF = """
import sys, time
from pipeline.jobs.families import ParseRequest, parse_bytes
from pipeline.diff.documents import diff_documents
def load(p):
    request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="txt", what=p)
    return parse_bytes(open(p, "rb").read(), request)
old, new = load(sys.argv[1]), load(sys.argv[2])
start = time.perf_counter()
d = diff_documents(old, new)
print(f"{time.perf_counter() - start:.4f}", sum(d.summary.values()))
"""

MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], capture_output=True)
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(wall, peak, proc.returncode)
sys.stdout.write(proc.stdout.decode(errors="replace")[-400:])
sys.stderr.write(proc.stderr.decode(errors="replace")[-2000:])
"""


def measure_once(command: list[str], ok: tuple[int, ...] = (0,)) -> tuple[float, float, str]:
    """(wall seconds, peak MiB, the command's last output) of one child process."""
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=False
    )
    first, _, rest = proc.stdout.partition("\n")
    wall, peak, code = first.split()
    if int(code) not in ok:
        raise SystemExit(f"benchmark step failed ({code}): {' '.join(command)}\n{proc.stderr}")
    return float(wall), int(peak) / 1024, rest.strip()


def measure(command: list[str], runs: int, ok: tuple[int, ...] = (0,)) -> tuple[float, float, str]:
    """Medians of `runs` runs: wall seconds and peak MiB, and the last run's output."""
    results = [measure_once(command, ok) for _ in range(runs)]
    return (
        statistics.median(r[0] for r in results),
        statistics.median(r[1] for r in results),
        results[-1][2],
    )


def ratio(ours: float, reference: float) -> str:
    if reference <= 0:
        return "-"
    value = ours / reference
    return f"{value:.1f}x" if value >= 0.1 else f"{value:.3f}x"


def pdf_rows(table: Table, shared: Path, runs: int, quick: bool) -> None:
    exe = pdftotext_path()
    manifest = json.loads((shared / "manifest.json").read_text())
    pdfs = [e for e in manifest if e["format"] == "pdf"]
    if quick:
        pdfs = [e for e in pdfs if "20251114" in e["path"]]
    for entry in pdfs:
        path = shared / entry["path"]
        name = f"{entry['game']}/{entry['document']} {entry['version']}"
        reference = measure([exe, "-layout", str(path), "/dev/null"], runs) if exe else None
        family = PDF_FAMILIES.get((entry["game"], entry["document"]))
        for engine in ENGINES:
            if family is not None:
                fam, document, options = family
                command = [sys.executable, "-c", PARSE, str(path), fam, document, engine]
                command.append(json.dumps(options))
                what = "parse"
            else:  # a document no PDF family of the bench knows: extraction alone
                command = [sys.executable, "-c", EXTRACT, str(path), engine]
                what = "extract"
            # The reference engine is slow: one run of pdfplumber on big files is enough.
            n = runs if engine == "pdfium" else 1
            wall, peak, out = measure(command, n)
            table.add_row(
                f"{what} {name} ({out}) with {engine}",
                f"{wall:.2f} s, {peak:.0f} MiB",
                f"{reference[0]:.2f} s, {reference[1]:.0f} MiB" if reference else "-",
                f"{ratio(wall, reference[0])} time, {ratio(peak, reference[1])} memory"
                if reference
                else "-",
            )


def show_row(table: Table, corpus: Path, runs: int) -> None:
    show = [sys.executable, "-m", "pipeline", "--corpus", str(corpus), "show", "cr:702.19c"]
    show += ["--doc", "mtg/cr"]
    ours = measure(show, max(runs, 5))
    bare = measure([sys.executable, "-c", "import json"], max(runs, 5))
    table.add_row(
        "show cr:702.19c --doc mtg/cr",
        f"{ours[0] * 1000:.0f} ms",
        f"{bare[0] * 1000:.0f} ms (python -c 'import json')",
        ratio(ours[0], bare[0]),
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
        f"{first[0]:.1f} s, {first[1]:.0f} MiB",
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
        f"{again[0]:.1f} s, {again[1]:.0f} MiB",
        f"{first[0]:.1f} s (the first import)",
        ratio(again[0], first[0]),
    )
    return corpus


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared/sources"))
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--quick", action="store_true", help="one PDF, no full import")
    args = parser.parse_args(argv)
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
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    table = Table(title=f"rulescorpus bench ({machine}; medians of {args.runs})")
    for column in ("what", "rulescorpus", "reference", "ratio"):
        table.add_column(column)
    pdf_rows(table, shared, args.runs, args.quick)
    diff = measure(
        [sys.executable, "-c", DIFF, str(shared / MTG_OLD_TXT), str(shared / MTG_NEW_TXT)],
        args.runs,
    )
    seconds, changes = diff[2].split()
    table.add_row(
        "diff MTG 20250725 -> 20251114 (the diff alone)",
        f"{float(seconds):.3f} s",
        f"{changes} changes",
        "",
    )
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
    console.print(table)
    return 0


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
