"""`nsg-html`: Null Signal Games' CR web page, on pages the tests generate.

No real bytes of https://rules.nullsignal.games/ exist offline. The pages here are made
the way NSG's generator makes them (github.com/rubenpieters/netrunner-comprehensive-rules:
`rules_doc_generator/model/main.py` standalone_html, `model/section.py` and `model/text.py`
to_html, numbers from `model/analysis/references.py`), by a small port written for this
test from the real YAML bundles in ../shared/sources, independent of the parser. The
parsed page must then agree with the `nsg-yaml` rendition of the same bundle record for
record: the cross-rendition check `update` runs when both renditions are fetched.
"""

from __future__ import annotations

import calendar
import re
import string
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from pipeline.errors import DiscoveryError, ExtractError
from pipeline.extract.html import list_links
from pipeline.extract.tarball import read_archive_commit, read_tar_members
from pipeline.fetch.discover import find_link
from pipeline.fetch.http import Fetcher
from pipeline.fetch.policy import FetchPolicy
from pipeline.models.records import Document
from pipeline.registry.loader import load_registry
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest
from pipeline.store.blobs import BlobStore
from pipeline.verify.checks import compare_renditions
from tests.support.helpers import SHARED
from tests.support.server import Reply, ScriptedServer

BUNDLES = SHARED / "netrunner" / "comprehensive-rules-yaml-source"
LETTERS = string.ascii_lowercase[:14]
SYMBOLS = [
    ("[c]", "credit"),
    ("[click]", "click"),
    ("[recurring]", "recurring"),
    ("[link]", "link"),
    ("[MU]", "mu"),
    ("[sub]", "sub"),
    ("[trash]", "trash"),
    ("[interrupt]", "interrupt"),
    ("[trashcost]", "trashcost"),
]


def bundle_bytes(version: str) -> bytes:
    return (BUNDLES / version / f"nsg-cr-yaml-v{version}.tar.gz").read_bytes()


# --------------------------------------------------------------------------- the generator


