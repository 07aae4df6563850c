"""Versions are ordered as what the documents state, never by an archive's labels.

An archive of every MTG text export labels its folders `20030315`; the documents
before mid-2009 state their date as "These rules are current as of March 15, 2003.".
Those labels, compared as strings with `2025-11-14`, once made 2009 the current
version of mtg/cr.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK, EXIT_USAGE, EXIT_VERIFY, MisorderedCorpus
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from pipeline.jobs.verify import verify
from pipeline.store.corpus import Corpus
from pipeline.store.ordering import version_key
from tests.conftest import ParseReal
from tests.support.helpers import SHARED, corpus_digest, link_archive

OLD_EXPORTS = {
    "20030315": "2003-03-15",
    "20061001": "2006-10-01",
    "20090201": "2009-02-01",
}
FOLDER = "mtg/comprehensive-rules"


def _text_of(path: Path) -> str:
    """The file as text, decoded here without the project's code: a byte-order mark says
    UTF-16 or UTF-8; otherwise UTF-8, else Windows-1252."""
    data = path.read_bytes()
    if data[:2] in (b"\xfe\xff", b"\xff\xfe"):
        return data.decode("utf-16")
    if data[:3] == b"\xef\xbb\xbf":
        return data[3:].decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def count_numbered_lines(text: str) -> set[str]:
    """Every number a line of the rules starts with: rules and subrules (`100.1.`, `100.1a`,
    and `606. 8b`, a publisher's stray space), sections and chapters (`100. General`,
    `1. The Game`, which the contents list again: a set counts each once)."""
    rule = re.compile(r"^(\d{3})\.\s?(\d+[a-z]?)\.?(?=\s)")
    heading = re.compile(r"^(\d{1,3})\.\s+[A-Z\[]")
    numbers: set[str] = set()
    for line in re.split(r"\r\n|\r|\n", text):
        line = line.strip()
        if match := rule.match(line):
            numbers.add(f"{match.group(1)}.{match.group(2)}")
        elif match := heading.match(line):
            numbers.add(match.group(1))
    return numbers


def _only_file(label: str) -> str:
    (path,) = (SHARED / FOLDER / label).glob("*.txt")
    return str(path.relative_to(SHARED))


@pytest.mark.parametrize("label", sorted(OLD_EXPORTS))
def test_old_mtg_exports_state_their_date_and_every_numbered_line_is_a_rule(
    parse_real: ParseReal, label: str
) -> None:
    """The exports before mid-2009 say 'These rules are current as of March 15, 2003.'."""
    path = _only_file(label)
    doc = parse_real(path, "mtg-cr", document="mtg/cr", version=label)
    assert doc.version == OLD_EXPORTS[label]
    assert doc.effective == OLD_EXPORTS[label]
    assert {r.number for r in doc.records} == count_numbered_lines(_text_of(SHARED / path))
    assert doc.warnings == []
    # The publisher's own quirks of those years (a doubled space, a quotation mark that
    # pairs with nothing) are read right: notes, never warnings.
    assert {n.code for n in doc.publisher_notes} <= {"lint-doubled-space", "lint-unbalanced-quotes"}


def test_pre_2009_glossary_keeps_a_definitions_list_inside_its_entry(
    parse_real: ParseReal,
) -> None:
    """2003's 'Expansion Symbol' entry ends with a list of sets under unindented
    sub-headings ('Expansions and Editions'); each was read as a term with no definition."""
    doc = parse_real(_only_file("20030315"), "mtg-cr", document="mtg/cr", version="20030315")
    terms = {g.term: g for g in doc.glossary}
    assert "Expansions and Editions" not in terms
    assert "Arabian Nights(r) [symbol]" in terms["Expansion Symbol"].definition
    assert all(g.definition for g in doc.glossary)


def test_a_heading_number_with_a_stray_space_is_the_next_rule(parse_real: ParseReal) -> None:
    """2006 prints '606. 8b Players win and lose ...' after 606.8a: one rule, not a second
    section 606."""
    doc = parse_real(_only_file("20061001"), "mtg-cr", document="mtg/cr", version="20061001")
    rules = {r.id: r for r in doc.records}
    assert rules["cr:606.8b"].parent == "cr:606.8"
    assert rules["cr:606.8b"].text.startswith("Players win and lose the game only as a team")
    assert [r.id for r in doc.records].count("cr:606") == 1


def test_a_rule_whose_printed_parent_is_absent_stays_where_it_stands(
    parse_real: ParseReal,
) -> None:
    """2006 prints 432.2b between 423.2a and 423.3: the number is kept as printed, and the
    rule is placed under the rule it stands in."""
    doc = parse_real(_only_file("20061001"), "mtg-cr", document="mtg/cr", version="20061001")
    ids = [r.id for r in doc.records]
    rule = next(r for r in doc.records if r.id == "cr:432.2b")
    assert rule.parent == "cr:423.2"
    assert ids.index("cr:423.2a") < ids.index("cr:432.2b") < ids.index("cr:423.3")


@given(st.dates(min_value=datetime.date(1990, 1, 1), max_value=datetime.date(2099, 12, 31)))
def test_a_date_without_separators_orders_as_that_date(day: datetime.date) -> None:
    compact, iso = day.strftime("%Y%m%d"), day.isoformat()
    assert version_key(compact) == version_key(iso)
    later = (day + datetime.timedelta(days=1)).isoformat()
    assert version_key(compact) < version_key(later)


def test_version_numbers_compare_as_numbers() -> None:
    assert version_key("2.9") < version_key("2.10") < version_key("2.10.1") < version_key("22.12")


def _entry(label: str, relative: str) -> dict[str, Any]:
    data = (SHARED / relative).read_bytes()
    return {
        "game": "mtg",
        "document": "comprehensive-rules",
        "version": label,
        "date": None,
        "format": "txt",
        "url": None,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "path": relative,
        "tier": "publisher",
        "notes": "",
    }


def _context(root: Path, parse_cache_dir: Path) -> Context:
    return Context(
        corpus_dir=root / "corpus",
        cache_dir=root / "cache",
        parse_cache_dir=parse_cache_dir,
        renderers=diff_renderers(),
    )


def test_archive_labels_never_decide_which_version_is_current(
    tmp_path: Path, parse_cache_dir: Path
) -> None:
    """Labels that sort the wrong way round (`99999999` on the 2003 export, `1` on the 2025
    one): each version is stored under its stated date, the label kept and reported as the
    archive's, and the newest stated date is current."""
    entries = [
        _entry("99999999", _only_file("20030315")),
        _entry("1", _only_file("20251114")),
    ]
    folder = link_archive(tmp_path / "archive", entries)
    summary = import_archive(_context(tmp_path, parse_cache_dir), folder)
    assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes if o.exit_code]
    mtg = Corpus(tmp_path / "corpus").index().documents["mtg/cr"]
    assert [(v.version, v.label) for v in mtg.versions] == [
        ("2003-03-15", "99999999"),
        ("2025-11-14", "1"),
    ]
    assert mtg.current == "2025-11-14"
    assert [(d.old, d.new) for d in mtg.diffs] == [("2003-03-15", "2025-11-14")]
    reported = {o.version: o.label for o in summary.outcomes if o.document == "mtg/cr"}
    assert reported == {"2003-03-15": "99999999", "2025-11-14": "1"}


