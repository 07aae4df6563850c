"""`rulescorpus site OUT`: the corpus of three real MTG text exports and two FaB versions as
a static website. The pages a reader opens hold what the corpus holds (a rule's text, its
links, its history and the bytes it came from), every internal link leads to a page that
exists, the Atom feed carries the elements RFC 4287 requires, the same corpus gives the
same bytes, and a second run rewrites nothing.
"""

from __future__ import annotations

import functools
import json
import os
import re
import xml.etree.ElementTree as ET
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from pipeline.corpus import open_corpus
from pipeline.corpus.site_queries import follow_version
from pipeline.errors import EXIT_IO, EXIT_OK, EXIT_USAGE
from pipeline.site.document_site import read_document_site
from pipeline.site.feed import feed_context
from pipeline.site.output import MARKER
from pipeline.site.render import render_page
from tests.support.helpers import corpus_digest
from tests.support.mtg_sources import copy_tree
from tests.support.site_support import built_site, hostile_archive, run_cli, site_corpus

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


def test_old_numbers_show_their_old_text_then_lead_to_the_current_rule(
    site: Path, corpus: Path
) -> None:
    moved = main_of(site / "mtg/cr/v/2025-07-25/603.2f/index.html")
    assert "This is the rule as of 2025-07-25; the current rule is" in moved
    assert 'href="../../../../../mtg/cr/603.2e/index.html">603.2e</a>' in moved
    assert "Some trigger events use the word “becomes”" in moved
    assert "changes/2025-11-14/index.html#change-cr-603-2e" in moved
    # A record merged into another follows it there, not to the number's new occupant.
    merged = main_of(site / "mtg/cr/v/2025-07-25/603.2e/index.html")
    assert 'mtg/cr/603.2d/index.html">603.2d</a>' in merged
    reader = open_corpus(corpus)
    # A rule a later release really removed (903.12c, gone in 2025-07-25).
    removed = [
        (version, f)
        for version in ("2025-07-25", "2025-02-07")
        for f in follow_version(reader, "mtg/cr", version).values()
        if f.removed_in
    ]
    assert removed, "no stored release removes a rule"
    version, gone_rule = removed[0]
    number = reader.record("mtg/cr", gone_rule.asked, version).number  # type: ignore[union-attr]
    gone = main_of(site / f"mtg/cr/v/{version}/{number}/index.html")
    assert f"it was removed in version {gone_rule.removed_in}" in gone
    assert "http-equiv" not in (site / f"mtg/cr/v/{version}/{number}/index.html").read_text()
    # The contents of an older version is a page too.
    index = main_of(site / "mtg/cr/v/2025-07-25/index.html")
    assert "These are the contents as of version 2025-07-25" in index
    assert 'href="../../../../mtg/cr/v/2025-07-25/100/index.html">100</a>' in index


def shown_text(corpus: Path, number: str, version: str) -> str:
    """`rulescorpus show NUMBER --doc mtg/cr --version VERSION` up to its Source block, in
    the words a page shows: the citation id read as the rule's number."""
    code, output = run_cli("--corpus", str(corpus), "show", number, "--doc", "mtg/cr",
                           "--version", version)  # fmt: skip
    assert code == EXIT_OK, output
    body = output.split("\nSource\n", 1)[0]
    return " ".join(re.sub(r"\bcr:(\S+)", r"\1", body).split())


