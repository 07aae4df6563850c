"""`rulescorpus site OUT`: the corpus of three real MTG text exports and two FaB versions as
a static website. The pages a reader opens hold what the corpus holds (a rule's text, its
links, its history and the bytes it came from), every internal link leads to a page that
exists, the Atom feed carries the elements RFC 4287 requires, the same corpus gives the
same bytes, and a second run rewrites nothing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from helpers import corpus_digest
from site_support import built_site, hostile_archive, run_cli, site_corpus

from pipeline.corpus import open_corpus
from pipeline.corpus.site_queries import follow_version
from pipeline.errors import EXIT_IO, EXIT_OK, EXIT_USAGE
from pipeline.site.document_site import read_document_site
from pipeline.site.feed import feed_context
from pipeline.site.output import MARKER
from pipeline.site.render import render_page

ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    return site_corpus(tmp_path_factory, parse_cache_dir)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    return built_site(tmp_path_factory, parse_cache_dir)


def main_of(page: Path) -> str:
    html = page.read_text(encoding="utf-8")
    found = re.search(r"<main.*?</main>", html, re.S)
    assert found is not None, page
    return found.group(0)


def test_a_rule_page_shows_its_text_links_history_and_source(site: Path) -> None:
    page = main_of(site / "mtg/cr/603.2e/index.html")
    # 603.2e of 2025-11-14 is what 603.2f was before (the stored diff renumbered it).
    assert "Some trigger events use the word “becomes”" in page
    assert 'href="../../../mtg/cr/603.2/index.html">603.2</a>' in page  # parent
    assert 'href="../../../mtg/cr/603.2d/index.html">603.2d</a>' in page  # previous
    assert 'href="../../../mtg/cr/603.2f/index.html">603.2f</a>' in page  # next
    history = re.search(r'<section class="history">.*?</section>', page, re.S)
    assert history is not None
    assert 'href="../../../mtg/cr/v/2025-07-25/603.2f/index.html">603.2f</a>' in history.group(0)
    assert "changes/2025-11-14/index.html#change-cr-603-2e" in history.group(0)
    source = re.search(r'<section class="source".*?</section>', page, re.S)
    assert source is not None
    block = source.group(0)
    assert "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt" in block
    assert "d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85" in block
    assert "962,951" in block and "mtg-cr 2.0" in block and "line 2561–2562" in block
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[\d:]+Z">', block)
    assert "sha256sum source.txt" in block and "--provenance" in block


def test_cited_rules_and_glossary_terms_are_links_both_ways(site: Path) -> None:
    # 702.19c cites 702.19b in its text; 702.19b lists 702.19c among the rules citing it.
    cited = main_of(site / "mtg/cr/702.19c/index.html")
    assert re.search(r'<p class="text">[^<]*<a href="[./]*mtg/cr/702\.19b/index\.html">', cited)
    citing = main_of(site / "mtg/cr/702.19b/index.html")
    cited_by = re.search(r'<section class="cited-by">.*?</section>', citing, re.S)
    assert cited_by is not None and "702.19c/index.html" in cited_by.group(0)
    # The glossary term "Trample" cites 702.19: its page links the term on the contents page.
    trample = main_of(site / "mtg/cr/702.19/index.html")
    assert 'mtg/cr/index.html#glossary-trample">Trample</a>' in trample
    assert 'id="glossary-trample"' in (site / "mtg/cr/index.html").read_text(encoding="utf-8")


def test_old_numbers_redirect_or_say_when_they_were_removed(site: Path, corpus: Path) -> None:
    moved = (site / "mtg/cr/v/2025-07-25/603.2f/index.html").read_text(encoding="utf-8")
    assert (
        '<meta http-equiv="refresh" content="0; url=../../../../../mtg/cr/603.2e/index.html">'
        in (moved)
    )
    # A record merged into another follows it there, not to the number's new occupant.
    merged = main_of(site / "mtg/cr/v/2025-07-25/603.2e/index.html")
    assert 'mtg/cr/603.2d/index.html">603.2d</a>' in merged
    reader = open_corpus(corpus)
    # A rule removed since one of the older versions (2025-11-14 split 500.5 rather than
    # removing it; 2025-07-25 removed 903.12c and gave its number to another rule).
    since, first = next(
        (since, f)
        for since in ("2025-07-25", "2025-02-07")
        for f in follow_version(reader, "mtg/cr", since).values()
        if f.removed_in and f.asked.startswith("cr:")
    )
    number = reader.record("mtg/cr", first.asked, since).number  # type: ignore[union-attr]
    gone = main_of(site / f"mtg/cr/v/{since}/{number}/index.html")
    assert f"Removed in version {first.removed_in}" in gone
    assert "http-equiv" not in (site / f"mtg/cr/v/{since}/{number}/index.html").read_text()


def test_the_batch_follow_agrees_with_the_reader_where_no_record_merged(corpus: Path) -> None:
    reader = open_corpus(corpus)
    merged = {"cr:603.2e"}  # 2025-11-14 merged it into 603.2d: the diff says so, the map not
    for since in ("2025-02-07", "2025-07-25"):
        batch = follow_version(reader, "mtg/cr", since)
        for asked in [*sorted(batch)[::97], "cr:603.2f", "cr:500.4"]:
            if asked in merged or asked not in batch:
                continue
            one = reader.follow("mtg/cr", asked, since=since)
            assert (batch[asked].citation, batch[asked].removed_in) == (
                one.citation,
                one.removed_in,
            ), asked
    assert follow_version(reader, "mtg/cr", "2025-07-25")["cr:603.2e"].citation == "cr:603.2d"


def test_changes_pages_link_each_change_to_its_rule_pages(site: Path) -> None:
    page = main_of(site / "mtg/cr/changes/2025-11-14/index.html")
    article = re.search(
        r'<article class="change reworded[^"]*" id="change-cr-405-4">.*?</article>', page, re.S
    )
    assert article is not None
    assert "<del>person</del>" in article.group(0) and "<ins>player</ins>" in article.group(0)
    assert 'href="../../../../mtg/cr/405.4/index.html">cr:405.4</a>' in article.group(0)
    renumbered = re.search(
        r'<article class="change renumbered[^"]*" id="change-cr-603-2e">.*?</article>', page, re.S
    )
    assert renumbered is not None
    assert 'mtg/cr/v/2025-07-25/603.2f/index.html">cr:603.2f</a>' in renumbered.group(0)
    assert 'href="../../../../mtg/cr/changes/2025-07-25/index.html"' in page  # earlier changes


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        for name in ("href", "src"):
            if values.get(name):
                self.links.append(str(values[name]))
        if tag == "meta" and values.get("http-equiv") == "refresh":
            self.links.append(str(values.get("content", "")).split("url=", 1)[1])
        if tag == "form" and values.get("action"):
            self.links.append(str(values["action"]))


def test_a_crawler_from_the_home_page_finds_no_broken_link(site: Path) -> None:
    parsed: dict[Path, Links] = {}

    def parse(page: Path) -> Links:
        if page not in parsed:
            links = Links()
            links.feed(page.read_text(encoding="utf-8"))
            parsed[page] = links
        return parsed[page]

    queue, seen, broken = [site / "index.html"], {site / "index.html"}, []
    while queue:
        page = queue.pop()
        for link in parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                assert parts.scheme in ("http", "https"), (page, link)  # never file://
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_file() or site.resolve() not in target.parents:
                broken.append((str(page.relative_to(site)), link))
                continue
            fragment_ok = not parts.fragment or target.suffix != ".html"
            if not fragment_ok and parts.fragment not in parse(target).ids:
                broken.append((str(page.relative_to(site)), link))
            if target.suffix == ".html" and target not in seen:
                seen.add(target)
                queue.append(target)
    assert broken == []
    # Every rule page, old number and changes page is reachable from the home page.
    pages = {p.resolve() for p in site.rglob("index.html")}
    assert pages - {p.resolve() for p in seen} == set()
    assert len(seen) > 4000


def test_no_page_names_a_path_of_the_machine_that_built_it(site: Path, corpus: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "file:" not in text and str(corpus.parent) not in text, page


def test_rule_pages_stay_small(site: Path) -> None:
    sizes = {p: p.stat().st_size for p in (site / "mtg/cr").glob("*/index.html")}
    assert len(sizes) > 3000
    biggest = max(sizes, key=sizes.__getitem__)
    assert sizes[biggest] < 30_000, biggest


def test_the_atom_feed_has_the_elements_atom_requires(site: Path) -> None:
    feed = ET.parse(site / "mtg/cr/feed.atom").getroot()
    assert feed.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert (feed.findtext(f"{ATOM}{name}") or "").strip(), name
    assert RFC3339.match(feed.findtext(f"{ATOM}updated") or "")
    assert feed.find(f"{ATOM}author/{ATOM}name") is not None
    entries = feed.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}title") for e in entries] == [
        f"Magic: The Gathering Comprehensive Rules {v}"
        for v in ("2025-11-14", "2025-07-25", "2025-02-07")
    ]
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == 3 and all(i and i.startswith("urn:uuid:") for i in ids)
    for entry in entries:
        assert RFC3339.match(entry.findtext(f"{ATOM}updated") or "")
        link = entry.find(f"{ATOM}link")
        assert link is not None and (site / "mtg/cr" / str(link.get("href"))).is_file()
    assert entries[0].findtext(f"{ATOM}updated") == "2025-11-14T00:00:00Z"
    assert "renumbered" in (entries[0].findtext(f"{ATOM}summary") or "")


def test_the_same_corpus_gives_the_same_bytes_and_a_rerun_rewrites_nothing(
    site: Path, corpus: Path, tmp_path: Path
) -> None:
    again = tmp_path / "again"
    code, output = run_cli("site", str(again), "--corpus", str(corpus))
    assert code == EXIT_OK, output
    assert corpus_digest(again) == corpus_digest(site)
    before = {p: p.stat().st_mtime_ns for p in again.rglob("*") if p.is_file()}
    code, output = run_cli("site", str(again), "--corpus", str(corpus))
    assert code == EXIT_OK and "0 files changed, 0 removed" in " ".join(output.split())
    assert {p: p.stat().st_mtime_ns for p in again.rglob("*") if p.is_file()} == before


def test_a_site_of_fewer_documents_removes_the_pages_it_no_longer_makes(
    site: Path, corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert run_cli("site", str(out), "fab/cr", "--corpus", str(corpus))[0] == EXIT_OK
    assert (out / "fab/cr/1.0.1/index.html").is_file() and not (out / "mtg").exists()
    assert run_cli("site", str(out), "mtg/cr", "--corpus", str(corpus))[0] == EXIT_OK
    assert not (out / "fab").exists() and (out / "mtg/cr/702.19c/index.html").is_file()
    assert "fab/cr" not in (out / "index.html").read_text(encoding="utf-8")


def test_a_folder_the_command_did_not_make_is_refused_and_the_corpus_must_hold_documents(
    corpus: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    code, output = run_cli("site", str(other), "--corpus", str(corpus))
    assert code == EXIT_USAGE and "not a site rulescorpus made" in " ".join(output.split())
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt"]
    code, output = run_cli("site", str(tmp_path / "x"), "nope/cr", "--corpus", str(corpus))
    assert code == EXIT_USAGE and "nope/cr is not in the corpus" in " ".join(output.split())
    code, output = run_cli("site", str(tmp_path / "y"), "--corpus", str(tmp_path / "none"))
    assert code == EXIT_USAGE and "Traceback" not in output and "index.json" in output
    code, output = run_cli("site", str(other), "fab/cr", "--corpus", str(corpus), "--force")
    assert code == EXIT_OK and (other / MARKER).is_file() and (other / "notes.txt").is_file()


def test_import_with_site_shows_hostile_rule_text_as_text_and_the_faq_citing_it(
    tmp_path: Path,
) -> None:
    archive, registry = hostile_archive(tmp_path)
    out = tmp_path / "site"
    code, output = run_cli(
        "import", str(archive), "--corpus", str(tmp_path / "corpus"),
        "--cache", str(tmp_path / "cache"), "--sources", str(registry), "--site", str(out),
    )  # fmt: skip
    assert code == EXIT_OK, output
    page = main_of(out / "hostile/cr/1.1.a/index.html")
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;document.title=&#34;pwned&#34;&lt;/script&gt;" in page
    # The FAQ's answer "Yes, see rule 1.1.a." is listed on that rule's page.
    rulings = re.search(r'<section class="rulings">.*?</section>', page, re.S)
    assert rulings is not None and "Yes, see rule 1.1.a." in rulings.group(0)
    assert "<footer>hostile/faq</footer>" in rulings.group(0)
    other = main_of(out / "hostile/cr/1.1.b/index.html")
    assert "&lt;/main&gt;&lt;b&gt;bold&lt;/b&gt; &amp; &#34;quotes&#34;" in other
    assert (out / MARKER).is_file()


def test_update_with_site_rebuilds_after_a_good_run_and_not_after_a_failed_one(
    tmp_path: Path,
) -> None:
    archive, registry = hostile_archive(tmp_path)
    common = ["--corpus", str(tmp_path / "corpus"), "--cache", str(tmp_path / "cache")]
    common += ["--sources", str(registry)]
    out = tmp_path / "site"
    code, output = run_cli(
        "update", "--mirror", str(tmp_path / "missing"), *common, "--site", str(out)
    )
    assert code not in (0, 10) and not out.exists(), output
    code, output = run_cli(
        "update", "--mirror", str(archive), "--accept", *common, "--site", str(out)
    )
    assert code in (0, 10), output
    assert (out / "hostile/cr/1.1.a/index.html").is_file() and (out / MARKER).is_file()


def test_a_build_that_fails_midway_leaves_a_folder_the_next_run_takes_back(
    tmp_path: Path,
) -> None:
    """A build that stopped after writing some pages left them with no list of its files,
    so the next run refused the folder as "not a site rulescorpus made"."""
    archive, registry = hostile_archive(tmp_path)
    corpus = ["--corpus", str(tmp_path / "corpus")]
    code, output = run_cli(
        "import", str(archive), *corpus, "--cache", str(tmp_path / "cache"),
        "--sources", str(registry),
    )  # fmt: skip
    assert code == EXIT_OK, output
    # A file where the document's folder goes: the first build fails after the home page.
    out = tmp_path / "site"
    out.mkdir()
    (out / "hostile").write_text("in the way")
    code, output = run_cli("site", str(out), *corpus, "--force")
    assert code == EXIT_IO and "Traceback" not in output, output
    assert "hostile" in " ".join(output.split())
    (out / "hostile").unlink()
    code, output = run_cli("site", str(out), *corpus)
    assert code == EXIT_OK, output
    assert (out / "hostile/cr/1.1.a/index.html").is_file()


def test_with_a_base_url_the_feed_links_are_absolute(corpus: Path) -> None:
    reader = open_corpus(corpus)
    site = read_document_site(reader, "fab/cr", [])
    assert site is not None
    feed = ET.fromstring(
        render_page("feed.atom", feed_context(reader, site, "https://rules.example.org/"))
    )
    links = [link.get("href") for link in feed.iter(f"{ATOM}link")]
    assert links[:2] == [
        "https://rules.example.org/fab/cr/feed.atom",
        "https://rules.example.org/fab/cr/index.html",
    ]
    assert "https://rules.example.org/fab/cr/changes/2.14.0/index.html" in links
