"""A PDF or text parse imports only what it uses. The family table imports the
HTML, YAML and tar engines only when a parse of theirs asks (0.06 s of every parse
child's start), and the parse sandbox's fork server still imports every engine once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.helpers import SHARED

ROOT = Path(__file__).resolve().parents[2]
LAZY = ("bs4", "soupsieve", "yaml", "tarfile", "pdfplumber", "pdfminer")
PROBE = """
import sys
from pathlib import Path
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest
loaded = lambda: sorted({{m.split('.')[0] for m in sys.modules}} & set({lazy!r}))
print("import", loaded())
for path, rendition in ({pdf!r}, "pdf"), ({txt!r}, "txt"):
    request = ParseRequest(family="netrunner-cr" if rendition == "pdf" else "mtg-cr",
                           document="x/cr", rendition=rendition, what=path)
    doc = parse_bytes(Path(path).read_bytes(), request)
    assert doc.records, path
print("parse", loaded())
from pipeline.runner.families import FAMILIES
for name in ("nrdb-rulings", "faq-html", "nsg-yaml", "fab-html"):
    try:
        FAMILIES[name].extract(b"", ParseRequest(family=name, document="x/y", rendition="x"))
    except Exception:
        pass  # empty bytes are refused; the engine was imported to refuse them
print("html", loaded())
"""


@pytest.mark.slow  # reads the real documents
def test_a_pdf_or_text_parse_loads_no_html_yaml_or_tar_engine() -> None:
    pdf = SHARED / "netrunner/comprehensive-rules/1.4/Comprehensive_Rules.pdf"
    txt = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
    code = PROBE.format(lazy=LAZY, pdf=str(pdf), txt=str(txt))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["import []", "parse []"], done.stdout
    assert lines[2] == "html ['bs4', 'soupsieve', 'tarfile', 'yaml']", done.stdout


def test_the_fork_server_preloads_every_engine() -> None:
    import multiprocessing.forkserver

    from pipeline.runner import sandbox

    sandbox._fork_server()  # sets the preload list (the server starts at the first parse)
    preload = multiprocessing.forkserver._forkserver._preload_modules  # type: ignore[attr-defined]
    assert "pipeline.runner.families" in preload
    assert set(sandbox.LAZY_ENGINES) <= set(preload)
    for module in sandbox.LAZY_ENGINES:
        __import__(module)  # each one exists
