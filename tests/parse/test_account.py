"""The account of every number (pipeline/parse/account.py): after a parse, every number of
the document's shape standing where a rule could start is a record, a citation or declared
matter, or an `unaccounted-number` warning names it. No rule is lost in silence.

On every real document a numbered family parses, the account finds nothing unaccounted.
Mutations of real documents, made here from their bytes (a dot removed, a rule run into
the line before, a rule deleted, a number wrapped to a line's start inside a sentence),
are read right by the engine that reads what a person reads, or named by exactly that
warning in a family that does not. Small documents made here show the same in the forms
other publishers print.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.fetch.manifest import parse_manifest, versions_of
from pipeline.jobs.context import load_sources
from pipeline.models.bundles import build_site_bundle
from pipeline.models.content import Line
from pipeline.models.records import Document, WarningCode
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.models.sources import Source
from pipeline.runner.cache import ParseCache
from pipeline.runner.families import FAMILIES, Extracted, family_of, parse_bytes, parse_extracted
from pipeline.runner.family_names import NAMES
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest, request_for
from tests.support.helpers import EXAMPLE_REGISTRIES, SHARED

UNACCOUNTED = WarningCode.UNACCOUNTED_NUMBER


def numbered_documents() -> list[tuple[str, Source, tuple[str, ...]]]:
    """Every real document a family with a number shape parses: the packaged registry's
    and the example registries' sources, each file once (a rules site's pages together),
    as (label, source, paths)."""
    manifest = parse_manifest((SHARED / "manifest.json").read_bytes(), "manifest.json")
    registries = [None, *sorted(EXAMPLE_REGISTRIES.glob("*.toml"))]
    found: dict[str, tuple[Source, tuple[str, ...]]] = {}
    for registry in registries:
        for source in load_sources(registry, NAMES):
            if FAMILIES[source.family].shape is None:
                continue
            for files in versions_of(source, manifest):
                paths = tuple(entry.path for entry in files)
                label = paths[0] if len(paths) == 1 else f"{source.id} ({len(paths)} pages)"
                found.setdefault(label, (source, paths))
    return [(label, source, paths) for label, (source, paths) in sorted(found.items())]


def document_bytes(source: Source, paths: tuple[str, ...]) -> bytes:
    """A file's bytes, or a site's pages bundled as a fetch bundles them."""
    if len(paths) == 1 and not source.options.get("site"):
        return (SHARED / paths[0]).read_bytes()
    manifest = parse_manifest((SHARED / "manifest.json").read_bytes(), "manifest.json")
    urls = {entry.path: entry.url for entry in manifest}
    pages = {str(urls[path]): (SHARED / path).read_bytes() for path in paths}
    return build_site_bundle(str(source.url), pages)


NUMBERED = numbered_documents()


def unaccounted(doc: Document) -> list[str]:
    return [w.message for w in doc.warnings if w.code == UNACCOUNTED]


def named(doc: Document) -> set[str]:
    """The numbers the account's warnings name."""
    return {w.message.split(" ", 1)[0] for w in doc.warnings if w.code == UNACCOUNTED}


@pytest.mark.parametrize(("label", "source", "paths"), NUMBERED, ids=[n for n, _, _ in NUMBERED])
def test_every_number_of_a_real_document_is_accounted_for(
    label: str, source: Source, paths: tuple[str, ...], parse_cache_dir: Path
) -> None:
    data = document_bytes(source, paths)
    request = request_for(source, what=label)
    doc = ParseCache(parse_cache_dir).parse(
        data, hashlib.sha256(data).hexdigest(), request, ParseLimits()
    )
    assert doc.records
    assert unaccounted(doc) == []


def test_the_account_covers_every_numbered_family_of_the_real_documents() -> None:
    """Each family that declares a number shape is tried on a real document here."""
    tried = {source.family for _, source, _ in NUMBERED}
    declared = {name for name, family in FAMILIES.items() if family.shape is not None}
    assert tried == declared
    assert "fab-html" in tried


# ---------------------------------------------------------------- mutations of real bytes

FOW = "fow/comprehensive-rules/7.0/fow-cr-7.0.txt"
MTG = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
Mutation = Callable[[list[str]], list[str]]


def source_of(path: str) -> Source:
    return next(source for label, source, _ in NUMBERED if label == path)


def parse_mutated(path: str, mutate: Mutation) -> Document:
    """The real document with its lines changed by `mutate`, parsed as its source is."""
    data = (SHARED / path).read_bytes()
    ending = "\r\n" if b"\r\n" in data else "\n"
    text = data.decode("utf-8-sig")
    lines = mutate(text.split(ending))
    changed = ("\ufeff" + ending.join(lines)).encode("utf-8")
    return parse_bytes(changed, request_for(source_of(path), what=path))


