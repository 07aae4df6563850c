"""The static website in real headless Chromium, served from 127.0.0.1 as a host would.

The home page, a contents page, a rule page, an old number's page, a changes page and a
search, each at a phone's width (390 px) and a desktop's (1280 px): no page is wider than
the screen. A probe page of the test's own (served beside the site, never written into
it) loads each page in a frame of that width and reports the frame's document width; the
search reports the results Pagefind found. Screenshots of a rule page, a changes page and
a search are taken for the documentation: into $RULESCORPUS_ARTIFACTS (`make screenshots`
points it at docs/img/), else the test's tmp; a test run writes nothing in the checkout.
"""

from __future__ import annotations

import html
import json
import os
import re
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from tests.support.chromium import png_size, run_chromium
from tests.support.site_support import HOSTILE_RULE, built_site, hostile_archive, run_cli

PROBE = """<!doctype html>
<html><head><meta charset="utf-8"><title>probe</title></head>
<body style="margin:0">
<iframe id="frame" src="{src}"
 style="display:block;border:0;width:{width}px;height:{height}px"></iframe>
<pre id="result">waiting</pre>
<script>
// The page's load event (after which Chromium dumps the DOM) waits for this image, which
// the test's server answers only once the probe has reported (or after a minute).
var hold = new Image();
hold.src = "/__hold?id={key}";
document.body.appendChild(hold);
var frame = document.getElementById("frame");
function report() {{
  var doc = frame.contentDocument;
  var results = doc.querySelectorAll(".pagefind-ui__result-link");
  document.getElementById("result").textContent = JSON.stringify({{
    url: frame.contentWindow.location.pathname,
    viewport: doc.documentElement.clientWidth,
    width: doc.documentElement.scrollWidth,
    title: doc.title,
    results: results.length,
    first: results.length ? results[0].getAttribute("href") : null,
    labels: Array.prototype.map.call(results, function (r) {{ return r.textContent; }}),
    wraps: Array.prototype.map.call(
      doc.querySelectorAll(".searchbox button, h1 .version"),
      function (e) {{ return Math.round(e.getBoundingClientRect().height); }}),
    line: parseFloat(frame.contentWindow.getComputedStyle(doc.body).lineHeight),
    text: doc.body.innerText.slice(0, 20000)
  }});
  fetch("/__release?id={key}");
}}
// Settled: loaded, not about to follow a redirect, and a search has shown its results.
function settled(doc) {{
  if (doc.readyState !== "complete" || doc.querySelector("meta[http-equiv=refresh]")) {{
    return false;
  }}
  return !doc.querySelector("#search") || !!doc.querySelector(".pagefind-ui__result-link");
}}
function poll(left) {{
  if (left <= 0 || settled(frame.contentDocument)) {{
    report();
  }} else {{
    setTimeout(function () {{ poll(left - 1); }}, 100);
  }}
}}
setTimeout(function () {{ poll(300); }}, 200);
</script>
</body></html>
"""
WIDTHS = (390, 1366)
PAGES = {
    "home": "index.html",
    "contents": "mtg/cr/index.html",
    "rule": "mtg/cr/702.19c/index.html",
    "whole rule": "mtg/cr/702.19/index.html",
    "old number": "mtg/cr/v/2025-02-07/903.12c/index.html",
    "old text": "mtg/cr/v/2025-07-25/603.2f/index.html",
    "changes": "mtg/cr/changes/2025-11-14/index.html",
    # The NetrunnerDB ruling on Mirrormorph (its id is a digest of its text).
    "ruling": "netrunner/rulings/rulings/ad376814289424bb/index.html",
}
# A transparent 1x1 GIF.
GIF = bytes.fromhex(
    "47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b"
)