class Generator:
    """The generator's HTML output for one bundle's YAML (its newest page shape)."""

    def __init__(self, files: dict[str, Any], changelog: list[Any], version: str, date: str):
        self.chapters = [files[p] for p in sorted(files)]
        self.changelog = changelog
        self.version, self.date = version, date
        self.refs: dict[str, tuple[str, str]] = {}
        self.cards: dict[str, int] = {}
        for c, chapter in enumerate(self.chapters, start=1):
            self.refs[chapter["chapter"]] = (str(c), "section")
            for s, section in enumerate(chapter["sections"], start=1):
                self.refs[section["section"]] = (f"{c}.{s}", "section")
                kind = "step" if "steps" in section else "rule"
                for k, element in enumerate(section.get("rules") or [], start=1):
                    if "rule" in element:
                        self.refs[element["rule"]] = (f"{c}.{s}.{k}", kind)
                    elif "subsection" in element:
                        steps = "steps" in element
                        self.refs[element["subsection"]] = (
                            f"{c}.{s}.{k}",
                            "step" if steps else "section",
                        )
                        for j, sub in enumerate(element.get("rules") or []):
                            self.refs[sub["rule"]] = (
                                f"{c}.{s}.{k}{LETTERS[j]}",
                                "step" if steps else "rule",
                            )

    def text(self, source: str) -> str:
        source = source.rstrip()
        for token, name in SYMBOLS:
            source = source.replace(token, "{img:" + name + "}")
        return "".join(self.piece(p) for p in re.split(r"[{}]", source))

    def piece(self, s: str) -> str:
        if s.startswith("ref:"):
            return self.ref(s[4:].lower().split(","), s[4:5].isupper(), "and")
        if s.startswith("ref/"):
            combiner, *ids = re.split(":|,", s[4:].lower())
            return self.ref(ids, False, combiner)
        if s.startswith("img:"):
            return f'<img class="Symbol" src="{s[4:]}.svg" alt="{s[4:]}"/>'
        for prefix, cls in (("term:", "Term"), ("subtype:", "SubType"), ("product:", "Product")):
            if s.startswith(prefix):
                return f'<span class="{cls}">{s[len(prefix) :]}</span>'
        if s.startswith("card:"):
            ident = 30000 + self.cards.setdefault(s[5:], len(self.cards))
            return (
                f'<a class="Thumbnail Card" href="https://netrunnerdb.com/en/card/{ident}">'
                f'{s[5:]}<span class="ThumbnailImageContainer"><img src="preview_placeholder'
                f'.jpg" data-src="https://card-images.netrunnerdb.com/v2/large/{ident}.jpg" />'
                "</span></a>"
            )
        if s.startswith("link:"):
            text, link = s[5:].lower().split("|")
            return f"<a href={link}>{text}</a>"
        if s.startswith("curly:"):
            return "{" + s[6:] + "}"
        return "" if s in ("n", "/n") else s

    def ref(self, ids: list[str], capitalize: bool, combiner: str) -> str:
        number, kind = self.refs[ids[0]]
        kind = kind.capitalize() if capitalize else kind
        if len(ids) == 1:
            return f"<a href=#{ids[0]}>{kind} {number}</a>"
        links = [f"<a href=#{i}>{self.refs[i][0]}</a>" for i in ids]
        return f"{kind}s " + f" {combiner} ".join([", ".join(links[:-1]), links[-1]])

    def examples(self, node: dict[str, Any], cls: str) -> str:
        items = "".join(
            f'<li class="Example">Example: {self.text(e.get("text") or "")}</li>'
            for e in node.get("examples") or []
        )
        return f'<ol class="Examples {cls}">{items}</ol>'

    @staticmethod
    def rule_link(key: str, printed: str) -> str:
        return (
            '<span class="RuleLinkOuterWrapper"><span class="RuleLinkInnerWrapper">'
            f'<a class="RuleAnchor" href="#{key}"></a><a class="RuleLink" href="#{key}">'
            f'{printed}</a><span class="RuleLinkSymbol material-symbols-outlined">link</span>'
            "</span></span>"
        )

    def timing(self, elements: list[Any], level: int, bold: bool) -> str:
        out = ""
        for e in elements:
            weight = "TimingStructureBold" if bold and level == 1 else "TimingStructureNormal"
            out += f'<li class="TimingStructureL{level} {weight}">{self.text(e["text"])}'
            if level < 3:
                out += "<ol>" + self.timing(e.get("elements") or [], level + 1, bold) + "</ol>"
            out += "</li>"
        return out

    def section(self, node: dict[str, Any]) -> str:
        number = self.refs[node["section"]][0]
        out = (
            f'<h2 class="Section" id="{node["section"]}"><a class="RuleLink" '
            f'href="#{node["section"]}">{number}. {self.text(node["text"])}</a><span '
            'class="RuleLinkSymbol material-symbols-outlined">link</span></h2>'
        )
        if "snippet" in node:
            out += f'<p class="Snippet">{self.text(node["snippet"])}</p>'
        out += '<ol class="Rules">'
        for n, e in enumerate(node.get("rules") or [], start=1):
            if "timing_structure" in e:
                out += (
                    '<ol class="TimingStructureList">'
                    + self.timing(e["elements"], 1, "bold" in e)
                    + "</ol>"
                )
                continue
            key = e.get("rule") or e["subsection"]
            out += f'<li class="Rule" id="{key}">{self.rule_link(key, f"{number}.{n}.")}'
            if "rule" in e:
                out += self.text(e["text"]) + self.examples(e, "ExamplesRule") + "</li>"
                continue
            text = self.text(e["text"])
            out += f'<span class="SubSection">{text}</span>' if "toc" in e else text
            if e.get("rules"):
                out += '<ol class="SubRules">'
                if "snippet" in e:
                    out += f'<p class="Snippet">{self.text(e["snippet"])}</p>'
                out += self.examples(e, "ExamplesSubSection")
                for j, sub in enumerate(e["rules"]):
                    out += (
                        f'<li class="SubRule" id="{sub["rule"]}">'
                        f"{self.rule_link(sub['rule'], LETTERS[j] + '.')}"
                        f"{self.text(sub['text'])}{self.examples(sub, 'ExamplesSubRule')}</li>"
                    )
                out += "</ol>"
            out += "</li>"
        return out + "</ol>"

    def page(self) -> str:
        year, month, day = self.date.split("-")
        effective = f"{day} {calendar.month_name[int(month)]} {year}"
        out = (
            '<?xml encoding="utf-8" ?><!DOCTYPE html><html><head><link rel="stylesheet" '
            f'href="rules.css"><title>Netrunner Comprehensive Rules (v{self.version})</title>'
            '</head><body><div id="RulesParent"><div id="RulesToc" class="RulesToc"><nav>'
            '<ul class="RulesTocList"><li><a href="#x">1 Game Concepts</a></li></ul></nav>'
            '</div><div id="RulesContent" class="RulesContent"><div><p class="Title">Netrunner'
            ' Comprehensive Rules</p><p class="SubTitle">Null Signal Games</p><p>This rules '
            "document is to be used as reference material. It is not intended to be read "
            "straight through. If you still have questions after consulting this document, "
            'please ask us online via <a href="mailto:rules@nullsignal.games">email</a>. This '
            "version of the Comprehensive Rules document is effective "
            f"<b>{effective}</b>.</p>"
            '<details><summary class="Clickable"><b>Summary of Changes '
            f"(v{self.version})</b></summary><ul>"
        )
        out += "".join(f"<li>{self.text(c['text'])}</li>" for c in self.changelog)
        out += (
            '</ul></details><details><summary class="Clickable"><b>Acknowledgements</b>'
            "</summary><ul><li>Netrunner Original Game Design: Richard Garfield</li></ul>"
            "</details></div>"
        )
        for c, chapter in enumerate(self.chapters, start=1):
            out += (
                f'<h1 class="Chapter" id="{chapter["chapter"]}"><a class="RuleLink" '
                f'href="#{chapter["chapter"]}">{c}. {chapter["text"]}</a><span '
                'class="RuleLinkSymbol material-symbols-outlined">link</span></h1>'
            )
            out += "".join(self.section(s) for s in chapter["sections"])
        return out + "</div></div></body></html>"