def index_of(lines: list[str], start: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(lines) if i >= after and line.startswith(start))


def numbers(doc: Document) -> list[str]:
    return [r.number for r in doc.records]


@pytest.fixture(scope="module")
def fow_clean() -> Document:
    return parse_mutated(FOW, lambda lines: lines)


@pytest.fixture(scope="module")
def mtg_clean() -> Document:
    return parse_mutated(MTG, lambda lines: lines)


def test_a_clean_real_document_yields_no_warnings(fow_clean: Document, mtg_clean: Document) -> None:
    assert fow_clean.warnings == []
    assert mtg_clean.warnings == []


def without_dot(lines: list[str], number: str) -> list[str]:
    at = index_of(lines, f"{number}. ")
    return [*lines[:at], lines[at].replace(f"{number}. ", f"{number} ", 1), *lines[at + 1 :]]


def run_into_line_before(lines: list[str], number: str) -> list[str]:
    at = index_of(lines, f"{number}")
    before = max(i for i in range(at) if lines[i].strip())
    joined = f"{lines[before]} {lines[at]}"
    return [*lines[:before], joined, *lines[before + 1 : at], *lines[at + 1 :]]


def deleted(lines: list[str], number: str) -> list[str]:
    at = index_of(lines, f"{number}")
    return [*lines[:at], *lines[at + 1 :]]


def test_a_rule_printed_without_its_dot_is_read_as_the_rule(fow_clean: Document) -> None:
    doc = parse_mutated(FOW, lambda lines: without_dot(lines, "903.2b"))
    assert numbers(doc) == numbers(fow_clean)
    assert doc.warnings == []


def test_a_rule_run_into_the_line_before_is_read_as_the_rule(fow_clean: Document) -> None:
    doc = parse_mutated(FOW, lambda lines: run_into_line_before(lines, "903.2c. "))
    assert numbers(doc) == numbers(fow_clean)
    by_number = {r.number: r for r in doc.records}
    assert by_number["903.2c"].text.startswith("If the card being played has an [Awakening]")
    assert "903.2c" not in by_number["903.2b"].text
    assert doc.warnings == []


def test_a_rule_deleted_from_the_middle_of_a_sequence_is_the_publishers_gap(
    fow_clean: Document,
) -> None:
    """The text no longer holds 903.2c (a citation `(903.2c)` aside): what is left is read
    right, and the gap is the publisher's, nothing unaccounted."""
    doc = parse_mutated(FOW, lambda lines: deleted(lines, "903.2c. "))
    assert numbers(doc) == [n for n in numbers(fow_clean) if n != "903.2c"]
    assert unaccounted(doc) == []


def test_a_number_wrapped_to_a_line_start_inside_a_sentence_stays_text(
    fow_clean: Document,
) -> None:
    """`… that fall under\n909.1c and 909.1d at this time.`: a citation, not a rule."""

    def wrap(lines: list[str]) -> list[str]:
        at = index_of(lines, "909.1e. ")
        head, tail = lines[at].split(" under ", 1)
        return [*lines[:at], f"{head} under", tail, *lines[at + 1 :]]

    doc = parse_mutated(FOW, wrap)
    assert numbers(doc) == numbers(fow_clean)
    assert "909.1c and 909.1d at this time" in {r.number: r for r in doc.records}["909.1e"].text
    assert unaccounted(doc) == []


def test_a_section_printed_without_its_dot_is_named_where_the_family_misses_it() -> None:
    """MTG's own parser reads `101 The Magic Golden Rules` as text of the rule before: the
    account names 101 where the body prints it (the contents before the first rule are
    front matter), nothing else."""
    doc = parse_mutated(MTG, lambda lines: [re.sub(r"^101\. ", "101 ", line) for line in lines])
    assert "101" not in numbers(doc)
    assert named(doc) == {"101"}
    (warning,) = [w for w in doc.warnings if w.code == UNACCOUNTED]
    body = index_of((SHARED / MTG).read_text(encoding="utf-8-sig").split("\n"), "101. ", 100)
    assert warning.location is not None and warning.location.line == body + 1


def test_a_rule_run_into_the_line_before_is_named_where_the_family_misses_it() -> None:
    doc = parse_mutated(MTG, lambda lines: run_into_line_before(lines, "100.2. "))
    assert "100.2" not in numbers(doc)
    assert named(doc) == {"100.2"}
    (warning,) = [w for w in doc.warnings if w.code == UNACCOUNTED]
    assert "after a sentence's end" in warning.message
    assert warning.location is not None and warning.location.line > 0


