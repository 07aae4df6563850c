"""`python -m pipeline.export.datasette DATABASE [--host H] [--port N]`: serve an export."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pipeline.export.datasette.serve import datasette_command


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m pipeline.export.datasette")
    parser.add_argument("database", type=Path, help="a database `rulescorpus export sqlite` wrote")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    if not args.database.is_file():
        parser.error(f"{args.database} does not exist; run `rulescorpus export sqlite` first")
    command = datasette_command(args.database, host=args.host, port=args.port)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
