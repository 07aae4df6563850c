"""Markdown and HTML reports: grouping, word-level marks, hiding, escaping, no network."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from pipeline.diff.documents import CHANGE_CLASSES, diff_documents
from pipeline.models.changes import Change
from pipeline.models.diffs import DocumentDiff
from pipeline.models.records import Document
from pipeline.report.html import anchor_ids, render_html
from pipeline.report.markdown import render_markdown
from tests.diff.test_diff import HEAD, TEXTS, document, mtg_version, rule, term

OLD = document(
    *HEAD,
    rule("cr:100.1", TEXTS[0]),
    rule("cr:100.2", TEXTS[1]),
    rule("cr:100.3", TEXTS[2]),
    rule("cr:101.1", "Pay {2}*: the cost <b>is</b> [cost] & more, see rule 100.3."),
    glossary=(term("Deck", "The cards a player starts with."),),
    version="A",
)
NEW = document(
    *HEAD,
    rule("cr:100.1", TEXTS[0].replace("seven", "eight")),
    rule("cr:100.2", TEXTS[3]),
    rule("cr:100.3", TEXTS[1]),
    rule("cr:100.4", TEXTS[2]),
    rule("cr:101.1", "Pay {2}*: the cost <b>is</b> [cost] & more, see rule 100.4."),
    glossary=(term("Deck", "The cards a player brings."),),
    version="B",
)


def test_markdown_changelog_is_grouped_with_word_marks_and_summary() -> None:
    diff = diff_documents(OLD, NEW)
    md = render_markdown(diff, OLD, NEW)
    lines = md.splitlines()
    assert lines[0] == "# mtg/cr: A → B"
    rows = [line for line in lines if re.fullmatch(r"\| [a-z-]+ \| \d+ \|", line)]
    assert [r.split(" | ")[0][2:] for r in rows] == list(CHANGE_CLASSES)
    assert "| renumbered | 2 |" in rows and "| reworded | 2 |" in rows
    assert "## 1 Game Concepts" in lines and "### 100 General" in lines
    assert "### 101 Golden Rules" in lines and "## Glossary" in lines
    assert (
        lines.index("### 100 General")
        < lines.index("### 101 Golden Rules")
        < lines.index("## Glossary")
    )
    reworded = lines[lines.index("- **reworded** `cr:100.1` (similarity 0.9333)") + 1]
    assert "~~seven~~ **eight**" in reworded
    assert "- **renumbered** `cr:100.2` → `cr:100.3` (similarity 1; text unchanged)" in lines
    # Rule text is escaped so its brackets and stars are not read as Markdown.
    assert "Pay {2}\\*: the cost \\<b\\>is\\</b\\> \\[cost\\] & more" in md
    assert "## Renumbering map" in lines
    assert "| `cr:100.3` | `cr:100.4` | renumbered | exact | 1 |" in lines


def test_hiding_renumbering_and_reference_only_keeps_the_map_and_says_so() -> None:
    diff = diff_documents(OLD, NEW)
    full = render_markdown(diff, OLD, NEW)
    quiet = render_markdown(diff, OLD, NEW, hide_renumbering=True, hide_reference_only=True)
    assert "- **renumbered**" in full and "- **renumbered**" not in quiet
    assert "- **reference-only** `cr:101.1`" in full and "reference-only** `cr:101.1`" not in quiet
    assert "Hidden here (kept in the JSON): 2 pure renumberings, 1 reference-only changes." in quiet
    assert "## Renumbering map" in quiet and "| added | 1 |" in quiet


class _Page(HTMLParser):
    """Tags, attributes and text of a page, for checking structure without a browser."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.marks: list[tuple[str, str]] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1] in ("ins", "del"):
            self.marks.append((self._open[-1], data))


