"""Pure verification: pins, published checksum files, rendition agreement."""

from __future__ import annotations

import pytest

from pipeline.errors import HashMismatch
from pipeline.models.records import Document, GlossaryTerm, Location, ParserInfo, Rule
from pipeline.models.sources import Lock, Pin
from pipeline.verify.checks import (
    PinStatus,
    add_pin,
    check_pin,
    check_published,
    compare_renditions,
    normalise_typography,
    parse_published_checksums,
)

A = "a" * 64
B = "b" * 64


def lock() -> Lock:
    return add_pin(
        Lock(), Pin(document="fab/cr", rendition="txt", version="2.14.0", sha256=A, bytes=10)
    )


def test_pins_tell_unchanged_new_and_conflicting_bytes() -> None:
    assert check_pin(lock(), "fab/cr", "txt", "2.14.0", A, 10) is PinStatus.UNCHANGED
    assert check_pin(lock(), "fab/cr", "txt", "2.15.0", B, 12) is PinStatus.NEW
    assert check_pin(lock(), "fab/cr", "pdf", "2.14.0", B, 12) is PinStatus.NEW
    with pytest.raises(HashMismatch) as caught:
        check_pin(lock(), "fab/cr", "txt", "2.14.0", B, 12)
    message = str(caught.value)
    assert f"Expected {A}" in message and f"Got {B}" in message and "already pinned" in message


def test_add_pin_replaces_and_sorts() -> None:
    again = add_pin(
        lock(), Pin(document="fab/cr", rendition="txt", version="2.14.0", sha256=B, bytes=12)
    )
    assert [p.sha256 for p in again.pins] == [B]
    more = add_pin(
        again, Pin(document="fab/cr", rendition="pdf", version="2.14.0", sha256=A, bytes=10)
    )
    assert [p.rendition for p in more.pins] == ["pdf", "txt"]


def test_published_checksum_files_in_both_common_formats() -> None:
    text = f"{A}  en-fab-cr.pdf\nSHA256 (en-fab-cr.txt) = {B}\nnot a checksum line\n"
    listed = parse_published_checksums(text)
    assert listed == {"en-fab-cr.pdf": A, "en-fab-cr.txt": B}
    check_published("fab/cr pdf", A, listed, "en-fab-cr.pdf")
    with pytest.raises(HashMismatch, match="Expected " + A):
        check_published("fab/cr pdf", B, listed, "en-fab-cr.pdf")
    with pytest.raises(HashMismatch, match="does not name this file"):
        check_published("fab/cr ppg", A, listed, "en-fab-ppg.txt")


def test_typography_folding_touches_no_words() -> None:
    assert normalise_typography("“Go again”—it’s [1.0.1a] .") == '"Go again"-it\'s [1.0.1a].'
    assert normalise_typography("wait\u2026 ( see  rule )") == "wait... (see rule)"
    assert normalise_typography("one word") != normalise_typography("one ward")


def doc(text: str, extra: bool = False) -> Document:
    records = [
        Rule(
            id="cr:1",
            number="1",
            kind="chapter",
            depth=1,
            title="Concepts",
            location=Location(line=1),
        ),
        Rule(
            id="cr:1.0.1",
            number="1.0.1",
            kind="rule",
            depth=3,
            parent="cr:1",
            text=text,
            location=Location(line=2),
        ),
    ]
    if extra:
        records.append(
            Rule(
                id="cr:1.0.2",
                number="1.0.2",
                kind="rule",
                depth=3,
                parent="cr:1",
                text="More.",
                location=Location(line=3),
            )
        )
    return Document(
        game="fab",
        document="fab/cr",
        title=None,
        version="2.14.0",
        parser=ParserInfo(family="fab-cr", version="1"),
        records=records,
        glossary=[
            GlossaryTerm(
                id="glossary:go-again",
                term="Go again",
                definition="Gain an action point.",
                location=Location(line=9),
            )
        ],
    )


def test_renditions_agree_up_to_typography_and_list_every_disagreement() -> None:
    assert compare_renditions(doc("It’s “on”."), doc('It\'s "on" .')) == []
    problems = compare_renditions(doc("It is on."), doc("It is off.", extra=True))
    assert problems[0] == "cr:1.0.2: only in pdf"
    assert problems[1].startswith("cr:1.0.1: txt 'It is on.' != pdf 'It is off.'")


def test_cross_check_accepts_a_table_pdftotext_reads_column_by_column() -> None:
    from pipeline.jobs.verify import cross_check_text
    from pipeline.models.records import Document, Location, ParserInfo, Rule

    record = Rule(
        id="sec:standard",
        number="",
        kind="section",
        depth=1,
        text="Legal: Not legal:\nCreation and Control Original Core Set",
        location=Location(line=1, page=1),
    )
    doc = Document(
        game="t",
        document="t/opp",
        title=None,
        version="1",
        parser=ParserInfo(family="t", version="0"),
        records=[record],
    )
    columns = "Legal:\nCreation and Control\n\nNot legal:\nOriginal Core Set\n"
    assert cross_check_text(doc, columns) == []
    assert cross_check_text(doc, "Legal:\nCreation and Control\n") != []  # a word is missing
