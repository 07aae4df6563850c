"""How a third party's web page is decoded before its digests are read: the same
byte-order-mark sniff as every text export, the Content-Type's charset as the hint."""

from __future__ import annotations

import codecs

from pipeline.extract.web_page import decode_page, read_web_page

PAGE = "<html><body><p>sha256 café</p>\r\n</body></html>"


def test_a_byte_order_mark_outranks_a_wrong_content_type_charset() -> None:
    data = codecs.BOM_UTF16_LE + PAGE.encode("utf-16-le")
    assert decode_page(data, "text/html; charset=utf-8") == PAGE.replace("\r\n", "\n")


def test_a_page_without_a_charset_is_sniffed_like_a_text_export() -> None:
    assert "café" in decode_page(PAGE.encode("cp1252"), "text/html")
    assert "café" in decode_page(PAGE.encode("utf-8"), None)


def test_the_content_type_charset_is_used_and_an_unknown_one_is_ignored() -> None:
    assert "café" in decode_page(PAGE.encode("latin-1"), 'text/html; charset="ISO-8859-1"')
    assert "café" in decode_page(PAGE.encode("utf-8"), "text/html; charset=x-no-such")


def test_undecodable_bytes_are_replaced_not_refused() -> None:
    page = read_web_page(
        b"<html><body><p>sha256 \x81\xff</p></body></html>",
        "text/html; charset=utf-8",
        what="a page",
    )
    assert any("\ufffd" in run.value for run in page.runs)