def test_a_rule_deleted_from_the_middle_of_a_sequence_is_no_loss(mtg_clean: Document) -> None:
    doc = parse_mutated(MTG, lambda lines: deleted(lines, "100.2a "))
    assert numbers(doc) == [n for n in numbers(mtg_clean) if n != "100.2a"]
    assert unaccounted(doc) == []
    # the gap is counted as the publisher's (MTG's numbers are checked from rules down)
    assert doc.counts["numbering_gaps"] == mtg_clean.counts.get("numbering_gaps", 0) + 1


# A PDF's lines, changed after extraction: what a publisher's own typesetting would print.
GUNDAM = "gundam/comprehensive-rules/1.6.0/comprehensiverules_en.pdf"
PdfLines = tuple[Extracted[list[Line]], ParseRequest]


@pytest.fixture(scope="module")
def gundam(shared: Path) -> PdfLines:
    request = request_for(source_of(GUNDAM), what=GUNDAM)
    extracted = family_of("numbered").extract((shared / GUNDAM).read_bytes(), request)
    return extracted, request


def parse_lines(pdf: PdfLines, mutate: Callable[[list[Line]], list[Line]]) -> Document:
    extracted, request = pdf
    lines = mutate([line.model_copy() for line in extracted.content])
    changed = Extracted(lines, extracted.notes, extracted.engine, extracted.engine_version, lines)
    return parse_extracted(changed, request)


def retext(lines: list[Line], start: str, change: Callable[[str], str]) -> list[Line]:
    at = next(i for i, line in enumerate(lines) if line.text.startswith(start))
    return [
        *lines[:at],
        lines[at].model_copy(update={"text": change(lines[at].text)}),
        *lines[at + 1 :],
    ]


def test_a_pdf_rule_printed_without_its_dot_is_read_as_the_rule(gundam: PdfLines) -> None:
    clean = parse_lines(gundam, lambda lines: lines)
    doc = parse_lines(gundam, lambda ls: retext(ls, "2-2-2. ", lambda t: t.replace(".", "", 1)))
    assert numbers(doc) == numbers(clean)
    by_number = {r.number: r for r in doc.records}
    assert by_number["2-2-2"].text.startswith("Cards may be referred to by their card name")
    assert by_number["2-2-1"].text == "The name of a card."
    assert doc.warnings == clean.warnings == []


def test_a_pdf_rule_run_into_the_line_before_is_read_as_the_rule(gundam: PdfLines) -> None:
    def run_in(lines: list[Line]) -> list[Line]:
        at = next(i for i, line in enumerate(lines) if line.text.startswith("2-2-2. "))
        joined = lines[at - 1].model_copy(update={"text": f"{lines[at - 1].text} {lines[at].text}"})
        return [*lines[: at - 1], joined, *lines[at + 1 :]]

    clean = parse_lines(gundam, lambda lines: lines)
    doc = parse_lines(gundam, run_in)
    assert numbers(doc) == numbers(clean)
    assert {r.number: r for r in doc.records}["2-2-1"].text == "The name of a card."
    assert unaccounted(doc) == []


SWU = "swu/comprehensive-rules/7.0/SWU-comprehensive-rules.pdf"


def test_an_outline_rule_deleted_leaves_the_ones_after_it_named(shared: Path) -> None:
    """Star Wars: Unlimited prints only a rule's own segment (`b.`). With 1.5.2.b's lines
    gone, `c.` to `f.` no longer follow the outline: the parser keeps them as text, and
    the account names each (`c.` after `a.` skips ahead: no list starts there)."""
    request = request_for(source_of(SWU), what=SWU)
    extracted = family_of("swu-cr").extract((shared / SWU).read_bytes(), request)
    clean = parse_lines((extracted, request), lambda lines: lines)
    (gone,) = [r for r in clean.records if r.number == "1.5.2.b"]
    first, last = gone.location.line, gone.location.end_line or gone.location.line
    doc = parse_lines(
        (extracted, request), lambda ls: [ln for ln in ls if not first <= ln.line <= last]
    )
    lost = {"1.5.2.c", "1.5.2.d", "1.5.2.e", "1.5.2.f"}
    assert lost <= set(numbers(clean)) and not lost & set(numbers(doc))
    assert named(doc) == lost
    assert any(w.message.startswith("1.5.2.c (printed c.) stands") for w in doc.warnings)
    assert unaccounted(clean) == []


