"""`nsg-yaml`: Null Signal Games' CR from its YAML source, on the three real bundles in
../shared/sources (22.12, 25.04, 26.03) and on small bundles the tests build."""

from __future__ import annotations

import io
import json
import re
import tarfile
from functools import cache
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.cli.shared import diff_renderers
from pipeline.diff.documents import diff_documents
from pipeline.diff.reconcile import reconcile
from pipeline.errors import EXIT_OK, ExtractError
from pipeline.extract.tarball import read_tar_members
from pipeline.extract.yaml_bundle import read_yaml_bundle
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from pipeline.models.records import Document
from pipeline.parse.errata import SOURCE_DEFECTS
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest
from pipeline.store.canonical import canonical_json
from pipeline.store.corpus import Corpus
from tests.support.helpers import SHARED, link_archive

# Reads the real documents of ../shared/sources: left out of `make test-fast`.
pytestmark = pytest.mark.slow

BUNDLES = SHARED / "netrunner" / "comprehensive-rules-yaml-source"
VERSIONS = ("22.12", "25.04", "26.03")


def bundle_bytes(version: str) -> bytes:
    return (BUNDLES / version / f"nsg-cr-yaml-v{version}.tar.gz").read_bytes()


def parse_yaml(data: bytes, version: str | None = None) -> Document:
    """Through the family table, as `import` and `update` parse it."""
    request = ParseRequest(
        family="nsg-yaml",
        document="netrunner/cr",
        rendition="tar.gz",
        what="bundle",
        version=version,
    )
    return parse_bytes(data, request)


@cache
def real(version: str) -> Document:
    # 25.04 states no version anywhere in its bundle: the maintainer asserts it.
    return parse_yaml(bundle_bytes(version), "25.04" if version == "25.04" else None)


def by_key(doc: Document) -> dict[str, str]:
    return {r.key: r.id for r in doc.records if r.key}


# --------------------------------------------------------------------------- real bundles


@pytest.mark.parametrize("version", VERSIONS)
def test_real_bundle_parses_with_zero_warnings(version: str) -> None:
    doc = real(version)
    assert doc.warnings == []
    assert doc.version == version
    assert doc.document == "netrunner/cr" and doc.parser.family == "nsg-yaml"
    assert doc.title == "Netrunner Comprehensive Rules"
    assert all(r.key for r in doc.records)
    for record in doc.records:  # the depth contract, in every family
        parent = next((p for p in doc.records if p.id == record.parent), None)
        assert record.depth == (1 if parent is None else parent.depth + 1)


def count_independently(version: str) -> tuple[int, int, int]:
    """(entries the generator numbers, lines naming a key, entries it does not read).

    Walks the raw YAML (not the parser's tree): chapters, their sections, every
    `rule` or `subsection` of a section, every `rule` of a subsection. Entries listed
    under a `rule` are counted apart: the generator reads `rules` only under a
    `subsection`, so they are not printed. Separately, a plain regex over the text
    counts every line that names a key."""
    members = read_tar_members(bundle_bytes(version), what=version)
    chapters = [p for p in members if re.search(r"data/input/(0[1-9]|1\d)_\w+\.yaml$", p)]
    numbered = unread = lines = 0
    for path in sorted(chapters):
        text = members[path].decode("utf-8")
        lines += len(re.findall(r"^\s*(?:- )?(?:chapter|section|subsection|rule): \S", text, re.M))
        chapter = yaml.safe_load(text)
        numbered += 1
        for section in chapter["sections"]:
            numbered += 1
            for element in section.get("rules") or []:
                if "subsection" in element:
                    numbered += 1 + len(element.get("rules") or [])
                elif "rule" in element:
                    numbered += 1
                    unread += len(element.get("rules") or [])
    return numbered, lines, unread


@pytest.mark.parametrize(
    ("version", "records", "unread"), [("22.12", 1454, 0), ("25.04", 1534, 1), ("26.03", 1550, 1)]
)
def test_record_counts_equal_an_independent_count(version: str, records: int, unread: int) -> None:
    numbered, lines, not_read = count_independently(version)
    doc = real(version)
    assert doc.counts["records"] == len(doc.records) == numbered == records
    assert lines == numbered + not_read and not_read == unread
    assert sum(doc.counts[k] for k in ("chapters", "sections", "rules", "subrules")) == records


def test_numbers_follow_the_generators_positional_rules() -> None:
    doc = real("26.03")
    ids = by_key(doc)
    assert ids["chpt_game_concepts"] == "cr:1"
    assert ids["sec_golden_rules"] == "cr:1.2"
    assert ids["rule_player_definitions"] == "cr:1.1.1"
    assert ids["rule_identity"] == "cr:1.4.1"  # a subsection ...
    assert ids["rule_gateway_identities"] == "cr:1.4.1a"  # ... and its first rule
    assert ids["chpt_appendix_timing_structures"] == "cr:11"
    rule = next(r for r in doc.records if r.id == "cr:1.4.1a")
    assert (rule.kind, rule.parent, rule.depth) == ("subrule", "cr:1.4.1", 4)
    assert rule.cards == ["The Catalyst", "The Syndicate"]


