"""The HTML report of a real MTG diff, rendered by headless Chromium.

The browser proves what a reader sees: the summary, a deletion and an insertion
with the expected words, one article per change. A screenshot is kept as the test's
artefact in $RULESCORPUS_ARTIFACTS (a folder outside the checkout), or the test's own tmp.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

from pipeline.diff.documents import diff_documents
from pipeline.report.html import render_html
from tests.diff.test_diff import mtg_version
from tests.support.chromium import png_size, run_chromium


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


# Headless Chromium's window is never narrower than about 500 px: the report is measured
# in a frame of the width asked, as the site's pages are.
PROBE = """<!doctype html><html><body style="margin:0">
<iframe id="f" src="report.html" style="border:0;width:{width}px;height:900px"></iframe>
<pre id="seen">waiting</pre>
<script>
document.getElementById("f").addEventListener("load", function () {{
  var doc = this.contentDocument;
  var sides = doc.querySelectorAll("#change-cr-405-4 .side");
  var a = sides[0].getBoundingClientRect(), b = sides[1].getBoundingClientRect();
  document.getElementById("seen").textContent = JSON.stringify({{
    width: doc.documentElement.scrollWidth,
    viewport: doc.documentElement.clientWidth,
    stacked: b.top >= a.bottom,
    apart: b.left >= a.right || b.top >= a.bottom
  }});
}});
</script></body></html>
"""


def test_the_report_fits_a_phone_and_a_desktop_without_overlap(tmp_path: Path) -> None:
    """The report had no viewport and two fixed columns: at 390 px the page was wider than
    the screen and its old and new texts overlapped."""
    old, new = mtg_version("20250725"), mtg_version("20251114")
    report = render_html(diff_documents(old, new), old, new)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in report
    (tmp_path / "report.html").write_text(report, encoding="utf-8")
    for width, stacked in ((390, True), (1366, False)):
        probe = tmp_path / f"probe-{width}.html"
        probe.write_text(PROBE.format(width=width), encoding="utf-8")
        dom = run_chromium(
            tmp_path,
            "--allow-file-access-from-files",
            "--window-size=1400,1000",
            "--virtual-time-budget=10000",
            "--dump-dom",
            probe.as_uri(),
        ).stdout
        found = re.search(r'<pre id="seen">(.*?)</pre>', dom, re.S)
        assert found is not None and found.group(1) != "waiting", dom[-500:]
        seen = json.loads(html.unescape(found.group(1)))
        assert width - 20 <= seen["viewport"] <= width, (width, seen)
        assert seen["width"] <= seen["viewport"], (width, seen)
        assert seen["apart"] and seen["stacked"] is stacked, (width, seen)