class SiteHandler(SimpleHTTPRequestHandler):
    """The site's folder, plus the probe page and its hold/release pair, from memory."""

    holds: ClassVar[dict[str, threading.Event]] = {}

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        if parts.path == "/__probe.html":
            key = str(len(self.holds))
            self.holds[key] = threading.Event()
            page = PROBE.format(
                src=html.escape(query["page"]),
                width=int(query["width"]),
                height=int(query.get("height", "900")),
                key=key,
            )
            self.answer(page.encode(), "text/html; charset=utf-8")
        elif parts.path == "/__hold":
            self.holds[query["id"]].wait(timeout=60)
            self.answer(GIF, "image/gif")
        elif parts.path == "/__release":
            self.holds[query["id"]].set()
            self.answer(b"", "text/plain")
        else:
            super().do_GET()

    def answer(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Iterator[str]:
    site = built_site(tmp_path_factory, parse_cache_dir)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(SiteHandler, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def probe(tmp_path: Path, base: str, page: str, width: int) -> dict[str, object]:
    url = f"{base}/__probe.html?page={quote('/' + page, safe='')}&width={width}"
    dom = run_chromium(tmp_path, "--window-size=1400,1000", "--dump-dom", url).stdout
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    assert found is not None and found.group(1) != "waiting", dom[-2000:]
    result: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return result


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_no_page_is_wider_than_the_screen(
    server: str, tmp_path: Path, name: str, width: int
) -> None:
    seen = probe(tmp_path, server, PAGES[name], width)
    assert isinstance(seen["viewport"], int) and width - 20 <= seen["viewport"] <= width
    assert isinstance(seen["width"], int) and seen["width"] <= seen["viewport"], seen
    text = str(seen["text"])
    expected = {
        "home": "Magic: The Gathering Comprehensive Rules",
        "contents": "Glossary",
        "rule": "702.19c",
        "whole rule": "Example: A 2/2 creature that can block an additional creature",
        "old number": "it was removed in version",
        "old text": "This is the rule as of 2025-07-25; the current rule is 603.2e",
        "changes": "What changed in 2025-11-14",
        "ruling": "as per rule 5.4.3b",
    }[name]
    assert expected in text, text[:500]
    # Neither the Search button nor a version in a heading breaks across lines.
    heights = seen["wraps"]
    assert isinstance(heights, list) and isinstance(seen["line"], float | int)
    assert all(h < 2 * float(seen["line"]) for h in heights), seen


@pytest.mark.parametrize("width", WIDTHS)
def test_the_whole_of_702_19_reads_on_one_page_with_its_example_labels(
    server: str, tmp_path: Path, width: int
) -> None:
    seen = probe(tmp_path, server, "mtg/cr/702.19/index.html", width)
    text = str(seen["text"])
    assert "702.19 Trample" in text
    for letter in "abcdefg":
        assert f"702.19{letter}\n" in text, letter
    assert text.count("Example:") == 3 and "…" not in text


def test_an_old_number_shows_its_old_text_before_the_current_rule(
    server: str, tmp_path: Path
) -> None:
    seen = probe(tmp_path, server, "mtg/cr/v/2025-07-25/603.2f/index.html", 390)
    assert seen["url"] == "/mtg/cr/v/2025-07-25/603.2f/index.html", seen
    text = str(seen["text"])
    assert "Some trigger events use the word" in text and "Example: An ability" in text
    assert "the current rule is 603.2e" in text


def test_an_unchanged_old_text_leads_to_where_it_stands(server: str, tmp_path: Path) -> None:
    seen = probe(tmp_path, server, "mtg/cr/v/2025-07-25/702.19/index.html", 390)
    assert seen["url"] == "/mtg/cr/702.19/index.html", seen


@pytest.mark.parametrize("width", WIDTHS)
def test_search_results_name_their_game_and_document_and_filter_by_it(
    server: str, tmp_path: Path, width: int
) -> None:
    everywhere = probe(tmp_path, server, "search/index.html?q=priority", width)
    labels = [str(label) for label in everywhere["labels"]]  # type: ignore[attr-defined]
    assert labels and all(re.search(r" — [^·]+ · .+$", label) for label in labels), labels
    for document, game in (
        ("Netrunner Comprehensive Rules (YAML source)", "Netrunner"),
        ("Magic: The Gathering Comprehensive Rules", "Magic: The Gathering"),
    ):
        query = f"search/index.html?q=priority&document={quote(document)}"
        filtered = probe(tmp_path, server, query, width)
        only = [str(label) for label in filtered["labels"]]  # type: ignore[attr-defined]
        assert only and all(label.endswith(f" — {game} · {document}") for label in only), only
    assert isinstance(filtered["width"], int) and filtered["width"] <= int(
        str(filtered["viewport"])
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_a_search_finds_the_rule_and_fits_the_screen(
    server: str, tmp_path: Path, width: int
) -> None:
    seen = probe(tmp_path, server, "search/index.html?q=trample", width)
    assert isinstance(seen["results"], int) and seen["results"] > 0, seen
    assert "/mtg/cr/702.19" in str(seen["first"]), seen
    assert isinstance(seen["width"], int) and seen["width"] <= int(str(seen["viewport"])), seen


@pytest.mark.parametrize(
    ("shot", "page", "height"),
    [
        ("site-rule.png", "mtg/cr/702.19/index.html", 1400),
        ("site-old-version.png", "mtg/cr/v/2025-07-25/603.2f/index.html", 1000),
        ("site-ruling.png", "netrunner/rulings/rulings/ad376814289424bb/index.html", 900),
        ("site-changes.png", "mtg/cr/changes/2025-11-14/index.html", 1400),
        ("site-search.png", "search/index.html?q=trample", 1000),
    ],
)
def test_screenshots_for_the_documentation(
    server: str, tmp_path: Path, shot: str, page: str, height: int
) -> None:
    """Taken through the probe page, which finishes loading only once the page has settled
    (a search has shown its results), at the frame's full size."""
    shots = Path(os.environ.get("RULESCORPUS_ARTIFACTS") or tmp_path / "artifacts")
    shots.mkdir(parents=True, exist_ok=True)
    target = shots / shot
    target.unlink(missing_ok=True)
    url = f"{server}/__probe.html?page={quote('/' + page, safe='')}&width=1100&height={height}"
    run_chromium(
        tmp_path,
        f"--screenshot={target}",
        f"--window-size=1100,{height}",
        "--hide-scrollbars",
        url,
    )
    assert png_size(target) == (1100, height)
    assert target.stat().st_size > 40_000  # a blank page compresses to a few kilobytes


def test_a_hostile_rule_text_is_shown_as_text_and_never_run(tmp_path: Path) -> None:
    archive, registry = hostile_archive(tmp_path)
    out = tmp_path / "site"
    code, output = run_cli(
        "import", str(archive), "--corpus", str(tmp_path / "corpus"),
        "--cache", str(tmp_path / "cache"), "--sources", str(registry), "--site", str(out),
    )  # fmt: skip
    assert code == 0, output
    page = out / "hostile/cr/1.1.a/index.html"
    dom = run_chromium(tmp_path, "--virtual-time-budget=2000", "--dump-dom", page.as_uri()).stdout
    assert "<title>1.1.a — Hostile Comprehensive Rules · Rules corpus</title>" in dom
    text = re.search(r'<p class="text">(.*?)</p>', dom, re.S)
    assert text is not None
    assert html.unescape(re.sub(r"<a [^>]*>|</a>", "", text.group(1))).startswith(HOSTILE_RULE)
    assert "<img" not in dom and dom.count("<script") == 0


def test_a_ruling_page_links_the_rule_it_names(server: str, tmp_path: Path) -> None:
    page = "netrunner/rulings/rulings/ad376814289424bb/index.html"
    seen = probe(tmp_path, server, page, 390)
    assert str(seen["text"]).startswith("Rules corpus"), seen
    assert "Mirrormorph\n" in str(seen["text"]) and "2019-04-27" in str(seen["text"])
    rule = probe(tmp_path, server, "netrunner/cr/5.4.3b/index.html", 390)
    assert "Rulings citing it" in str(rule["text"]) and "Mirrormorph" in str(rule["text"])