# ---------------------------------------------------------------- documents made here


def levels(*titles: str, dot: str = "required") -> list[LevelScheme]:
    kinds = ("chapter", "section", "rule", "subrule")
    return [
        LevelScheme(kind=kind, dot=dot, title=title)
        for kind, title in zip(kinds, titles, strict=False)
    ]


def parse_text(text: str, scheme: NumberedScheme) -> Document:
    request = ParseRequest(
        family="numbered", document="test/rules", rendition="txt", version="1.0", scheme=scheme
    )
    return parse_bytes(text.encode("utf-8"), request)


JAPANESE = """\
1. ゲームの概要
1.1. ゲーム人数 1.1.1. このゲームは2人で対戦します。
1.1.2. 三人以上では遊べません（1.1.1）。 1.2. 勝敗 1.2.1. ライフが0のプレイヤーは敗北します。
1.2.2. 山札が0枚のプレイヤーも敗北します。
2. カード
2.1. カードの種類 2.1.1. カードにはユニットとスペルがあります。
2.1.2. ユニットは場に出ます。
"""


def test_japanese_rules_run_together_are_each_read() -> None:
    scheme = NumberedScheme(levels=levels("always", "short", "never"))
    doc = parse_text(JAPANESE, scheme)
    assert numbers(doc) == [
        "1", "1.1", "1.1.1", "1.1.2", "1.2", "1.2.1", "1.2.2", "2", "2.1", "2.1.1", "2.1.2",
    ]  # fmt: skip
    by_number = {r.number: r for r in doc.records}
    assert by_number["1.1"].title == "ゲーム人数"
    assert by_number["1.1.1"].text == "このゲームは2人で対戦します。"
    assert by_number["1.1.2"].text == "三人以上では遊べません（1.1.1）。"
    assert doc.warnings == []


DOTLESS = """\
6. Counters
6.7. Counters and markers follow these rules.
6.7.1 Counters are placed on cards by effects.
6.7.2 A counter stays on its card until an effect removes it, as rule 6.7.1 says.
6.7.3. A card leaving play loses its counters.
6.8. Tokens follow the rules for cards, with the exceptions in
6.8.1 and the rules below.
6.8.1. A token is not a card.
"""


def test_dotless_numbers_of_a_pdf_like_text_are_read_and_citations_stay_text() -> None:
    doc = parse_text(DOTLESS, NumberedScheme(levels=levels("always", "never", "never")))
    assert numbers(doc) == ["6", "6.7", "6.7.1", "6.7.2", "6.7.3", "6.8", "6.8.1"]
    by_number = {r.number: r for r in doc.records}
    assert by_number["6.8"].text.endswith("with the exceptions in 6.8.1 and the rules below.")
    assert by_number["6.7.2"].references == ["cr:6.7.1"]
    assert doc.warnings == []


def test_a_number_in_a_sentence_that_fills_a_gap_is_named() -> None:
    """`6.7.2` lost inside 6.7.1's sentence, where no reader could split it: the gap
    between 6.7.1 and 6.7.3 and the number in the text are named."""
    text = (
        "6. Counters\n6.7. Counters and markers.\n6.7.1. Counters are placed on cards by the"
        " effects that say so 6.7.2 Counters stay until removed.\n"
        "6.7.3. A card leaving play loses them.\n"
    )
    doc = parse_text(text, NumberedScheme(levels=levels("always", "never", "never")))
    assert numbers(doc) == ["6", "6.7", "6.7.1", "6.7.3"]
    (warning,) = doc.warnings
    assert warning.code == UNACCOUNTED
    assert warning.message.startswith("6.7.2 stands inside a sentence on line 3")
    assert "missing before 6.7.3" in warning.message


def test_a_rule_the_parser_cannot_place_is_named_with_its_line() -> None:
    """`1.4` after 1.2 without its dot is neither the next rule nor printed as the scheme
    says: the reader keeps it as text, the account names it; the page number alone on its
    line is furniture."""
    text = (
        "1. Setup\n1.1. Each player shuffles their deck.\n1.2. Each player draws five cards.\n"
        "12\n1.4 The first player is chosen at random.\n"
    )
    doc = parse_text(text, NumberedScheme(levels=levels("always", "never")))
    assert numbers(doc) == ["1", "1.1", "1.2"]
    assert named(doc) == {"1.4"}
    (warning,) = [w for w in doc.warnings if w.code == UNACCOUNTED]
    assert warning.location is not None and warning.location.line == 5