def _archive_with_copy(folder: Path, label: str, data: bytes) -> Path:
    """The 2003 export under its own label, and `data` beside it under `label`."""
    original = _only_file("20030315")
    folder = link_archive(folder, [_entry("20030315", original)])
    copy = folder / label / "MagicCompRules.txt"
    copy.parent.mkdir()
    copy.write_bytes(data)
    other = _entry("20030315", original) | {
        "version": label,
        "path": f"{label}/MagicCompRules.txt",
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    (folder / "manifest.json").write_text(json.dumps([_entry("20030315", original), other]))
    return folder


def test_two_files_stating_one_version_with_different_bytes_store_neither(
    tmp_path: Path, parse_cache_dir: Path
) -> None:
    """Which of two different files is 'March 15, 2003' is not the archive's to decide:
    both are refused (exit 20) and nothing of the document is stored."""
    data = (SHARED / _only_file("20030315")).read_bytes()
    folder = _archive_with_copy(
        tmp_path / "archive", "edited", data.replace(b"intimidating", b"daunting")
    )
    summary = import_archive(_context(tmp_path, parse_cache_dir), folder)
    assert summary.exit_code == EXIT_VERIFY
    refused = [o for o in summary.outcomes if o.exit_code == EXIT_VERIFY]
    assert len(refused) == 2 and all("2003-03-15" in o.message for o in refused)
    assert "mtg/cr" not in Corpus(tmp_path / "corpus").index().documents


def test_the_same_bytes_under_two_labels_are_one_version(
    tmp_path: Path, parse_cache_dir: Path
) -> None:
    data = (SHARED / _only_file("20030315")).read_bytes()
    folder = _archive_with_copy(tmp_path / "archive", "copy", data)
    summary = import_archive(_context(tmp_path, parse_cache_dir), folder)
    assert summary.exit_code == EXIT_OK
    mtg = Corpus(tmp_path / "corpus").index().documents["mtg/cr"]
    assert [v.version for v in mtg.versions] == ["2003-03-15"]
    outcomes = sorted(o.outcome for o in summary.outcomes if o.document == "mtg/cr")
    assert outcomes == ["imported", "unchanged"]


def test_a_corpus_stored_by_label_order_is_refused_with_the_command_that_rebuilds_it(
    tmp_path: Path, parse_cache_dir: Path
) -> None:
    """A corpus written by a build that compared labels as strings has an older current
    version and a diff running backwards. Writing to it is refused (exit 2) with the
    command that rebuilds it, `verify` fails, and nothing is changed."""
    entries = [
        _entry("20221007", _only_file("20221007")),
        _entry("20030315", _only_file("20030315")),
    ]
    folder = link_archive(tmp_path / "archive", entries)
    ctx = _context(tmp_path, parse_cache_dir)
    assert import_archive(ctx, folder).exit_code == EXIT_OK
    index_file = tmp_path / "corpus" / "index.json"
    index = json.loads(index_file.read_text())
    mtg = index["documents"]["mtg/cr"]
    mtg["current"] = "2003-03-15"
    mtg["diffs"][0]["old"], mtg["diffs"][0]["new"] = "2022-10-07", "2003-03-15"
    index_file.write_text(json.dumps(index))
    before = corpus_digest(tmp_path / "corpus")

    with pytest.raises(MisorderedCorpus) as refused:
        import_archive(ctx, folder)
    assert refused.value.exit_code == EXIT_USAGE
    message = str(refused.value)
    assert "the current version is 2003-03-15, not 2022-10-07" in message
    assert "runs from 2022-10-07 back to 2003-03-15" in message
    assert "rulescorpus --corpus NEW_FOLDER import ARCHIVE_DIR" in message
    assert corpus_digest(tmp_path / "corpus") == before

    checked = verify(ctx, [])
    assert checked.exit_code == EXIT_VERIFY
    assert any("back to 2003-03-15" in o.message for o in checked.outcomes)