def test_keys_keep_their_record_across_versions_and_137_change_number() -> None:
    old, new = by_key(real("22.12")), by_key(real("26.03"))
    shared = old.keys() & new.keys()
    assert len(shared) == 1411
    assert sum(old[k] != new[k] for k in shared) == 137


def test_references_render_as_printed_and_resolve_to_ids() -> None:
    doc = real("26.03")
    rule = next(r for r in doc.records if r.key == "rule_symbol_credits")
    assert rule.text.startswith('The symbol [c] (plaintext: {c}) stands for "credit".')
    assert rule.text.endswith("See section 1.10 for rules about credits.")
    assert rule.references == ["cr:1.10"]
    assert by_key(doc)["sec_credits"] == "cr:1.10"
    several = next(r for r in doc.records if r.id == "cr:1.15.3")
    assert "rules 1.2.3 and 1.2.4" in several.text
    assert {"cr:1.2.3", "cr:1.2.4"} <= set(several.references)
    # {term:} and {subtype:} print as their text; timing structures as labelled bullets.
    run = next(r for r in doc.records if r.key == "sec_appendix_timing_structure_of_a_run")
    assert run.bullets[:2] == [
        "1) Initiation Phase",
        "a) The Runner announces the attacked server.",
    ]


def test_version_and_effective_date_come_from_the_bundle() -> None:
    assert (real("26.03").version, real("26.03").effective) == ("26.03", "2026-03-02")
    # 22.12's changelog says "Transcribed version of the v22.12 CR."
    assert real("22.12").effective is None
    unasserted = parse_yaml(bundle_bytes("25.04"))
    assert unasserted.version is None
    # and the doubled quote reviewed in 25.04 (parse/errata.py) is still reviewed: a review
    # follows the text it was made in, whatever version is stated
    assert [w.code for w in unasserted.warnings] == ["no-version"]
    assert [e.record for e in unasserted.publisher_errata if e.code] == ["cr:3.9.5b"]
    wrong = parse_yaml(bundle_bytes("26.03"), "26.04")
    assert wrong.version == "26.03" and [w.code for w in wrong.warnings] == ["version-mismatch"]


def test_changelog_becomes_publisher_changes_and_reconciles_with_the_diff() -> None:
    old, new = real("25.04"), real("26.03")
    assert len(new.publisher_changes) == new.counts["publisher_changes"] == 20
    first = new.publisher_changes[0]
    assert first.text == "Added rule 1.5.2b to support Méliès U's ability."
    assert first.cites == ["cr:1.5.2b"]
    result = reconcile(new.publisher_changes, diff_documents(old, new))
    assert len(result.named_found) == 20 and result.named_not_found == []
    assert len(real("25.04").publisher_changes) == 35
    assert [c.text for c in real("22.12").publisher_changes] == [
        "Transcribed version of the v22.12 CR."
    ]


def test_reviewed_source_defects_are_errata_and_each_still_occurs() -> None:
    seen = {(e.record, e.cites) for v in VERSIONS for e in real(v).publisher_errata}
    cites = {c for _, c in seen}
    for defect in SOURCE_DEFECTS:
        assert defect.cites in cites, f"{defect.key}: listed but no longer occurs"
    memory = [e for e in real("26.03").publisher_errata if e.cites.startswith("rules:")]
    assert [e.record for e in memory] == ["cr:1.20.2"]
    assert "rule_memory_unused_mu" not in by_key(real("26.03"))


def test_parse_is_deterministic() -> None:
    again = parse_yaml(bundle_bytes("26.03"))
    assert canonical_json(again) == canonical_json(real("26.03"))


# --------------------------------------------------------------------------- built bundles