def generated_page(version: str, changelog: str, date: str) -> bytes:
    members = read_tar_members(bundle_bytes(version), what=version)
    chapters = {
        p: yaml.safe_load(b)
        for p, b in members.items()
        if re.search(r"data/input/(0[1-9]|1\d)_\w+\.yaml$", p)
    }
    changes = yaml.safe_load(members[changelog])["changelog"]
    return Generator(chapters, changes, version, date).page().encode("utf-8")


PAGES = {  # version -> (changelog the generator prints, effective date it is given)
    "22.12": ("data/input/00_changelog.yaml", "2022-12-16"),
    "25.04": ("data/input/00_changelog.yaml", "2025-04-28"),
    "26.03": ("data/changelogs/26.03.yaml", "2026-03-02"),
}


def parse(data: bytes, family: str, version: str | None = None) -> Document:
    """Through the family table, as `import` and `update` parse it."""
    rendition = "html" if family == "nsg-html" else "tar.gz"
    request = ParseRequest(
        family=family, document="netrunner/cr", rendition=rendition, what=family, version=version
    )
    return parse_bytes(data, request)


@cache
def html_doc(version: str) -> Document:
    data = generated_page(version, *PAGES[version])
    return parse(data, "nsg-html")


@cache
def yaml_doc(version: str) -> Document:
    return parse(bundle_bytes(version), "nsg-yaml", "25.04" if version == "25.04" else None)


# --------------------------------------------------------------------------- tests


@pytest.mark.slow  # reads the real documents
@pytest.mark.parametrize("version", sorted(PAGES))
def test_generated_page_parses_cleanly_and_states_its_version(version: str) -> None:
    doc = html_doc(version)
    assert doc.warnings == []
    assert doc.version == version and doc.effective == PAGES[version][1]
    assert doc.title == "Netrunner Comprehensive Rules"
    assert doc.parser.family == "nsg-html"