def parse_page(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    return parser


def test_html_is_self_contained_linked_and_escaped() -> None:
    diff = diff_documents(OLD, NEW)
    page = render_html(diff, OLD, NEW)
    parsed = parse_page(page)
    names = [t for t, _ in parsed.tags]
    assert "style" in names and not {"script", "link", "img", "iframe"} & set(names)
    for _, attrs in parsed.tags:
        for key in ("src", "href"):
            assert not (attrs.get(key) or "#").startswith(("http", "//")), attrs
    articles = [a["id"] for t, a in parsed.tags if t == "article"]
    links = [a["href"] for t, a in parsed.tags if t == "a" and a.get("href", "").startswith("#")]
    assert len(articles) == len(diff.changes) == len(set(articles))
    assert all(f"#{a}" in links for a in articles)
    assert ("del", "seven") in parsed.marks and ("ins", "eight") in parsed.marks
    assert ("del", "100.3.") in parsed.marks and ("ins", "100.4.") in parsed.marks
    # Rule text containing markup is shown as text, never interpreted.
    assert "&lt;b&gt;is&lt;/b&gt; [cost] &amp; more" in page and "<b>is</b>" not in page


def test_html_hides_on_request_and_is_deterministic() -> None:
    diff = diff_documents(OLD, NEW)
    page = render_html(diff, OLD, NEW, hide_renumbering=True)
    articles = [a["class"] for t, a in parse_page(page).tags if t == "article"]
    assert articles and not any("renumbered" in (c or "") for c in articles)
    assert page == render_html(diff_documents(OLD, NEW), OLD, NEW, hide_renumbering=True)


def test_anchor_ids_are_unique_even_when_ids_collide() -> None:
    diff = diff_documents(OLD, NEW)
    twice = [*diff.changes, *diff.changes]
    anchors = anchor_ids(twice)
    assert len(set(anchors)) == len(anchors) and anchors[0] == "change-cr-100-1"
    assert anchors[len(diff.changes)] == "change-cr-100-1-2"


def _section_of(line: str) -> str | None:
    match = re.match(r"- \*\*[a-z-]+\*\* `cr:(\d{3})", line)
    return match.group(1) if match else None


@pytest.mark.slow  # reads the real documents
def test_real_mtg_changelog_puts_each_change_under_its_own_section() -> None:
    old, new = mtg_version("20250725"), mtg_version("20251114")
    diff = diff_documents(old, new)
    md = render_markdown(diff, old, new)
    section = None
    seen = 0
    for line in md.splitlines():
        if line.startswith("### "):
            section = line[4:].split()[0]
        number = _section_of(line)
        if number is not None:
            seen += 1
            assert number == section, line
    assert seen == sum(
        1
        for c in diff.changes
        if (c.new_id or c.old_id or "").startswith("cr:") or c.cls in ("split", "merged")
    )
    assert "### 603 Handling Triggered Abilities" in md
    assert "- **merged** `cr:603.2d, cr:603.2e` → `cr:603.2d`" in md


def test_reports_of_an_empty_diff_say_nothing_changed() -> None:
    doc: Document = mtg_version("20251114")
    diff = diff_documents(doc, doc)
    md = render_markdown(diff, doc, doc)
    assert "0 changes in all." in md and "\n## " not in md
    assert "<article" not in render_html(diff, doc, doc)


def test_rulings_diffs_group_as_rulings_and_name_the_cards() -> None:
    empty = document()
    diff = DocumentDiff(
        document="netrunner/rulings",
        old_version="1",
        new_version="2",
        summary={"added": 1, "cards-changed": 1},
        changes=[
            Change(
                cls="cards-changed",
                old_id="ruling:ab12",
                new_id="ruling:ab12",
                cards_gained=["30003"],
                cards_lost=["01001"],
            ),
            Change(cls="added", new_id="ruling:cd34", cards_gained=["30004"]),
        ],
    )
    md = render_markdown(diff, empty, empty)
    assert "## Rulings" in md and "## Glossary" not in md
    assert "  cards gained: 30003; cards lost: 01001" in md.splitlines()
    assert "  > " not in md  # nothing to quote when a change carries no words
    page = render_html(diff, empty, empty)
    assert '<p class="cards">cards gained: 30004</p>' in page
    assert "<h2>Rulings</h2>" in page


def test_reports_set_the_publishers_change_list_against_the_diff() -> None:
    from pipeline.models.diffs import Reconciliation
    from pipeline.models.records import PublisherChange

    old, new = OLD, NEW
    diff = diff_documents(old, new).model_copy(
        update={
            "reconciliation": Reconciliation(
                named_found=[PublisherChange(text="Clarified rule 1.2.1.", cites=["cr:1.2.1"])],
                named_not_found=[PublisherChange(text="Issued errata to <Chum>.", cites=[])],
                found_not_named=["cr:1.2.9"],
            )
        }
    )
    md = render_markdown(diff, old, new)
    assert "The publisher names 2 changes; the diff finds 1 of them." in md
    assert "- Issued errata to \\<Chum\\>." in md
    assert "`cr:1.2.9`" in md
    page = render_html(diff, old, new)
    assert "<li>Issued errata to &lt;Chum&gt;.</li>" in page
    assert 'id="publisher-changes"' in page


def test_reports_flag_weak_pairings_and_link_each_old_number_to_its_new_one() -> None:
    old, new = mtg_version("20221118"), mtg_version("20230414")
    diff = diff_documents(old, new)
    weak = [c for c in diff.changes if c.weak]
    assert weak and all(
        c.method in ("similar", "children", "structural", "sequence", "contained") for c in weak
    )
    md = render_markdown(diff, old, new)
    assert f"⚠ {len(weak)} pairings are weak (made on similarity" in md
    # The meld definition moved from 713.1 to 712.4 on similarity: shown, and flagged.
    assert (
        "- **moved** `cr:713.1` → `cr:712.4` (similarity 0.6939; text reworded; paired by "
        "similar; ⚠ weak)" in md.splitlines()
    )
    assert "| `cr:713.1` | `cr:712.4` | moved (text reworded) | similar ⚠ weak | 0.6939 |" in md
    # The map names possible moves too, never as removals.
    assert "| `cr:712.1g` | `cr:712.4` | possibly-moved (text reworded) | contained ⚠ weak |" in md
    assert "children: 6 of its 6 subrules moved under cr:712.5" in md
    page = render_html(diff, old, new)
    parsed = parse_page(page)
    article = next(a for t, a in parsed.tags if t == "article" and a["id"] == "change-cr-712-4")
    assert article["class"] == "change moved weak"
    row = page[page.index('<section id="renumbering">') :]
    assert '<tr class="weak"><td><a href="#change-cr-712-4">cr:713.1</a></td>' in row
    assert '<td><a href="#change-cr-712-4">cr:712.4</a></td>' in row
    # With renumbering hidden, the map still lists a pure renumbering, unlinked.
    quiet = render_html(diff, old, new, hide_renumbering=True)
    assert '<tr class="sure"><td>cr:714.1</td><td>cr:713.1</td>' in quiet


def test_contents_name_moves_old_to_new_and_splits_and_merges_as_such() -> None:
    # The HTML contents said "cr:712.11 renumbered" (its new id only) and a split's old
    # number "removed"; a reader of the list could not tell where anything went.
    old, new = mtg_version("20221118"), mtg_version("20230414")
    diff = diff_documents(old, new)
    lines = render_markdown(diff, old, new).splitlines()
    contents = lines[lines.index("## Contents") :]
    assert "- `cr:714.1` → `cr:713.1` renumbered" in contents
    assert "- `cr:712.7` split into `cr:712.11`, `cr:712.11a` and `cr:712.11b`" in contents
    assert "- `cr:712.15` and `cr:713.12` merged into `cr:712.19`" in contents
    page = render_html(diff, old, new)
    nav = page[page.index('<nav id="index">') : page.index("</nav>")]
    assert re.search(
        r'<li><a href="#change-cr-712-7[-0-9]*">cr:712\.7</a> <span class="cls split">split '
        r"into cr:712\.11, cr:712\.11a and cr:712\.11b</span>",
        nav,
    )
    assert (
        '<li><a href="#change-cr-712-19">cr:712.15 and cr:713.12</a> '
        '<span class="cls merged">merged into cr:712.19</span></li>'
    ) in nav
    assert '">cr:714.1 → cr:713.1</a> <span class="cls renumbered">renumbered</span>' in nav
