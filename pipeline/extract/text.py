"""Text exports: sniff the encoding, normalise line endings, number the lines.

Real files use UTF-8 (with and without BOM), UTF-16BE/LE with BOM, and cp1252
(UTF-32 with a BOM is read too),
with CRLF, LF or bare CR line endings. A wrong guess must fail loudly, so the
caller may pass a sentinel the decoded text has to start with.
"""

from __future__ import annotations

import codecs

from pipeline.errors import ExtractError
from pipeline.models.content import Line

# UTF-32-LE's BOM (FF FE 00 00) starts with UTF-16-LE's (FF FE): the longer ones first.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)


def sniff_encoding(data: bytes) -> tuple[str, int]:
    """Return (encoding, BOM length). Without a BOM: UTF-8 if it decodes, else cp1252."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252", 0
    return "utf-8", 0


def normalise_newlines(text: str) -> str:
    """CRLF and bare CR become LF (a `^`-anchored regex finds nothing in bare-CR files)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode_text(data: bytes, *, what: str = "document", sentinel: str | None = None) -> str:
    """Decode bytes to text with LF line endings; check the sentinel if one is given."""
    encoding, skip = sniff_encoding(data)
    try:
        text = data[skip:].decode(encoding)
    except UnicodeDecodeError as exc:
        raise ExtractError(what, f"bytes are not valid {encoding}: {exc}") from exc
    text = normalise_newlines(text)
    if "\x00" in text:
        # UTF-16 without a BOM is valid UTF-8 or cp1252 byte for byte, every
        # other character a NUL: without this check it decodes to silent mojibake.
        raise ExtractError(
            what,
            f"decoded as {encoding} but the text contains NUL characters; it is "
            "probably UTF-16 without a byte-order mark",
        )
    if sentinel is not None and not text.lstrip().startswith(sentinel):
        head = text.lstrip()[:60]
        raise ExtractError(
            what,
            f"decoded as {encoding} but the text does not start with {sentinel!r} "
            f"(it starts with {head!r}); the encoding guess is wrong or this is not "
            "the expected document",
        )
    return text


def extract_text_lines(
    data: bytes, *, what: str = "document", sentinel: str | None = None
) -> list[Line]:
    """Every line of a text export, 1-based, trailing whitespace kept off."""
    text = decode_text(data, what=what, sentinel=sentinel)
    return [
        Line(text=raw.rstrip(), line=number) for number, raw in enumerate(text.split("\n"), start=1)
    ]