@pytest.mark.slow  # reads the real documents
@pytest.mark.parametrize("version", sorted(PAGES))
def test_page_agrees_with_the_yaml_rendition_of_the_same_version(version: str) -> None:
    page, source = html_doc(version), yaml_doc(version)
    assert compare_renditions(source, page, "tar.gz", "html") == []
    assert [(r.id, r.kind, r.key, r.depth, r.parent) for r in page.records] == [
        (r.id, r.kind, r.key, r.depth, r.parent) for r in source.records
    ]
    assert [r.references for r in page.records] == [r.references for r in source.records]
    assert [r.cards for r in page.records] == [r.cards for r in source.records]
    assert page.publisher_changes == source.publisher_changes
    assert page.counts == {k: v for k, v in source.counts.items() if k != "highlighted"}


@pytest.mark.slow  # reads the real documents
def test_printed_numbers_are_read_not_derived() -> None:
    data = generated_page("26.03", *PAGES["26.03"]).decode("utf-8")
    # The page prints 1.1.3. where position says 1.1.2: the parser believes the page and
    # says the numbers do not follow.
    data = data.replace(
        'href="#rule_requirements">1.1.2.</a>', 'href="#rule_requirements">1.1.3.</a>'
    )
    doc = parse(data.encode(), "nsg-html")
    assert "cr:1.1.3" in {r.id for r in doc.records}
    assert sorted(w.code for w in doc.warnings) == ["duplicate-id", "numbering"]


V2403 = """<html><head><title>Netrunner Comprehensive Rules (v24.03)</title></head><body>
<div><p class="Title">Netrunner Comprehensive Rules</p>
<p>This rules document is to be used as reference material. This version of the
Comprehensive Rules document is effective <b>30 March 2024</b>.</p>
<details><summary class="Clickable"><b>Summary of Changes (v24.03)</b></summary>
<ul><li>Updated <a href=#sec_one>section 1.1</a> about <span class="Card">Hush</span>.</li></ul>
</details></div>
<h1 class="Chapter" id="chpt_one"><a class="RuleLink" href="#chpt_one">1. One</a></h1>
<h2 class="Section" id="sec_one"><a class="RuleLink" href="#sec_one">1.1. First</a></h2>
<ol class="Rules"><li class="Rule" id="rule_one"><span class="RuleLinkOuterWrapper"><span
class="RuleLinkInnerWrapper"><a class="RuleLink" href="#rule_one">1.1.1.</a></span></span>Pay
1<img class="Symbol" src="credit.svg" alt="credit"/>; see <a href=#sec_one>section 1.1</a>.
<ol class="Examples ExamplesRule"><li class="Example">Example: <span class="Card">Hush</span>
is a card.</li></ol></li></ol>
</body></html>"""


def test_the_live_pages_statements_are_read() -> None:
    """The statements the live page makes today (v24.03, effective 30 March 2024)."""
    doc = parse(V2403.encode(), "nsg-html")
    assert doc.warnings == []
    assert (doc.version, doc.effective) == ("24.03", "2024-03-30")
    assert doc.publisher_changes[0].text == "Updated section 1.1 about Hush."
    assert doc.publisher_changes[0].cites == ["cr:1.1"]
    rule = doc.records[-1]
    assert (rule.id, rule.key, rule.text) == ("cr:1.1.1", "rule_one", "Pay 1[c]; see section 1.1.")
    assert rule.references == ["cr:1.1"] and rule.cards == ["Hush"]
    assert rule.examples == ["Hush is a card."]


def test_missing_statements_are_warnings() -> None:
    page = V2403.replace("Summary of Changes (v24.03)", "Changes").replace("(v24.03)", "")
    page = page.replace("<b>30 March 2024</b>", "<b>XX XX XXXX</b>")
    doc = parse(page.encode(), "nsg-html")
    assert doc.version is None and doc.effective is None
    assert sorted(w.code for w in doc.warnings) == ["bad-date", "no-changelog", "no-version"]


def test_a_page_without_entries_is_an_error() -> None:
    with pytest.raises(ExtractError, match="not the page"):
        parse(b"<html><body><p>Maintenance</p></body></html>", "nsg-html")


# --------------------------------------------------------------------------- the registry