def make_bundle(files: dict[str, str], top: str = "") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, text in files.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(top + name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


CHAPTER = """\
chapter: chpt_one
text: One
sections:
- section: sec_a
  text: First
  snippet: Section prose with {ref:rule_b}.
  rules:
  - timing_structure:
    elements:
    - text: Step one
  - rule: rule_b
    text: Rule B cites {ref:Sec_a} and {ref:rule_b,rule_c}, costs 1[c], names {card:Sure Gamble}.
  - subsection: rule_c
    steps:
    text: A stepped subsection.
    rules:
    - rule: step_c1
      text: First step.
"""
CONFIG = 'date:\n  year: "2031"\n  month: "07"\n  day: "04"\n'
CHANGES = "changelog:\n- text: Added {ref:step_c1}.\n"


def parse_built(files: dict[str, str], top: str = "") -> Document:
    return parse_yaml(make_bundle(files, top))


def test_built_bundle_positions_types_and_config() -> None:
    doc = parse_built(
        {
            "data/input/01_one.yaml": CHAPTER,
            "config.yaml": CONFIG,
            "data/changelogs/31.07.yaml": CHANGES,
        },
        top="netrunner-comprehensive-rules-0123abc/",  # GitHub's archive folder
    )
    assert (doc.version, doc.effective) == ("31.07", "2031-07-04")
    assert [(r.id, r.kind, r.key) for r in doc.records] == [
        ("cr:1", "chapter", "chpt_one"),
        ("cr:1.1", "section", "sec_a"),
        ("cr:1.1.2", "rule", "rule_b"),  # the timing structure took place 1
        ("cr:1.1.3", "rule", "rule_c"),
        ("cr:1.1.3a", "subrule", "step_c1"),
    ]
    rule = doc.records[2]
    assert rule.text == (
        "Rule B cites Section 1.1 and rules 1.1.2 and 1.1.3, costs 1[c], names Sure Gamble."
    )
    assert rule.references == ["cr:1.1", "cr:1.1.3"] and rule.cards == ["Sure Gamble"]
    assert doc.records[1].text == "Section prose with rule 1.1.2."
    assert doc.records[1].bullets == ["1) Step one"]
    assert doc.publisher_changes[0].text == "Added step 1.1.3a."  # `steps`: its rules are steps
    # Only the generator's chapter list is known; a one-chapter bundle is numbered, but said.
    assert [w.code for w in doc.warnings] == ["numbering"]


def test_what_the_generator_would_not_print_is_a_warning() -> None:
    chapter = CHAPTER.replace("  - rule: rule_b\n", "  - rule: rule_b\n    rules:\n    - rule: x\n")
    chapter = chapter.replace("names {card:Sure Gamble}", "gains 2{c}, cites {ref:rule_none}")
    doc = parse_built({"data/input/01_one.yaml": chapter})
    codes = sorted(w.code for w in doc.warnings)
    assert codes == ["bad-markup", "dangling-reference", "no-version", "numbering", "unknown-field"]
    rule = next(r for r in doc.records if r.key == "rule_b")
    assert "gains 2c" in rule.text and "UNKNOWNREF(rule_none)" in rule.text


def test_yaml_aliases_are_refused() -> None:
    chapter = "chapter: &a chpt\ntext: *a\nsections: []\n"
    with pytest.raises(ExtractError, match="alias"):
        read_yaml_bundle(make_bundle({"data/input/01_one.yaml": chapter}), what="built")


def test_a_bundle_without_chapters_is_an_error() -> None:
    with pytest.raises(ExtractError, match="no chapter files"):
        read_yaml_bundle(make_bundle({"README.md": "hello"}), what="built")


# --------------------------------------------------------------------------- through import


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    """NISEI 1.4 and the three NSG bundles imported from an archive folder of the real files
    (the packaged registry takes them: the PDF by its manifest key, the bundles by theirs)."""
    root = tmp_path_factory.mktemp("nsg-import")
    wanted = {("comprehensive-rules", "1.4")}
    wanted |= {("comprehensive-rules-yaml-source", v) for v in VERSIONS}
    manifest = json.loads((SHARED / "manifest.json").read_text())
    entries = [
        e for e in manifest if e["game"] == "netrunner" and (e["document"], e["version"]) in wanted
    ]
    folder = link_archive(root / "archive", entries)
    ctx = Context(
        corpus_dir=root / "corpus",
        cache_dir=root / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )
    summary = import_archive(ctx, folder)
    assert summary.exit_code == EXIT_OK, [o for o in summary.outcomes if o.exit_code]
    assert [(o.version, o.warnings) for o in summary.outcomes] == [
        ("1.4", 0),
        ("22.12", 0),
        ("25.04", 0),
        ("26.03", 0),
    ]
    return root / "corpus"


def test_import_stores_every_nsg_version_after_nisei_with_its_diff(imported: Path) -> None:
    entry = Corpus(imported).index().documents["netrunner/cr"]
    assert [v.version for v in entry.versions] == ["1.4", "22.12", "25.04", "26.03"]
    assert entry.current == "26.03"
    # The change of publisher is a diff like any other; each NSG diff is reconciled with
    # the changelog of the newer version.
    assert [(d.old, d.new) for d in entry.diffs] == [
        ("1.4", "22.12"),
        ("22.12", "25.04"),
        ("25.04", "26.03"),
    ]
    stored = json.loads(Corpus(imported).read_file(entry.diffs[2].json_file))
    assert len(stored["reconciliation"]["named_found"]) == 20
    assert stored["reconciliation"]["named_not_found"] == []


def test_show_answers_from_the_current_nsg_version(imported: Path) -> None:
    result = CliRunner().invoke(
        app, ["--corpus", str(imported), "show", "cr:1.2.3", "--doc", "netrunner/cr"]
    )
    assert result.exit_code == 0, result.output
    assert 'If an instruction includes the words "if able,"' in " ".join(result.output.split())
    assert "version 26.03" in result.output and "nsg-yaml 1.0" in result.output
