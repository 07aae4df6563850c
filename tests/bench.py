"""`make bench`: speed and memory, printed side by side with a reference tool.

Each measured step runs in a child process of its own, so its peak memory
(ru_maxrss of that one child) is not mixed with anything else.

    python -m tests.bench [--shared ../shared/sources] [--skip-import]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from pipeline.extract.poppler import INSTALL_HINT, pdftotext_path

MTG_PDF = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.pdf"
MTG_OLD_TXT = "mtg/comprehensive-rules/20250725/MagicCompRules 20250725.txt"
MTG_NEW_TXT = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"

PARSE_PDF = """
import sys
from pipeline.jobs.families import ParseRequest, parse_bytes
data = open(sys.argv[1], 'rb').read()
doc = parse_bytes(data, ParseRequest(family='mtg-cr', document='mtg/cr', rendition='pdf'))
print(len(doc.records), len(doc.glossary), len(doc.warnings))
"""

DIFF_TXT = """
import sys, time
from pipeline.jobs.families import ParseRequest, parse_bytes
from pipeline.diff.documents import diff_documents
def load(p):
    return parse_bytes(open(p, 'rb').read(),
                       ParseRequest(family='mtg-cr', document='mtg/cr', rendition='txt'))
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
sys.stdout.write(proc.stdout.decode(errors='replace')[-400:])
sys.stderr.write(proc.stderr.decode(errors='replace')[-2000:])
"""


def measure(command: list[str]) -> tuple[float, float, str]:
    """(wall seconds, peak MiB, the command's last output) for one child process."""
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=False
    )
    first, _, rest = proc.stdout.partition("\n")
    wall, peak, code = first.split()
    if code != "0":
        raise SystemExit(f"benchmark step failed: {' '.join(command)}\n{proc.stderr}")
    return float(wall), int(peak) / 1024, rest.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared/sources"))
    parser.add_argument("--skip-import", action="store_true")
    args = parser.parse_args(argv)
    console = Console(width=120)
    shared: Path = args.shared
    pdf = shared / MTG_PDF
    if not pdf.exists():
        console.print(
            f"[red]{pdf} is missing: the bench reads the real documents from "
            "../shared/sources[/red]"
        )
        return 2
    table = Table(title="rulescorpus bench (2 cores; each step in its own process)")
    for column in ("what", "rulescorpus", "reference", "ratio"):
        table.add_column(column)

    exe = pdftotext_path()
    ours = measure([sys.executable, "-c", PARSE_PDF, str(pdf)])
    if exe is None:
        console.print(
            f"[yellow]pdftotext not found: {INSTALL_HINT}; "
            "showing rulescorpus figures only[/yellow]"
        )
        ref = None
    else:
        ref = measure([exe, "-layout", str(pdf), "/dev/null"])
    pages = "307-page MTG 20251114 PDF"
    table.add_row(
        f"parse {pages}: wall s",
        f"{ours[0]:.1f}",
        f"{ref[0]:.2f} (pdftotext -layout)" if ref else "-",
        f"{ours[0] / ref[0]:.0f}x" if ref else "-",
    )
    table.add_row(
        f"parse {pages}: peak MiB of the largest process",
        f"{ours[1]:.0f}",
        f"{ref[1]:.0f} (pdftotext -layout)" if ref else "-",
        f"{ours[1] / ref[1]:.1f}x" if ref else "-",
    )
    records = ours[2].split()
    if records:
        table.add_row("records / glossary / warnings from the PDF", " / ".join(records), "", "")

    diff = measure(
        [sys.executable, "-c", DIFF_TXT, str(shared / MTG_OLD_TXT), str(shared / MTG_NEW_TXT)]
    )
    diff_seconds, changes = diff[2].split()
    table.add_row(
        "diff MTG 20250725 -> 20251114 (diff only)",
        f"{float(diff_seconds):.3f} s",
        f"{changes} changes",
        "",
    )

    if not args.skip_import:
        with tempfile.TemporaryDirectory() as tmp:
            manifest = [
                e for e in json.loads((shared / "manifest.json").read_text()) if e["game"] == "mtg"
            ]
            archive = Path(tmp) / "archive"
            archive.mkdir()
            for entry in manifest:
                target = archive / entry["path"]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.symlink_to((shared / entry["path"]).resolve())
            (archive / "manifest.json").write_text(json.dumps(manifest))
            imported = measure(
                [
                    sys.executable,
                    "-m",
                    "pipeline",
                    "--corpus",
                    f"{tmp}/corpus",
                    "--cache",
                    f"{tmp}/cache",
                    "import",
                    str(archive),
                ]
            )
            table.add_row(
                f"import all {len(manifest)} MTG files (TXT + PDF, with diffs)",
                f"{imported[0]:.0f} s, {imported[1]:.0f} MiB",
                "",
                "",
            )
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