def page_text(html: str) -> str:
    article = re.search(r'<article class="rule old-rule".*?</article>', html, re.S)
    assert article is not None
    body = re.sub(r'<p class="(doc-line|banner)".*?</p>', "", article.group(0), flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", body)).split())


def test_every_old_version_page_shows_the_words_show_prints(site: Path, corpus: Path) -> None:
    reader = open_corpus(corpus)
    checked = 0
    for version in ("2025-02-07", "2025-07-25"):
        records = list(reader.records("mtg/cr", version))
        parents = {r.parent for r in records}
        leaves_below = {r.parent for r in records if r.id not in parents}
        for rule in records[::41]:
            grand = any(r.parent == rule.id and r.id in parents for r in records)
            page = site / "mtg/cr/v" / version / rule.number / "index.html"
            html = page.read_text(encoding="utf-8")
            if (
                "http-equiv" in html
                or grand
                or (rule.id in parents and rule.id not in leaves_below)
            ):
                continue  # a light page leads on; `show` prints one level of children
            words = page_text(html)
            assert words == shown_text(corpus, rule.number, version), page
            checked += 1
    assert checked >= 10
    light = (site / "mtg/cr/v/2025-07-25/702.19/index.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh" content="0; url=../../../../../mtg/cr/702.19/index.html"' in light


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
    assert 'href="../../../../mtg/cr/405.4/index.html">405.4</a>' in article.group(0)
    assert "405.4 was reworded." in article.group(0) and "cr:" not in article.group(0)
    renumbered = re.search(
        r'<article class="change renumbered[^"]*" id="change-cr-603-2e">.*?</article>', page, re.S
    )
    assert renumbered is not None
    assert 'mtg/cr/v/2025-07-25/603.2f/index.html">603.2f</a>' in renumbered.group(0)
    assert "603.2f was renumbered: it is now 603.2e." in renumbered.group(0)
    words = re.sub(r"<[^>]+>", " ", page)
    assert "reference-only" not in words and "paired by" not in words and "cr:" not in words
    assert re.search(r"<details class=\"evidence\"><summary>[^<]+</summary><p>\d+% of", page)
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


def test_the_tournament_documents_stand_beside_the_rules_and_link_to_them(site: Path) -> None:
    """The documents judges read beside the Comprehensive Rules are on Magic's page, and a
    citation of another document links to that document's rule page."""
    game = main_of(site / "mtg/index.html")
    for document in ("cr", "mtr", "ipg", "jar"):
        assert f'href="../mtg/{document}/index.html"' in game, document
    links: dict[str, set[str]] = {"cr": set(), "mtr": set()}
    for page in [
        *(site / "mtg/mtr").glob("*/index.html"),
        *(site / "mtg/ipg").glob("*/index.html"),
    ]:
        for target in re.findall(r'href="([^"]+)"', main_of(page)):
            where = (page.parent / target).resolve()
            for document in links:
                if f"/mtg/{document}/" in where.as_posix() and page.parts[-3] != document:
                    assert where.is_file(), (page, target)
                    links[document].add(where.parent.name)
    assert "103.4" in links["cr"]  # the Tournament Rules cite a Comprehensive Rule
    assert "4.3" in links["mtr"]  # the Infraction Procedure Guide cites the Tournament Rules


def test_a_crawler_from_the_home_page_finds_no_broken_link(site: Path) -> None:
    parsed: dict[Path, Links] = {}

    def parse(page: Path) -> Links:
        if page not in parsed:
            links = Links()
            links.feed(page.read_text(encoding="utf-8"))
            parsed[page] = links
        return parsed[page]

    # The site holds no symbolic link, so a link's normalised path is where it leads: no
    # link can leave the folder through one, and each target is looked up once.
    root = site.resolve()
    assert [p for p in root.rglob("*") if p.is_symlink()] == []
    inside = functools.cache(lambda path: path.startswith(f"{root}/") and Path(path).is_file())
    # Light pages (a version's text standing unchanged later) lead on and are crawled too.
    light = [p for p in root.rglob("index.html") if 'http-equiv="refresh"' in p.read_text()]
    queue, seen, broken = [root / "index.html", *light], {root / "index.html", *light}, []
    while queue:
        page = queue.pop()
        for link in parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                assert parts.scheme in ("http", "https"), (page, link)  # never file://
                continue
            path = os.path.normpath(page.parent / unquote(parts.path)) if parts.path else None
            target = Path(path) if path else page
            if path is not None and not inside(path):
                broken.append((str(page.relative_to(root)), link))
                continue
            fragment_ok = not parts.fragment or target.suffix != ".html"
            if not fragment_ok and parts.fragment not in parse(target).ids:
                broken.append((str(page.relative_to(root)), link))
            if target.suffix == ".html" and target not in seen:
                seen.add(target)
                queue.append(target)
    assert broken == []
    # Every rule page, old version's page and changes page is reachable from the home page.
    assert set(root.rglob("index.html")) - seen == set()
    assert len(seen) > 4000


def test_no_page_names_a_path_of_the_machine_that_built_it(site: Path, corpus: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "file:" not in text and str(corpus.parent) not in text, page


def test_rule_pages_stay_small(site: Path) -> None:
    sizes = {p: p.stat().st_size for p in (site / "mtg/cr").glob("*/index.html")}
    assert len(sizes) > 3000
    biggest = max(sizes, key=sizes.__getitem__)
    # A chapter shows its whole text (chapter 8 is the largest); a section of over two
    # hundred rules lists the rules directly under it.
    assert sizes[biggest] < 120_000, biggest
    assert (site / "mtg/cr/702/index.html").stat().st_size < 120_000


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
    # A rebuild renders every page again and compares its bytes with the digests the
    # first build listed: over a copy of that build, "0 files changed" says each page came
    # out the same bytes, and the copy's files are left untouched.
    again = tmp_path / "again"
    copy_tree(site, again)
    before = {p: p.stat().st_mtime_ns for p in again.rglob("*") if p.is_file()}
    code, output = run_cli("site", str(again), "--corpus", str(corpus))
    assert code == EXIT_OK and "0 files changed, 0 removed" in " ".join(output.split())
    assert {p: p.stat().st_mtime_ns for p in again.rglob("*") if p.is_file()} == before
    assert corpus_digest(again) == corpus_digest(site)


def test_a_site_of_fewer_documents_removes_the_pages_it_no_longer_makes(
    site: Path, corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert run_cli("site", str(out), "fab/cr", "--corpus", str(corpus))[0] == EXIT_OK
    assert (out / "fab/cr/1.0.1/index.html").is_file() and not (out / "mtg").exists()
    # Another small document second (MTG's rules are the largest to build).
    assert run_cli("site", str(out), "netrunner/cr", "--corpus", str(corpus))[0] == EXIT_OK
    assert not (out / "fab").exists() and (out / "netrunner/cr/feed.atom").is_file()
    home = (out / "index.html").read_text(encoding="utf-8")
    assert "fab/cr" not in home and "netrunner/cr" in home


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
    assert 'hostile/faq/rulings/542df912c74a9f0c/index.html">Hostile FAQ</a></footer>' in (
        rulings.group(0)
    )
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


def test_a_rule_page_shows_its_whole_subtree_with_anchors_and_example_labels(site: Path) -> None:
    page = main_of(site / "mtg/cr/702.19/index.html")
    assert (
        '<h1 data-pagefind-meta="title:702.19 Trample"><span class="number">702.19</span> Trample'
        in page
    )
    for letter in "abcdefg":
        assert f'<section class="subrule depth-1" id="702.19{letter}">' in page
    assert page.count('<span class="label">Example:</span>') == 3
    assert "…" not in page
    assert "further excess damage may be assigned as the attacking creature’s controller" in page
    sub = main_of(site / "mtg/cr/702.19c/index.html")
    assert 'in <a href="../../../mtg/cr/702.19/index.html">702.19 Trample</a>' in sub
    assert 'data-pagefind-meta="title:702.19c (702.19 Trample)"' in sub


def test_ranges_and_bare_references_are_links(site: Path) -> None:
    cast = main_of(site / "mtg/cr/601.2/index.html")
    assert (
        '<a href="../../../mtg/cr/601.2a/index.html">601.2a</a>–'
        '<a href="../../../mtg/cr/601.2d/index.html">d</a>'
    ) in cast
    assert '<a href="../../../mtg/cr/601.2h/index.html">h</a>' in cast
    prototype = main_of(site / "mtg/cr/702.160a/index.html")
    assert 'See <a href="../../../mtg/cr/718/index.html">718</a>, “Prototype Cards.”' in prototype


def test_version_dates_come_from_the_corpus_and_keep_the_versions_order(
    site: Path, corpus: Path, tmp_path: Path
) -> None:
    """25.04 and 22.12 of the Netrunner rules state no date: their feed times were the
    time of the import, which sorted them above 26.03 (which states 2026-03-02)."""
    feed = ET.parse(site / "netrunner/cr/feed.atom").getroot()
    entries = feed.findall(f"{ATOM}entry")
    titles = [str(e.findtext(f"{ATOM}title")).rsplit(" ", 1)[1] for e in entries]
    times = [str(e.findtext(f"{ATOM}updated")) for e in entries]
    assert titles == ["26.03", "25.04", "22.12"]
    assert times[0] == "2026-03-02T00:00:00Z" and times == sorted(times, reverse=True)
    assert len(set(times)) == 3 and feed.findtext(f"{ATOM}updated") == times[0]
    again = tmp_path / "again"
    assert run_cli("site", str(again), "netrunner/cr", "--corpus", str(corpus))[0] == EXIT_OK
    assert (again / "netrunner/cr/feed.atom").read_bytes() == (
        site / "netrunner/cr/feed.atom"
    ).read_bytes()


def test_a_ruling_has_a_page_with_the_cards_name_its_linked_rules_source_and_date(
    site: Path,
) -> None:
    pages = [
        p for p in (site / "netrunner/rulings/rulings").glob("*/index.html")
        if "Mirrormorph were already pending" in p.read_text(encoding="utf-8")
    ]  # fmt: skip
    assert len(pages) == 1
    page = main_of(pages[0])
    assert '<h1 class="cards">Mirrormorph</h1>' in page
    assert "mirrormorph_endless_iteration" not in page
    assert 'as per rule <a href="../../../../netrunner/cr/5.4.3b/index.html">5.4.3b</a>' in page
    assert '<a href="http://nisei.net/products/Downfall/DFReleaseNotes' in page
    assert '<time datetime="2019-04-27">2019-04-27</time>' in page
    assert (site / "netrunner/cr/5.4.3b/index.html").is_file()
    cited = main_of(site / "netrunner/cr/5.4.3b/index.html")
    assert f'netrunner/rulings/rulings/{pages[0].parent.name}/index.html">Mirrormorph</a>' in cited


def test_search_indexes_each_page_with_its_game_and_document(site: Path) -> None:
    page = (site / "mtg/cr/702.19b/index.html").read_text(encoding="utf-8")
    assert (
        '<span data-pagefind-meta="source:Magic: The Gathering · '
        'Magic: The Gathering Comprehensive Rules"></span>'
    ) in page
    search = (site / "search/index.html").read_text(encoding="utf-8")
    indexes = json.loads(re.findall(r'id="search-indexes">(.*?)</script>', search)[0])
    assert {"bundlePath": "pagefind/netrunner/cr/", "mergeFilter": {
        "document": ["Netrunner Comprehensive Rules (YAML source)"], "game": ["Netrunner"]
    }} in indexes  # fmt: skip
    for index in indexes:
        assert (site / index["bundlePath"] / "pagefind-entry.json").is_file()
    assert '<input type="hidden" name="document" value="Magic: The Gathering Comprehensive' in page
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'name="document"' not in home


def test_the_contents_list_is_numbered_once(site: Path) -> None:
    """The contents were an ordered list of numbered rules: a phone showed
    "17. 116 Special Actions"."""
    page = main_of(site / "mtg/cr/index.html")
    contents = re.search(r'<section id="contents".*?</section>', page, re.S)
    assert contents is not None and "<ol" not in contents.group(0)
    assert '<ul class="contents">' in contents.group(0)
    assert 'mtg/cr/116/index.html">116</a> Special Actions' in contents.group(0)


def test_a_game_page_shows_its_documents_side_by_side(site: Path) -> None:
    page = main_of(site / "netrunner/index.html")
    assert "<h1>Netrunner</h1>" in page and '<ul class="documents side-by-side">' in page
    assert 'href="../netrunner/cr/index.html">Netrunner Comprehensive Rules' in page
    assert 'href="../netrunner/rulings/index.html">NetrunnerDB rulings</a>' in page
    home = main_of(site / "index.html")
    assert '<h2><a href="netrunner/index.html">Netrunner</a></h2>' in home
    crumbs = (site / "netrunner/cr/index.html").read_text(encoding="utf-8")
    assert '<li><a href="../../netrunner/index.html">Netrunner</a></li>' in crumbs
