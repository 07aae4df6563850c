"""`nsg-yaml` on releases it has never seen: every place a Null Signal Games bundle states its
version or effective date is read, through the engine's statement reader, and a bundle that
states neither gets no version and a warning. Bundles are built here in the generator's
layout, each varying where the release is stated."""

from __future__ import annotations

import io
import tarfile

import pytest

from pipeline.models.records import Document
from pipeline.models.scheme import FORMS
from pipeline.parse.nsg.tree import GENERATOR_CHAPTERS
from pipeline.parse.numbered.statements import compile_statement, read_date
from pipeline.runner.families import parse_bytes
from pipeline.runner.request import ParseRequest

CHAPTER = """\
chapter: chpt_one
text: One
sections:
- section: sec_a
  text: First
  rules:
  - rule: rule_b
    text: Rule B.
"""
CHANGES = "changelog:\n- text: Added {ref:rule_b}.\n"
WORKFLOW = """\
jobs:
  convert_files:
    steps:
      - name: Convert input files
        run: python3 -m rules_doc_generator -a -t all -m 08 -d 25 -y 2025
"""


def build(files: dict[str, str], top: str = "") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        own = any(n.startswith("data/input/") and "/00_" not in n for n in files)
        for name, text in (({} if own else {"data/input/01_one.yaml": CHAPTER}) | files).items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(top + name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def parse(files: dict[str, str], top: str = "", version: str | None = None) -> Document:
    request = ParseRequest(
        family="nsg-yaml",
        document="netrunner/cr",
        rendition="tar.gz",
        what="built",
        version=version,
    )
    return parse_bytes(build(files, top), request)


def codes(doc: Document) -> list[str]:
    # A one-chapter bundle is numbered but said to be (`numbering`): not what is tested here.
    return sorted(w.code for w in doc.warnings if w.code != "numbering")


@pytest.mark.parametrize(
    ("files", "top", "version", "effective"),
    [
        # config.yaml in other keys than the generator's date mapping
        ({"config.yaml": 'version: "26.10"\n'}, "", "26.10", None),
        ({"config.yaml": "effective_date: 2026-10-05\n"}, "", "26.10", "2026-10-05"),
        ({"config.yaml": "effective: October 5th, 2026\n"}, "", "26.10", "2026-10-05"),
        ({"config.yaml": "title: Netrunner Comprehensive Rules v26.10\n"}, "", "26.10", None),
        ({"config.yaml": "title: Netrunner Comprehensive Rules (v26.10)\n"}, "", "26.10", None),
        # the generator's date mapping, written as numbers
        (
            {"config.yaml": "date:\n  year: 2026\n  month: 10\n  day: 5\n"},
            "",
            "26.10",
            "2026-10-05",
        ),
        # the effective date on the generator's command line, before config.yaml existed
        ({".github/workflows/convert.yaml": WORKFLOW}, "", "25.08", "2025-08-25"),
        # the changelog: an Effective line, a version line, a key, a version in a sentence
        (
            {"data/input/00_changelog.yaml": "changelog:\n- text: 'Effective: June 16th, 2024'\n"},
            "",
            "24.06",
            "2024-06-16",
        ),
        (
            {"data/input/00_changelog.yaml": "changelog:\n- text: Version 1.2.0\n"},
            "",
            "1.2.0",
            None,
        ),
        (
            {"data/input/00_changelog.yaml": "version: 24.12\n" + CHANGES},
            "",
            "24.12",
            None,
        ),
        (
            {"data/input/00_changelog.yaml": "changelog:\n- text: Changes of the v24.09 CR.\n"},
            "",
            "24.09",
            None,
        ),
        # GitHub's archive of a tag names the tag in its folder
        ({}, "netrunner-comprehensive-rules-25.08/", "25.08", None),
        ({}, "netrunner-comprehensive-rules-v1.6/", "1.6", None),
    ],
)
def test_a_release_is_read_wherever_the_bundle_states_it(
    files: dict[str, str], top: str, version: str, effective: str | None
) -> None:
    doc = parse(files, top)
    assert (doc.version, doc.effective) == (version, effective)
    assert codes(doc) == [] or codes(doc) == ["no-changelog"]


def test_a_bundle_that_states_nothing_has_no_version_and_says_so() -> None:
    """A commit's archive folder (`<repo>-<sha>`) names no release; nothing is guessed."""
    doc = parse({"data/input/00_changelog.yaml": CHANGES}, "netrunner-comprehensive-rules-0a1b2c3/")
    assert doc.version is None and doc.effective is None
    assert codes(doc) == ["no-version"]
    assert parse({"data/input/00_changelog.yaml": CHANGES}, version="24.12").version == "24.12"


def test_changelog_prose_that_starts_like_a_statement_is_not_one() -> None:
    """`Updated the list of subtypes` and `Effective immediately, ...` begin as statement
    forms do; read leniently they would be dates that do not read (`bad-date`)."""
    prose = (
        "changelog:\n- text: Updated the list of subtypes.\n"
        "- text: Effective immediately, rule B applies.\n- text: Version history moved.\n"
    )
    doc = parse({"data/input/00_changelog.yaml": prose})
    assert (doc.version, doc.effective) == (None, None)
    assert codes(doc) == ["no-version"]


def test_a_changelog_naming_several_versions_states_none_of_them() -> None:
    text = "changelog:\n- text: Reverts v24.09's change to {ref:rule_b} made in v24.06.\n"
    doc = parse({"data/input/00_changelog.yaml": text})
    assert doc.version is None and codes(doc) == ["no-version"]


def test_statements_that_disagree_are_a_version_mismatch() -> None:
    config = 'date:\n  year: "2026"\n  month: "03"\n  day: "02"\nversion: "26.04"\n'
    doc = parse({"config.yaml": config, "data/changelogs/26.03.yaml": CHANGES})
    assert (doc.version, doc.effective) == ("26.03", "2026-03-02")
    assert codes(doc) == ["version-mismatch"]
    assert "26.04" in doc.warnings[0].message or any("26.04" in w.message for w in doc.warnings)


def test_a_metadata_date_that_does_not_read_is_reported_not_guessed() -> None:
    doc = parse({"config.yaml": "effective_date: Smarch 32, 2026\n"})
    assert doc.version is None and doc.effective is None
    assert codes(doc) == ["bad-date", "no-version"]


def test_a_workflow_date_that_is_no_date_is_not_taken() -> None:
    workflow = WORKFLOW.replace("-m 08 -d 25", "-m 13 -d 25")
    doc = parse({".github/workflows/convert.yaml": workflow})
    assert doc.version is None and codes(doc) == ["no-version"]


def test_the_changelog_of_a_stated_version_is_its_publisher_changes() -> None:
    doc = parse(
        {
            "config.yaml": "version: 26.10\n",
            "data/changelogs/26.10.yaml": CHANGES,
            "data/changelogs/26.03.yaml": "changelog:\n- text: Older.\n",
        }
    )
    assert doc.version == "26.10"
    assert [c.text for c in doc.publisher_changes] == ["Added rule 1.1.1."]


@pytest.mark.parametrize(
    ("form", "line", "date"),
    [
        ("effective-date", "Effective date: March 2, 2026", "2026-03-02"),
        ("date", "Date: 2026-03-02", "2026-03-02"),
    ],
)
def test_the_new_statement_forms_read_their_date(form: str, line: str, date: str) -> None:
    match = compile_statement(FORMS[form]).search(line)
    assert match is not None and read_date(match.group("date")) == date


def chapter(key: str, number: int) -> str:
    return (
        CHAPTER.replace("chpt_one", key)
        .replace("sec_a", f"sec_{number}")
        .replace("rule_b", f"rule_{number}")
    )


ADDED = "changelog:\n- text: Added a chapter.\n"
KNOWN_CHAPTERS = GENERATOR_CHAPTERS


def test_a_new_chapter_file_is_numbered_in_file_order_without_a_warning() -> None:
    """A next release may add a chapter file (`12_...`); with the eleven the generator lists
    all there and in order, the new one is numbered by its place, not reported."""
    files = {
        f"data/input/{name}.yaml": chapter(f"chpt_{n}", n)
        for n, name in enumerate((*KNOWN_CHAPTERS, "12_organized_play"), start=1)
    }
    release = {"config.yaml": "version: 27.01\n", "data/changelogs/27.01.yaml": ADDED}
    doc = parse(files | release)
    assert [w.code for w in doc.warnings] == []
    assert [r.id for r in doc.records if r.kind == "chapter"][-1] == "cr:12"
    assert next(r.key for r in doc.records if r.id == "cr:12") == "chpt_12"


def test_a_missing_or_reordered_known_chapter_is_still_reported() -> None:
    names = (*KNOWN_CHAPTERS[:4], *KNOWN_CHAPTERS[5:])
    files = {f"data/input/{name}.yaml": chapter(f"chpt_{n}", n) for n, name in enumerate(names, 1)}
    release = {"config.yaml": "version: 27.01\n", "data/changelogs/27.01.yaml": ADDED}
    doc = parse(files | release)
    assert [w.code for w in doc.warnings] == ["numbering"]