def test_the_registry_takes_the_nsg_sources() -> None:
    sources = [s for s in load_registry() if s.document == "netrunner/cr"]
    primary = [s for s in sources if s.primary]
    assert [(s.url, s.family, s.rendition) for s in primary] == [
        ("https://rules.nullsignal.games/", "nsg-html", "html")
    ]
    yaml_source = next(s for s in sources if s.family == "nsg-yaml")
    assert yaml_source.manifest is not None and yaml_source.rendition == "tar.gz"
    # The pinned commit is the one the 26.03 bundle's own header names.
    commit = read_archive_commit(bundle_bytes("26.03"))
    assert commit is not None and yaml_source.options["ref"] == commit
    assert yaml_source.url is not None and commit in yaml_source.url
    # The NISEI PDFs are archived renditions, taken from an archive by their manifest key.
    nisei = [s for s in sources if s.family == "netrunner-cr"]
    assert nisei and all(s.options.get("archive_only") for s in nisei)


RIOT = "https://cmsassets.rgpub.io/sanity/files/dsfx7636/news_live"
RIFTBOUND_PAGE = """<!DOCTYPE html><html><head><title>How to Play Riftbound: Core Rules and
Gameplay Guide</title></head><body>
<nav><a href="/en-us/">Home</a><a href="/en-us/news/">News</a></nav>
<main><h1>How to Play Riftbound: Core Rules and Gameplay Guide</h1>
<img src="{riot}/../images/banner.jpg">
<p>The Core Rules document contains the technical rules that govern Riftbound play.</p>
<a class="button" href="{pdf}">Download Core Rules</a>
<p>We recommend starting with our <a href="/en-us/news/rules-and-releases/how-to-play/">How to
Play</a> article instead.</p></main></body></html>"""


@pytest.mark.parametrize(
    "pdf",
    [
        f"{RIOT}/6f1c0e3b9a2d4c5e8f7a6b5c4d3e2f1a0b9c8d7e.pdf",  # Riot's CMS names files by hash
        "https://riftbound.leagueoflegends.com/files/Riftbound_Core_Rules_2025-10-01.pdf",
        "https://cdn.example.org/rules/Riftbound%20Core%20Rules%20v1.2.pdf",
    ],
)
def test_riftbound_discovery_finds_the_download_link(pdf: str, tmp_path: Path) -> None:
    source = next(s for s in load_registry() if s.id == "riftbound-cr-pdf")
    assert source.discovery is not None
    assert source.discovery.page == (
        "https://riftbound.leagueoflegends.com/en-us/news/rules-and-releases/"
        "gameplay-guide-core-rules"
    )
    page = RIFTBOUND_PAGE.format(riot=RIOT, pdf=pdf).encode()
    with (
        ScriptedServer() as server,
        Fetcher(
            BlobStore(tmp_path / "cache"),
            FetchPolicy(connect_timeout=2, read_timeout=5, deadline=20, retries=1, backoff=0.01),
        ) as fetcher,
    ):
        path = "/en-us/news/rules-and-releases/gameplay-guide-core-rules"
        server.serve(path, Reply(200, page, {"Content-Type": "text/html; charset=utf-8"}))
        record, body = fetcher.fetch_page("riftbound-cr-pdf-page", server.url(path))
        found = find_link(
            body,
            record.final_url,
            source.discovery.link_pattern,
            source=source.id,
            list_links=list_links,
        )
    assert found == pdf


def test_riftbound_discovery_never_guesses_between_two_pdfs() -> None:
    source = next(s for s in load_registry() if s.id == "riftbound-cr-pdf")
    assert source.discovery is not None
    two = RIFTBOUND_PAGE.format(riot=RIOT, pdf=f"{RIOT}/aaaa.pdf").replace(
        "</main>", f'<a href="{RIOT}/bbbb.pdf">Download Tournament Rules</a></main>'
    )
    with pytest.raises(DiscoveryError):
        find_link(
            two.encode(),
            "https://riftbound.leagueoflegends.com/en-us/news/",
            source.discovery.link_pattern,
            source=source.id,
            list_links=list_links,
        )
