"""fab-html: the FaB rules site's pages (the 2.10.1 prototype) against the 2.10.1 text export.

The real pages are read from ../shared/sources, checked against the manifest's
SHA-256, bundled as a fetch would bundle them, and parsed; the cross-rendition
check is the project's own (pipeline.verify.checks.compare_renditions).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re

import pytest

from pipeline.errors import ExtractError, ParseError
from pipeline.extract.fab_html import list_site_pages, read_rules_site
from pipeline.extract.text import extract_text_lines
from pipeline.models.bundles import BundleError, build_site_bundle, canonical_page_url
from pipeline.models.content import RulesSite
from pipeline.models.records import Document, ParseOptions
from pipeline.parse.fab import cr as fab_txt
from pipeline.parse.fab import html as fab_html
from pipeline.parse.lint import lint_parsed
from pipeline.runner.families import engine_neutral, parse_bytes
from pipeline.runner.request import ParseRequest
from pipeline.verify.checks import compare_renditions
from tests.support.helpers import SHARED

INDEX = "https://rules.fabtcg.com/en/cr/index.html"
TXT_2_10 = SHARED / "fab" / "comprehensive-rules" / "2.10.1" / "en-fab-cr-2.10.1-20250519212741.txt"
ICON_IMG = re.compile(rb"<img [^>]*src=\"[^\"]*/icon_([a-z])\.png\"")
TOKEN = re.compile(r"\{[a-z]\}")


@functools.cache
def real_pages() -> dict[str, bytes]:
    """The pages the manifest lists for the HTML rendition, each checked against its hash."""
    entries = json.loads((SHARED / "manifest.json").read_text(encoding="utf-8"))
    pages: dict[str, bytes] = {}
    for entry in entries:
        if (entry["game"], entry["document"]) != ("fab", "comprehensive-rules-html"):
            continue
        data = (SHARED / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["path"]
        pages[entry["url"]] = data
    assert len(pages) == 11
    return pages


@functools.cache
def real_bundle() -> bytes:
    return build_site_bundle(INDEX, real_pages())


@functools.cache
def html_doc(version: str | None = None) -> Document:
    return fab_html.parse(
        read_rules_site(real_bundle(), what="fab-cr-html"),
        {},
        ParseOptions("fab/cr", "html", version),
    )


@functools.cache
def txt_doc() -> Document:
    lines = extract_text_lines(TXT_2_10.read_bytes())
    return fab_txt.parse(lines, {}, ParseOptions("fab/cr", "txt", "2.10.1"))


# --------------------------------------------------------------------------- the real pages


def test_the_pages_are_read_in_the_order_the_index_lists_them() -> None:
    listed = list_site_pages(real_pages()[INDEX], INDEX, what="index")
    assert [u.removeprefix("https://rules.fabtcg.com/en/cr/") for u in listed] == [
        "index.html",
        *(
            f"{name}/index.html"
            for name in (
                "01-game-concepts",
                "02-object-properties",
                "03-zones",
                "04-game-structure",
                "05-layers-cards-abilities",
                "06-effects",
                "07-combat",
                "08-keywords",
                "09-additional-rules",
                "glossary",
                "acknowledgments",
            )
        ),
    ]
    site = read_rules_site(real_bundle(), what="bundle")
    assert [p.url for p in site.pages] == listed[:-1]
    # the index names an acknowledgments page the prototype's deploy does not hold
    assert site.missing == ("https://rules.fabtcg.com/en/cr/acknowledgments/index.html",)
    doc = html_doc()
    assert doc.records[0].id == "cr:1" and doc.records[0].location.page == 2
    assert [r.id for r in doc.records if r.kind == "chapter"] == [f"cr:{n}" for n in range(1, 10)]


def test_the_bundle_is_the_same_bytes_whatever_order_the_pages_come_in() -> None:
    pages = real_pages()
    backwards = dict(reversed(list(pages.items())))
    assert build_site_bundle(INDEX, backwards) == real_bundle()


def test_counts_and_ids_equal_the_text_export_and_the_anchors() -> None:
    doc, txt = html_doc(), txt_doc()
    assert doc.counts == {
        "chapters": 9,
        "sections": 86,
        "rules": 524,
        "subrules": 606,
        "records": 1225,
        "glossary": 261,
    }
    assert [r.id for r in doc.records] == [r.id for r in txt.records]
    # an independent count: the rule anchors in the raw bytes of the chapter pages
    anchors = [
        f"cr:{m.decode()}"
        for url, data in real_pages().items()
        if re.search(r"/0\d-", url)
        for m in re.findall(rb"<h[1-4] id=\"cr([0-9][0-9a-z.]*)\"", data)
    ]
    assert sorted(anchors) == sorted(r.id for r in doc.records)


def test_the_html_agrees_with_the_text_export_on_every_record() -> None:
    """Every id and every text agree, after icon mapping."""
    doc, txt = html_doc(), txt_doc()
    # The check agrees record for record: 2.10.1's text export is reviewed to lack the
    # glossary (verify.checks.REVIEWED_GAPS), so that part is compared only where both have it.
    assert compare_renditions(txt, doc, "txt", "html") == []
    assert compare_renditions(txt, doc.model_copy(update={"glossary": []}), "txt", "html") == []
    # Without that review (a version the gap is not listed for), what it finds is exactly
    # the glossary the text export does not carry.
    assert txt.glossary == []
    unreviewed = txt.model_copy(update={"version": None})
    problems = compare_renditions(unreviewed, doc, "txt", "html")
    assert problems == [f"{g.id}: only in html" for g in doc.glossary]
    # Byte for byte, the texts differ only where the export doubles a space the
    # HTML collapses (8 records); references agree exactly.
    by_id = {r.id: r for r in txt.records}
    differing = []
    for rule in doc.records:
        other = by_id[rule.id]
        assert rule.references == other.references, rule.id
        assert (rule.kind, rule.parent, rule.depth) == (other.kind, other.parent, other.depth)
        for part in ("title", "text", "examples", "notes", "bullets"):
            if getattr(rule, part) != getattr(other, part):
                assert "  " in json.dumps(getattr(other, part)), (rule.id, part)
                differing.append(rule.id)
    assert len(differing) == 8


def test_every_icon_is_written_back_as_the_export_s_token() -> None:
    doc, txt = html_doc(), txt_doc()
    images = [m for data in real_pages().values() for m in ICON_IMG.findall(data)]
    assert doc.extraction["icons_mapped"] == len(images) == 215
    texts = [s for r in doc.records for s in (r.text, *r.examples, *r.notes, *r.bullets)] + [
        g.definition for g in doc.glossary
    ]
    tokens = [t for s in texts for t in TOKEN.findall(s)]
    assert len(tokens) == 215 and set(tokens) == {"{r}", "{p}", "{d}", "{i}", "{h}", "{c}"}
    assert not any("icon_" in s or "<img" in s for s in texts)
    lunging = next(r for r in doc.records if r.id == "cr:1.2.2")
    assert '"Target attack action card gains +1{p},"' in lunging.examples[0]
    txt_tokens = [
        t
        for r in txt.records
        for s in (r.text, *r.examples, *r.notes, *r.bullets)
        for t in TOKEN.findall(s)
    ]
    glossary_tokens = [t for g in doc.glossary for t in TOKEN.findall(g.definition)]
    assert len(txt_tokens) + len(glossary_tokens) == 215


def test_keywords_examples_notes_bullets_and_glossary() -> None:
    records = {r.id: r for r in html_doc().records}
    action = records["cr:8.1.1"]
    assert action.title == "Action" and action.text == "An action card is a deck-card.[1.3.2c]"
    assert action.references == ["cr:1.3.2c"]
    assert len(records["cr:1.0.2"].examples) == 2
    assert records["cr:1.5.1"].notes[0].startswith("A macro is not a card")
    assert records["cr:2.1.2"].bullets[0].startswith("A card with a red color strip")
    assert len(records["cr:6.3.2"].bullets) == 8
    glossary = html_doc().glossary
    page = next(p for url, p in real_pages().items() if "/glossary/" in url)
    anchors = [a.decode() for a in re.findall(rb"<h3 id=\"([^\"]+)\"", page)]
    assert [g.id for g in glossary] == [f"glossary:{a}" for a in anchors]  # ids = anchors
    cost = next(g for g in glossary if g.id == "glossary:additional-cost")
    assert cost.definition == (
        "ability: A meta-static ability that adds a cost to playing a card.[5.4.4a]\n"
        "phrase: An effect that adds a cost to playing a card.[5.1.3]"
    )
    assert cost.references == ["cr:5.4.4a", "cr:5.1.3"]
    assert [p.id for p in html_doc().front_matter] == ["front:preface"]


def test_the_pages_state_no_version_so_none_is_taken() -> None:
    doc = html_doc()
    assert doc.version is None and doc.published is None
    assert doc.title == "FAB Comprehensive Rules"
    codes = [w.code for w in doc.warnings]
    # the same three unlabelled paragraphs the text export's parser warns about
    assert sorted(codes) == sorted(["no-version", "page-missing"] + ["unlabelled-paragraph"] * 3)
    assert sorted(w.message for w in doc.warnings if w.code == "unlabelled-paragraph") == sorted(
        w.message for w in txt_doc().warnings if w.code == "unlabelled-paragraph"
    )
    given = html_doc("2.10.1")
    assert given.version == "2.10.1" and "no-version" not in [w.code for w in given.warnings]


def test_the_family_table_parses_the_bundle_bytes_the_same_way() -> None:
    request = ParseRequest(
        family="fab-html", document="fab/cr", rendition="html", what="bundle", version="2.10.1"
    )
    doc = parse_bytes(real_bundle(), request)
    # the entry point adds what no parser knows: the engine, and the lint's findings
    assert doc.parser.engine == "beautifulsoup4 html.parser"
    direct = lint_parsed(html_doc("2.10.1"))
    assert engine_neutral(doc).model_dump_json() == direct.model_dump_json()
    assert doc.parser.family == "fab-html" and doc.version == "2.10.1"
    assert compare_renditions(txt_doc(), doc.model_copy(update={"glossary": []})) == []


def test_parsing_is_deterministic() -> None:
    site = read_rules_site(real_bundle(), what="again")
    assert (
        fab_html.parse(site, {}, ParseOptions("fab/cr", "html")).model_dump_json()
        == html_doc().model_dump_json()
    )


# --------------------------------------------------------------------------- bundles and pages


def _page(
    body: str, title: str = "FAB Comprehensive Rules – Test - Flesh and Blood", nav: str = ""
) -> bytes:
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<nav class='md-nav md-nav--primary'><ul>{nav}</ul></nav>"
        f"<article class='md-content__inner md-typeset'>{body}</article></body></html>"
    ).encode()


BASE = "https://example.test/en/cr/"
NAV = (
    "<li><a href='..'>Home</a></li><li><a href='./'>Preface</a></li>"
    "<li><a href='01-one/'>1. One</a></li><li><a href='glossary/'>Glossary</a></li>"
)
CHAPTER = (
    "<h1 id='cr1'>1 One<a class='headerlink' href='#cr1'>§</a></h1>"
    "<h2 id='cr1.0'>1.0 General</h2>"
    "<h3 id='cr1.0.1'>1.0.1 Pay <span class='inline-icon'><img src='/img/icon_r.png' "
    "alt='{r}' title='Resource'></span> to draw.<sup><a href='../01-one/#cr1.0.2'>[1.0.2]</a>"
    "</sup></h3>"
    "<h3 id='cr1.0.2'>1.0.2 <strong>Go Again</strong></h3><p>Go again is a keyword.</p>"
    "<blockquote><p><strong>Example:</strong> Gain 1<img src='/img/icon_p.png' alt='{p}'>.</p>"
    "<p><strong>Note</strong>: A note.</p></blockquote>"
    "<h4 id='cr1.0.2a'>1.0.2a A subrule.</h4><ul><li>first</li><li>second</li></ul>"
)
GLOSSARY = (
    "<h1 id='glossary'>Glossary</h1><h3 id='go-again'><strong>Go Again</strong></h3>"
    "<p>A keyword.<sup><a href='../01-one/#cr1.0.2'>[1.0.2]</a></sup></p>"
)
PREFACE = "<h1 id='preface'>Preface</h1><p>Hello.</p>"


def small_site(
    index_body: str = "<h1 id='preface'>Preface</h1><p>Hello.</p>", **extra: bytes
) -> dict[str, bytes]:
    pages = {
        BASE + "index.html": _page(index_body, nav=NAV),
        BASE + "01-one/": _page(CHAPTER),
        BASE + "glossary/index.html": _page(GLOSSARY),
    }
    pages.update(extra)
    return pages


def parse_pages(pages: dict[str, bytes]) -> Document:
    site = read_rules_site(build_site_bundle(BASE, pages), what="t")
    return fab_html.parse(site, {}, ParseOptions("fab/cr", "html"))


def test_a_small_site_reads_anchors_icons_labels_and_links() -> None:
    doc = parse_pages(small_site())
    records = {r.id: r for r in doc.records}
    assert list(records) == ["cr:1", "cr:1.0", "cr:1.0.1", "cr:1.0.2", "cr:1.0.2a"]
    assert records["cr:1"].title == "One"  # the permalink marker is not text
    assert records["cr:1.0.1"].text == "Pay {r} to draw.[1.0.2]"
    assert records["cr:1.0.1"].references == ["cr:1.0.2"]
    keyword = records["cr:1.0.2"]
    assert (keyword.title, keyword.text) == ("Go Again", "Go again is a keyword.")
    assert keyword.examples == ["Gain 1{p}."] and keyword.notes == ["A note."]
    assert records["cr:1.0.2a"].bullets == ["first", "second"]
    assert records["cr:1.0.2a"].parent == "cr:1.0.2" and records["cr:1.0.2a"].depth == 4
    assert [(g.id, g.definition, g.references) for g in doc.glossary] == [
        ("glossary:go-again", "A keyword.[1.0.2]", ["cr:1.0.2"])
    ]
    assert doc.extraction == {"pages": 3, "icons_mapped": 2}
    assert [w.code for w in doc.warnings] == ["no-version"]


def test_a_version_the_pages_state_is_read_and_wins_over_the_callers() -> None:
    pages = small_site("<h1 id='preface'>Preface</h1><p>Comprehensive Rules Version 2.14.0</p>")
    site = read_rules_site(build_site_bundle(BASE, pages), what="t")
    assert fab_html.parse(site, {}, ParseOptions("fab/cr", "html")).version == "2.14.0"
    doc = fab_html.parse(site, {}, ParseOptions("fab/cr", "html", "2.13.0"))
    assert doc.version == "2.14.0" and [w.code for w in doc.warnings] == ["version-mismatch"]


def test_unknown_or_contradictory_icons_anchor_and_level_mismatches_are_warned() -> None:
    chapter = (
        CHAPTER.replace("icon_p.png' alt='{p}'", "icon_p.png' alt='{h}'")
        .replace("<h4 id='cr1.0.2a'>1.0.2a", "<h3 id='cr1.0.2a'>1.0.2b")
        .replace("A subrule.</h4>", "A subrule.</h3>")
    )
    chapter += "<p>Stray <img src='/img/logo.png' alt='logo'> text.</p>"
    doc = parse_pages(small_site(**{BASE + "01-one/": _page(chapter)}))
    codes = sorted(w.code for w in doc.warnings)
    assert codes == [
        "anchor-mismatch",
        "heading-level",
        "no-version",
        "unknown-icon",
        "unknown-icon",
        "unlabelled-paragraph",
    ]
    subrule = next(r for r in doc.records if r.id == "cr:1.0.2a")
    assert subrule.text == "1.0.2b A subrule.\nStray logo text."  # the number as printed


def test_a_tampered_or_padded_bundle_is_refused() -> None:
    bundle = json.loads(build_site_bundle(BASE, small_site()))
    chapter = next(p for p in bundle["pages"] if "Pay" in p["html"])
    chapter["html"] = chapter["html"].replace("Pay", "Don't pay")
    with pytest.raises(ExtractError, match="hashes to"):
        read_rules_site(json.dumps(bundle).encode(), what="t")
    extra = small_site(**{BASE + "secret/index.html": _page(CHAPTER)})
    with pytest.raises(ExtractError, match="does not list"):
        read_rules_site(build_site_bundle(BASE, extra), what="t")
    with pytest.raises(BundleError, match="index page"):
        build_site_bundle(BASE, {BASE + "01-one/": _page(CHAPTER)})


def test_a_page_the_index_lists_but_the_bundle_lacks_is_a_warning() -> None:
    pages = small_site()
    del pages[BASE + "glossary/index.html"]
    doc = parse_pages(pages)
    assert doc.glossary == []
    assert [w.code for w in doc.warnings] == ["no-version", "page-missing"]
    assert canonical_page_url(BASE + "glossary/#x") == BASE + "glossary/index.html"


def test_a_site_with_no_rule_anchors_is_an_error_not_an_empty_document() -> None:
    pages = {BASE + "index.html": _page("<h1>Preface</h1><p>Hi.</p>", nav=NAV)}
    site = read_rules_site(build_site_bundle(BASE, pages), what="t")
    with pytest.raises(ParseError, match="no chapter found"):
        fab_html.parse(site, {}, ParseOptions("fab/cr", "html"))
    with pytest.raises(ExtractError, match="navigation"):
        list_site_pages(b"<html><body><p>no nav</p></body></html>", BASE, what="t")


def test_plain_html_bytes_are_a_site_of_one_page() -> None:
    site = read_rules_site(_page(CHAPTER), what="t")
    assert isinstance(site, RulesSite) and site.index is None and len(site.pages) == 1
    doc = fab_html.parse(site, {}, ParseOptions("fab/cr", "html", "0.0.1"))
    assert doc.counts["records"] == 5 and doc.warnings == []
