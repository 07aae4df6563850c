"""`python -m tests.faults [--quick]`: the fault cases, the crash campaign and the
concurrent runs, then one table; exit 1 on any corrupt state, leftover file, crash,
hang, double write or case not handled."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

from tests.support.measured import write_page

from .concurrency import run_contests
from .crash_campaign import run_campaign
from .lab import Lab
from .run_cases import run_cases
from .summary import Report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.faults", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few cases and crash points")
    parser.add_argument("--only", nargs="*", default=[], help="run only these cases")
    parser.add_argument("--verbose", action="store_true", help="print failed runs' output")
    parser.add_argument("--kills", type=int, default=None, help="random kills (default 200)")
    parser.add_argument("--seed", type=int, default=10, help="seed of the random kill instants")
    parser.add_argument("--skip-cases", action="store_true")
    parser.add_argument("--skip-crash", action="store_true")
    parser.add_argument("--skip-concurrency", action="store_true")
    parser.add_argument("--markdown", type=Path, help="also write the tables to this Markdown page")
    parser.add_argument("--work", type=Path, help="keep the work folder here")
    args = parser.parse_args(argv)
    console = Console(highlight=False, width=120)
    work = args.work or Path(tempfile.mkdtemp(prefix="rulescorpus-faults-"))
    report = Report()
    began = time.monotonic()
    lab = Lab(work)
    lab.user_kills = 2 if args.quick else 10
    try:
        if not args.skip_cases:
            report.outcomes = run_cases(lab, args.quick, args.only, verbose=args.verbose)
        if not args.skip_crash:
            kills = args.kills if args.kills is not None else (3 if args.quick else 200)
            report.tallies = run_campaign(lab, quick=args.quick, kills=kills, seed=args.seed)
        if not args.skip_concurrency:
            report.contests = run_contests(lab, quick=args.quick)
    finally:
        lab.close()
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    report.seconds = time.monotonic() - began
    report.print(console)
    if args.markdown is not None:
        command = "python -m tests.faults " + " ".join(argv if argv is not None else sys.argv[1:])
        body = report.markdown() + "\n" + report.cases_markdown()
        write_page(args.markdown, "Fault campaign", command.strip(), body)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
