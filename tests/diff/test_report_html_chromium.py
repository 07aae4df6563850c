"""The HTML report of a real MTG diff, rendered by headless Chromium.

The browser proves what a reader sees: the summary, a deletion and an insertion
with the expected words, one article per change. A screenshot is kept as the test's
artefact in $RULESCORPUS_ARTIFACTS (a folder outside the checkout), or the test's own tmp.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from chromium import png_size, run_chromium
from test_diff import mtg_version

from pipeline.diff.documents import diff_documents
from pipeline.report.html import render_html


def test_chromium_shows_the_changes_of_a_real_diff(tmp_path: Path) -> None:
    old, new = mtg_version("20250725"), mtg_version("20251114")
    diff = diff_documents(old, new)
    page = tmp_path / "mtg-20250725-20251114.html"
    page.write_text(render_html(diff, old, new), encoding="utf-8")

    dom = run_chromium(tmp_path, "--dump-dom", page.as_uri()).stdout
    summary = re.search(r'<section id="summary">.*?</section>', dom, re.S)
    assert summary is not None and "<h2>Summary</h2>" in summary.group(0)
    counts = dict(re.findall(r'<td>([a-z-]+)</td><td class="n">(\d+)</td>', summary.group(0)))
    assert {k: int(v) for k, v in counts.items()} == diff.summary
    # 405.4: "The controller of a spell is the person who cast it" became "player".
    article = re.search(
        r'<article class="change reworded" id="change-cr-405-4">.*?</article>', dom, re.S
    )
    assert article is not None
    assert "<del>person</del>" in article.group(0) and "<ins>player</ins>" in article.group(0)
    assert dom.count("<article ") == len(diff.changes)
    assert 'href="#change-cr-603-2d"' in dom and 'id="change-cr-603-2d"' in dom

    # Tests write nothing inside the repository.
    artifacts = Path(os.environ.get("RULESCORPUS_ARTIFACTS", tmp_path / "artifacts"))
    artifacts.mkdir(parents=True, exist_ok=True)
    shot = artifacts / "diff-report-mtg-20250725-20251114.png"
    shot.unlink(missing_ok=True)
    run_chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,2000", page.as_uri())
    assert png_size(shot) == (1280, 2000)
    assert shot.stat().st_size > 50_000  # a blank page compresses to a few kilobytes
