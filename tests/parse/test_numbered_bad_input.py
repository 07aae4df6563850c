"""What is no numbered rules document (prose, a card list, a PDF of images without a
text layer) gets one clear line from `parse` and exit 40, never a traceback, and no
record is invented from it."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from pipeline.errors import EXIT_PARSE
from tests.support.helpers import ROOT


def image_pdf() -> bytes:
    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, invariant=1)
    page.rect(100, 100, 200, 200, fill=1)
    page.showPage()
    page.save()
    return buffer.getvalue()


INPUTS = {
    "prose.txt": b"Once upon a time there was a game.\nIt had rules, but nobody wrote them.\n",
    "cards.txt": b"4 Lightning Bolt\n2 Counterspell\n1 Black Lotus\n",
    "scan.pdf": image_pdf(),
}


@pytest.mark.parametrize("name", sorted(INPUTS))
@pytest.mark.parametrize("game", ["gundam", "fow"])
def test_no_rules_document_is_one_line_and_exit_40(tmp_path: Path, name: str, game: str) -> None:
    path = tmp_path / name
    path.write_bytes(INPUTS[name])
    command = [sys.executable, "-m", "pipeline", "parse", str(path),
               "--family", "numbered", "--document", f"{game}/cr"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == EXIT_PARSE == 40
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: {game}/cr: ") and "Traceback" not in done.stderr
    expected = "no text in it" if name.endswith(".pdf") else "no numbered rules found"
    assert expected in line
