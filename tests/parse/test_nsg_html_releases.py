"""`nsg-html` on pages of releases it has not seen: the version as printed whatever its
length, or, where the page prints none, as the generator names it from the effective date."""

from __future__ import annotations

from pipeline.models.records import Document
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest

PAGE = """<html><head><title>Netrunner Comprehensive Rules{title}</title></head><body>
<div><p class="Title">Netrunner Comprehensive Rules</p>
<p>This version of the Comprehensive Rules document is effective <b>{date}</b>.</p>
<details><summary class="Clickable"><b>Summary of Changes{version}</b></summary>
<ul><li>Updated <a href=#sec_one>section 1.1</a>.</li></ul></details></div>
<h1 class="Chapter" id="chpt_one"><a class="RuleLink" href="#chpt_one">1. One</a></h1>
<h2 class="Section" id="sec_one"><a class="RuleLink" href="#sec_one">1.1. First</a></h2>
<ol class="Rules"><li class="Rule" id="rule_one"><span class="RuleLinkOuterWrapper"><span
class="RuleLinkInnerWrapper"><a class="RuleLink" href="#rule_one">1.1.1.</a></span></span>A
rule.</li></ol>
</body></html>"""


def parse(version: str, date: str) -> Document:
    page = PAGE.format(title=version, version=version, date=date)
    request = ParseRequest(
        family="nsg-html", document="netrunner/cr", rendition="html", what="page"
    )
    return parse_bytes(page.encode("utf-8"), request)


def test_a_version_of_another_length_is_read_as_printed() -> None:
    doc = parse(" (v27.1.2)", "5 January 2027")
    assert (doc.version, doc.effective, doc.warnings) == ("27.1.2", "2027-01-05", [])


def test_a_page_printing_no_version_has_the_one_its_effective_date_gives() -> None:
    doc = parse("", "5 January 2027")
    assert (doc.version, doc.effective, doc.warnings) == ("27.01", "2027-01-05", [])


def test_a_page_stating_neither_has_no_version_and_says_so() -> None:
    doc = parse("", "XX XX XXXX")
    assert doc.version is None and doc.effective is None
    assert sorted(w.code for w in doc.warnings) == ["bad-date", "no-version"]
