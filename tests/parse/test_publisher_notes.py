"""Publisher notes: what the publisher printed and the parser read right (a stray quotation
mark, a doubled space, a citation of a rule the document lacks) is stored in the Document,
reported by `update`, `verify` and `parse`, and never stages a version; warnings are kept
for what the parser may have misread. A real MTG release made into the next one (a rule
reworded, the date moved on, a stray quotation mark added) publishes unattended."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.cli.console import print_summary
from pipeline.corpus.diffs import stored_diff
from pipeline.errors import EXIT_CHANGED, EXIT_OK, EXIT_PARSE
from pipeline.jobs import update as jobs
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context
from pipeline.lookup import StoredCorpus
from pipeline.models.records import (
    Document,
    Erratum,
    GlossaryTerm,
    Location,
    ParserInfo,
    ParseWarning,
    Rule,
    WarningCode,
    text_digest,
)
from pipeline.parse.common import check_document
from pipeline.store.blobs import BlobStore
from pipeline.store.corpus import Corpus
from tests.parse.test_contract import cases, parse_case
from tests.support.helpers import SHARED, corpus_digest
from tests.support.publisher_site import discovering_context, serve_version
from tests.support.server import ScriptedServer

RELEASE = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
REWORDED = (
    "104.1. A game ends immediately when a player wins, when the game is a draw, or when "
    "the game is restarted.",
    "104.1. A game ends at once when a player wins, when the game is a draw, or when the "
    "game is restarted.",
)
# A stray opening quotation mark, as the publisher has printed in 603.6a since 2016.
QUIRK = (
    "101.1. Whenever a card’s text directly contradicts these rules, the card takes precedence.",
    "101.1. Whenever a card’s text directly contradicts these rules, “the card takes precedence.",
)


def next_release(data: bytes) -> bytes:
    """The 2025-11-14 text export made into a release the project has never seen: stated
    as effective on February 27, 2026, one rule reworded, a stray “ in another. The file
    keeps its byte order mark and its CRLF line ends."""
    text = data.decode("utf-8-sig")
    for old, new in (
        ("effective as of November 14, 2025.", "effective as of February 27, 2026."),
        REWORDED,
        QUIRK,
    ):
        assert old in text, old
        text = text.replace(old, new)
    return "\ufeff".encode() + text.encode("utf-8")


@pytest.fixture
def ctx(tmp_path: Path, server: ScriptedServer) -> Context:
    return discovering_context(tmp_path, server)


@pytest.mark.slow  # reads the real documents
def test_a_sound_release_with_a_publisher_quirk_publishes_unattended(
    ctx: Context, server: ScriptedServer, tmp_path: Path
) -> None:
    serve_version(server, RELEASE)
    first = jobs.update(ctx, [])
    assert first.exit_code == EXIT_CHANGED, first.outcomes
    corpus = Corpus(ctx.corpus_dir)
    before = corpus.load_document("mtg/cr", "2025-11-14")

    release = tmp_path / "MagicCompRules 20260227.txt"
    release.write_bytes(next_release(RELEASE.read_bytes()))
    serve_version(server, release, etag='"v2"')
    summary = jobs.update(ctx, [])

    # published, not staged: no warning, so no `accept` is needed
    assert summary.exit_code == EXIT_CHANGED, summary.outcomes
    (outcome,) = summary.outcomes
    assert (outcome.outcome, outcome.version, outcome.previous, outcome.warnings) == (
        "new",
        "2026-02-27",
        "2025-11-14",
        0,
    )
    entry = corpus.index().documents["mtg/cr"]
    assert entry.current == "2026-02-27"
    assert entry.entry("2026-02-27") is not None
    assert entry.entry("2026-02-27").status == "published"  # type: ignore[union-attr]
    assert not (ctx.corpus_dir / "staged").exists() or not any(
        (ctx.corpus_dir / "staged").rglob("*.json")
    )

    # the note: in the stored Document, with the record, field, exact text and its text
    doc = corpus.load_document("mtg/cr", "2026-02-27")
    assert doc.warnings == []
    assert [(n.code, n.record, n.field, n.text) for n in doc.publisher_notes] == [
        (WarningCode.LINT_UNBALANCED_QUOTES, "cr:101.1", "text", "“")
    ]
    (note,) = doc.publisher_notes
    rule = next(r for r in doc.records if r.id == "cr:101.1")
    assert note.digest == text_digest(rule.text)
    assert "«“»the card takes precedenc" in note.message
    # ... and in the update report, as JSON and as a person reads it
    assert outcome.notes == [note.message]
    reported = summary.as_json()["outcomes"]
    assert reported[0]["notes"] == [note.message]  # type: ignore[index]
    printed = io.StringIO()
    print_summary(Console(file=printed, width=400), summary)
    assert f"mtg/cr 2026-02-27: publisher note: {note.message}" in printed.getvalue()

    # the findings reviewed in 2025-11-14 hold in the new release, whose texts are the same
    def reviewed(errata: list[Erratum]) -> list[tuple[object, ...]]:
        return [(e.record, e.code, e.field, e.cites, e.digest, e.reason) for e in errata]

    assert reviewed(doc.publisher_errata) == reviewed(before.publisher_errata)
    assert len(doc.publisher_errata) == 6  # five lint findings and the Map entry's citation
    # the reworded rule is the diff's one change of text
    diff = stored_diff(StoredCorpus(corpus.root), "mtg/cr", "2025-11-14", "2026-02-27")
    assert diff is not None
    changed = {c.new_id for c in diff.changes if c.cls != "unchanged"}
    assert {"cr:104.1", "cr:101.1"} <= changed, changed

    # verify lists the note and passes
    checked = audit.verify(ctx, ["mtg/cr"])
    assert checked.exit_code == EXIT_OK, checked.outcomes
    by_version = {o.version: o for o in checked.outcomes}
    assert by_version["2026-02-27"].notes == [note.message]
    assert by_version["2025-11-14"].notes == []


@pytest.mark.slow  # reads the real documents
def test_a_release_that_may_be_misread_is_still_staged(
    ctx: Context, server: ScriptedServer, tmp_path: Path
) -> None:
    """A note never hides a warning: the same release with a rule number printed twice
    (a duplicate id) is staged for review, with its note stored all the same."""
    text = next_release(RELEASE.read_bytes()).decode("utf-8-sig")
    line = next(x for x in text.split("\r\n") if x.startswith("104.2. "))
    text = text.replace(line, line + "\r\n\r\n" + line, 1)
    release = tmp_path / "MagicCompRules 20260227.txt"
    release.write_bytes("\ufeff".encode() + text.encode("utf-8"))
    serve_version(server, release)
    before = corpus_digest(ctx.corpus_dir)
    summary = jobs.update(ctx, [])
    assert summary.exit_code == EXIT_PARSE, summary.outcomes
    (outcome,) = summary.outcomes
    assert outcome.outcome == "staged" and outcome.warnings >= 1
    assert "rulescorpus accept mtg/cr 2026-02-27" in outcome.message
    assert len(outcome.notes) == 1 and "cr:101.1 text" in outcome.notes[0]
    assert Corpus(ctx.corpus_dir).index().documents["mtg/cr"].current is None
    assert before != corpus_digest(ctx.corpus_dir)  # staged, not lost
    # a maintainer accepts it: the report lists the same note
    accepted = audit.accept(ctx, "mtg/cr", "2026-02-27")
    assert accepted.exit_code == EXIT_OK
    assert accepted.outcomes[0].notes == outcome.notes
    assert Corpus(ctx.corpus_dir).index().documents["mtg/cr"].current == "2026-02-27"


# --------------------------------------------------------------------------- real releases

MTG = [case for case in cases() if case.values[0].document == "mtg/cr"]


@pytest.fixture(scope="module")
def blobs(tmp_path_factory: pytest.TempPathFactory) -> BlobStore:
    return BlobStore(tmp_path_factory.mktemp("notes-blobs"))


@pytest.mark.parametrize(
    ("source", "version", "files"),
    [
        pytest.param(*case.values, id=case.id, marks=[pytest.mark.slow])
        if case.values[0].rendition == "pdf"
        else case
        for case in MTG
    ],
)
def test_every_real_mtg_release_parses_with_zero_warnings(
    source: Any, version: str, files: list[Any], blobs: BlobStore, parse_cache_dir: Path
) -> None:
    """What the publisher printed (the quotation marks of 603.6a, 606.5 and 614.1c, the
    junk-token entry, the Map entry citing rule 110.10) is a reviewed erratum or a note:
    no MTG release in the archive gives a warning, so none needs a person to publish it."""
    doc = parse_case(source, version, files, blobs, parse_cache_dir)
    assert [f"{w.code}: {w.message}" for w in doc.warnings] == []
    for note in doc.publisher_notes:
        assert note.message.startswith(f"{note.record} ")


def test_the_archive_has_mtg_releases_in_both_renditions() -> None:
    assert {case.values[0].rendition for case in MTG} == {"txt", "pdf"}
    assert len(MTG) >= 10


# --------------------------------------------------------------------------- dangling references


def tiny(
    *rules: tuple[str, str, list[str]], glossary: list[GlossaryTerm] | None = None
) -> Document:
    return Document(
        game="test",
        document="test/cr",
        title=None,
        version="1",
        parser=ParserInfo(family="test", version="0"),
        records=[
            Rule(
                id=f"cr:{number}",
                number=number,
                kind="rule",
                depth=1,
                text=text,
                references=references,
                location=Location(line=n),
            )
            for n, (number, text, references) in enumerate(rules, start=1)
        ],
        glossary=glossary or [],
    )


def test_a_citation_of_a_rule_the_document_lacks_is_a_publisher_note() -> None:
    doc = check_document(
        tiny(
            ("100.1", "Players follow rule 100.9.", ["cr:100.9"]),
            ("100.2", "A game has two players.", []),
        ),
        [],
    )
    assert doc.warnings == []
    (note,) = doc.publisher_notes
    assert (note.code, note.record, note.field, note.text) == (
        WarningCode.DANGLING_REFERENCE,
        "cr:100.1",
        "text",
        "cr:100.9",
    )
    assert note.message == "cr:100.1 cites cr:100.9, which is not in the document"
    assert note.digest == text_digest("Players follow rule 100.9.")


def test_a_glossary_citation_of_a_removed_rule_is_a_publisher_note() -> None:
    term = GlossaryTerm(
        id="glossary:map",
        term="Map",
        definition="See rule 110.10.",
        references=["cr:110.10"],
        location=Location(line=9),
    )
    doc = check_document(tiny(("110.1", "A token.", []), glossary=[term]), [])
    assert doc.warnings == []
    assert [(n.record, n.field, n.text) for n in doc.publisher_notes] == [
        ("glossary:map", "definition", "cr:110.10")
    ]


def test_a_citation_of_a_missing_rule_is_a_warning_where_the_parse_may_have_lost_it() -> None:
    unsure = [ParseWarning(code=WarningCode.NUMBERING, message="100.3 out of sequence")]
    doc = check_document(tiny(("100.1", "Players follow rule 100.9.", ["cr:100.9"])), unsure)
    assert doc.publisher_notes == []
    assert [w.code for w in doc.warnings] == ["numbering", "dangling-reference"]
    # a warning that says nothing of the rules read leaves the citation a note
    dated = [ParseWarning(code=WarningCode.BAD_DATE, message="31 February")]
    doc = check_document(tiny(("100.1", "Players follow rule 100.9.", ["cr:100.9"])), dated)
    assert [w.code for w in doc.warnings] == ["bad-date"]
    assert [n.text for n in doc.publisher_notes] == ["cr:100.9"]


def test_a_cited_rule_read_as_text_of_another_is_a_warning_not_a_note() -> None:
    """A number that opens a paragraph of some record, cited elsewhere and absent as a
    rule: the parser may have read that rule as text (a wrapped line taken for a rule, or
    a rule taken for a wrapped line), so it stays a warning."""
    doc = check_document(
        tiny(
            ("100.1", "Players follow rule 100.3.", ["cr:100.3"]),
            ("100.2", "A game has two players.\n100.3. Each player has a deck.", []),
        ),
        [],
    )
    assert doc.publisher_notes == []
    (warning,) = doc.warnings
    assert warning.code == WarningCode.DANGLING_REFERENCE
    assert "cr:100.1 cites cr:100.3" in warning.message


# --------------------------------------------------------------------------- the parse command

SMALL_FAB = """1 Game Concepts
1.0 General
1.0.1 A rule cites [1.0.9], which the publisher removed.
1.0.2 A card reads “Draw a card. and nothing else.
"""


def test_parse_prints_each_note_and_exits_as_the_warnings_say(tmp_path: Path) -> None:
    """The slice ends before FaB's glossary and back matter (a warning: the parser did
    not find the end), so its citation of a rule it lacks may be a rule the parser lost:
    a warning too. The stray quotation mark is the publisher's: a note, on stderr."""
    path = tmp_path / "en-fab-cr.txt"
    path.write_text(SMALL_FAB, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["parse", str(path), "--family", "fab-cr", "--version", "9.9.9"]
    )
    doc = json.loads(result.stdout)
    notes = [(n["code"], n["record"], n["field"], n["text"]) for n in doc["publisher_notes"]]
    assert notes == [("lint-unbalanced-quotes", "cr:1.0.2", "text", "“")]
    assert "publisher note [lint-unbalanced-quotes] line 4: cr:1.0.2 text:" in result.stderr
    assert [w["code"] for w in doc["warnings"]] == ["unexpected-end", "dangling-reference"]
    assert "cr:1.0.1 cites cr:1.0.9" in doc["warnings"][1]["message"]
    assert result.exit_code == EXIT_PARSE
