"""Text decoding: BOM sniffing, cp1252 fallback, line endings, sentinel — on the real MTG files.

The real MTG TXT exports use every case: 20221007 is cp1252 with CRLF,
20221118 UTF-16BE with a BOM and bare CR, the later ones UTF-8 with a BOM and
bare CR. Synthetic bytes cover UTF-16LE and the wrong guesses.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import pytest

from pipeline.errors import ExtractError
from pipeline.extract.text import (
    decode_text,
    extract_text_lines,
    normalise_newlines,
    sniff_encoding,
)
from pipeline.parse.mtg.cr import SENTINEL
from tests.support.helpers import SHARED

MTG = SHARED / "mtg" / "comprehensive-rules"
ALL_TXT = sorted(MTG.glob("*/*.txt"))
RULE_LINE = re.compile(r"^\d{3}\.\d+[a-z]?", re.MULTILINE)


def real_txt(version: str) -> bytes:
    (path,) = (MTG / version).glob("*.txt")
    return path.read_bytes()


def count_endings(raw: str) -> tuple[int, int, int]:
    """(CRLF, bare CR, bare LF) in a decoded but not normalised text."""
    crlf = raw.count("\r\n")
    return crlf, raw.count("\r") - crlf, raw.count("\n") - crlf


@pytest.mark.parametrize(
    ("version", "encoding", "bom", "ending"),
    [
        ("20221007", "cp1252", 0, "crlf"),
        ("20221118", "utf-16-be", 2, "cr"),
        ("20230414", "utf-8", 3, "cr"),
        ("20240607", "utf-8", 3, "crlf"),
        ("20250725", "utf-8", 3, "cr"),
        ("20251114", "utf-8", 3, "crlf"),
    ],
)
def test_real_file_encoding_and_line_endings(
    version: str, encoding: str, bom: int, ending: str
) -> None:
    data = real_txt(version)
    assert sniff_encoding(data) == (encoding, bom)
    raw = data[bom:].decode(encoding)
    crlf, cr, lf = count_endings(raw)
    assert lf == 0
    if ending == "cr":
        # Bare CR throughout (a dozen CRLFs slipped into the credits): mixed endings.
        assert cr > 8000 and 0 < crlf < 20
        # A `^`-anchored regex finds almost none of the rules until the endings are normalised.
        assert len(RULE_LINE.findall(raw)) == 0
    else:
        assert crlf > 8000 and cr == 0
    text = decode_text(data, sentinel=SENTINEL)
    assert "\r" not in text
    assert text.count("\n") == crlf + cr + lf
    assert len(RULE_LINE.findall(text)) > 2500
    # Non-ASCII text survives: curly apostrophes appear, no replacement characters or mojibake.
    assert "\u2019" in text and "\ufffd" not in text and "\u00e2\u20ac" not in text


def test_cp1252_file_is_not_utf8_and_decodes_its_high_bytes() -> None:
    data = real_txt("20221007")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    text = decode_text(data, sentinel=SENTINEL)
    # 0x92 is the cp1252 right single quote; 0xAE the registered sign in the introduction.
    assert b"\x92" in data and "player\u2019s" in text
    assert "Magic: The Gathering\u00ae" in text


@pytest.mark.parametrize("path", ALL_TXT, ids=lambda p: p.parent.name)
def test_sentinel_holds_for_every_real_file(path: Path) -> None:
    lines = extract_text_lines(path.read_bytes(), sentinel=SENTINEL)
    assert lines[0].text == SENTINEL
    assert [ln.line for ln in lines[:3]] == [1, 2, 3]
    assert all("\r" not in ln.text and ln.text == ln.text.rstrip() for ln in lines)


def test_same_text_whatever_the_encoding_and_endings() -> None:
    """One text, every encoding and line ending the real files use: one decoded result."""
    text = "Magic: The Gathering Comprehensive Rules\n\n100.1. It\u2019s a game\u2014really.\n"
    variants = {
        "utf8-lf": text.encode("utf-8"),
        "utf8-bom-cr": codecs.BOM_UTF8 + text.replace("\n", "\r").encode("utf-8"),
        "utf16be-bom-cr": codecs.BOM_UTF16_BE + text.replace("\n", "\r").encode("utf-16-be"),
        "utf16le-bom-crlf": codecs.BOM_UTF16_LE + text.replace("\n", "\r\n").encode("utf-16-le"),
        "cp1252-crlf": text.replace("\n", "\r\n").encode("cp1252"),
    }
    decoded = {name: decode_text(data, sentinel=SENTINEL) for name, data in variants.items()}
    assert set(decoded.values()) == {text}
    assert sniff_encoding(variants["utf16le-bom-crlf"]) == ("utf-16-le", 2)
    assert sniff_encoding(variants["cp1252-crlf"]) == ("cp1252", 0)
    lines = extract_text_lines(variants["utf16le-bom-crlf"])
    assert [ln.text for ln in lines] == [SENTINEL, "", "100.1. It\u2019s a game\u2014really.", ""]


def test_mixed_line_endings_normalise_to_one_line_each() -> None:
    assert normalise_newlines("a\r\nb\rc\nd\r\r\ne") == "a\nb\nc\nd\n\ne"


def test_utf16_without_bom_fails_loudly_on_the_sentinel() -> None:
    """UTF-16LE bytes without a BOM are valid UTF-8 (every other byte NUL): a wrong guess."""
    data = (SENTINEL + "\r\nThese rules are effective as of May 1, 2025.\r\n").encode("utf-16-le")
    assert sniff_encoding(data) == ("utf-8", 0)
    with pytest.raises(ExtractError) as caught:
        decode_text(data, what="mtg-cr-txt", sentinel=SENTINEL)
    message = str(caught.value)
    assert message.startswith("mtg-cr-txt")
    assert "NUL" in message and "UTF-16 without a byte-order mark" in message


def test_real_utf16_file_with_its_bom_cut_off_fails_loudly() -> None:
    data = real_txt("20221118")[2:]
    with pytest.raises(ExtractError, match="NUL characters"):
        decode_text(data, sentinel=SENTINEL)


def test_wrong_document_fails_the_sentinel_naming_encoding_and_start() -> None:
    data = b"Flesh and Blood Comprehensive Rules\n1.0 General\n"
    with pytest.raises(ExtractError) as caught:
        decode_text(data, what="mtg-cr-txt", sentinel=SENTINEL)
    message = str(caught.value)
    assert "decoded as utf-8" in message
    assert repr(SENTINEL) in message and "'Flesh and Blood" in message


def test_a_bom_that_lies_fails_loudly() -> None:
    """A UTF-8 BOM in front of bytes that are not UTF-8 is an error, not a cp1252 guess."""
    data = codecs.BOM_UTF8 + SENTINEL.encode("utf-8") + b"\xff\xfe"
    # Not valid UTF-8 after the BOM: the error names the encoding the BOM promised.
    with pytest.raises(ExtractError, match="not valid utf-8"):
        decode_text(data, sentinel=SENTINEL)


def test_bytes_undefined_in_cp1252_fail_instead_of_guessing() -> None:
    # 0x81 is undefined in cp1252 and invalid as UTF-8: neither guess can be right.
    with pytest.raises(ExtractError, match="not valid cp1252"):
        decode_text(SENTINEL.encode() + b"\x81")


def test_without_a_sentinel_any_clean_text_decodes() -> None:
    assert decode_text(b"plain\r\ntext") == "plain\ntext"
    assert [ln.line for ln in extract_text_lines(b"a\rb\r")] == [1, 2, 3]


def test_utf32_le_with_a_bom_is_not_read_as_utf16() -> None:
    """UTF-32-LE's byte-order mark (FF FE 00 00) starts with UTF-16-LE's (FF FE): it was
    decoded as UTF-16 into NUL-riddled text. Both UTF-32 marks are read as UTF-32."""
    text = "Magic: The Gathering Comprehensive Rules\n\n100.1. It\u2019s a game.\n"
    for bom, encoding in ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be")):
        data = bom + text.encode(encoding)
        assert sniff_encoding(data) == (encoding, 4)
        assert decode_text(data, sentinel=SENTINEL) == text
