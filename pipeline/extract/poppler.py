"""A second PDF engine (poppler's `pdftotext -layout`) for cross-engine checks and the bench."""

from __future__ import annotations

import shutil
import subprocess

from pipeline.errors import ExtractError

INSTALL_HINT = "install poppler-utils (Debian: apt-get install -y poppler-utils)"


def pdftotext_path() -> str | None:
    return shutil.which("pdftotext")


def pdftotext(data: bytes, *, what: str = "document", layout: bool = False) -> str:
    """Text of the PDF as `pdftotext` prints it (in reading order, or with `-layout`)."""
    exe = pdftotext_path()
    if exe is None:
        raise ExtractError(what, f"pdftotext is not installed; {INSTALL_HINT}")
    mode = ["-layout"] if layout else []
    proc = subprocess.run(
        [exe, *mode, "-enc", "UTF-8", "-", "-"], input=data, capture_output=True, check=False
    )
    if proc.returncode != 0:
        raise ExtractError(what, f"pdftotext failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8", errors="replace")
