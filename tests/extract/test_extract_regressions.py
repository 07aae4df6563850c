"""Regression tests of the extractors, one per defect, named after it: what `make fuzz` and
`make faults` fed them. Each docstring says what was found; each input gets the
project's own error naming the file, never a traceback."""

from __future__ import annotations

import gzip
import json
import math
import tarfile
import tracemalloc

import pytest

from pipeline.errors import (
    EXIT_PARSE,
    ExtractError,
)
from pipeline.extract.fab_html import read_rules_site
from pipeline.extract.html import load_html
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.pdflines import Run, page_rows
from pipeline.extract.tarball import read_archive_commit, read_tar_members
from pipeline.models.bundles import SITE_BUNDLE_FORMAT
from tests.faults import materials


def _pdf_with_content(stream: bytes) -> bytes:
    """A one-page PDF whose content stream is `stream`, with a correct xref table."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
        b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> "
        b">> >> >>",
        b"<< /Length %d /Filter /ASCII85Decode >>\nstream\n" % len(stream)
        + stream
        + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_a_pax_header_bomb_is_refused_before_it_is_read() -> None:
    """A tar.gz of 100 KB whose pax header claims 1 GiB was read into memory."""
    header = tarfile.TarInfo("PaxHeader")
    header.type = tarfile.XHDTYPE
    header.size = 1 << 30
    raw = header.tobuf(format=tarfile.USTAR_FORMAT) + b"\0" * (1 << 20)
    data = gzip.compress(raw)
    assert len(data) < 100_000
    with pytest.raises(ExtractError, match="metadata header of 1073741824 bytes"):
        read_tar_members(data, what="bomb.tar.gz")


def test_a_content_stream_pdfminer_rejects_is_an_extract_error() -> None:
    """Found by `make fuzz` (pdf-pdfplumber): "Non-Ascii85 digit found" escaped
    _read_pages, because pdfminer parses each content stream only when the page's
    characters are asked for."""
    data = _pdf_with_content(b"BT /F1 12 Tf 10 10 Td (x) Tj ET \x7f\x7f~>")
    with pytest.raises(ExtractError) as caught:
        extract_pdf_lines(data, what="hostile.pdf", engine="pdfplumber")
    assert "hostile.pdf" in str(caught.value)
    assert caught.value.exit_code == EXIT_PARSE


def test_markup_bs4_rejects_is_an_extract_error() -> None:
    """Found by `make fuzz` (nsg-html): bs4's ParserRejectedMarkup ("unknown status
    keyword") escaped load_html."""
    with pytest.raises(ExtractError, match=r"rules\.html: the page is not HTML"):
        load_html(b"<!DOCTYPE x><![ DOCTYPE y", what="rules.html")


@pytest.mark.parametrize("missing", ["html", "sha256", "url"])
def test_a_site_bundle_page_without_a_key_is_an_extract_error(missing: str) -> None:
    """Found by `make fuzz` (fab-html-site): KeyError 'html', 'sha256', 'url' escaped
    _bundle_pages."""
    entry = {"url": "https://rules.example/index.html", "html": "<p>x</p>", "sha256": "0" * 64}
    del entry[missing]
    bundle = {"format": SITE_BUNDLE_FORMAT, "index": entry.get("url", "x"), "pages": [entry]}
    with pytest.raises(ExtractError, match="page entry 1 of the site bundle lacks"):
        read_rules_site(json.dumps(bundle).encode(), what="site.json")


@pytest.mark.parametrize(
    "bundle",
    [{"format": SITE_BUNDLE_FORMAT}, {"format": SITE_BUNDLE_FORMAT, "index": 3, "pages": []}],
)
def test_a_site_bundle_of_the_wrong_shape_is_an_extract_error(bundle: object) -> None:
    """Found by `make fuzz` (fab-html-site): a bundle without pages, or with an index
    that is no URL, raised a KeyError or TypeError."""
    with pytest.raises(ExtractError):
        read_rules_site(json.dumps(bundle).encode(), what="site.json")


def test_the_pinned_commit_check_of_a_pax_header_bomb_stays_small() -> None:
    """Found by `make faults` (pax-bomb): the pinned-commit check read the archive with
    tarfile in the parent, before the parse's memory limit, and peaked at 1104 MiB for a
    1 GiB pax header."""
    bomb = materials.pax_bomb(64 * materials.MiB)
    tracemalloc.start()
    try:
        assert read_archive_commit(bomb) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * materials.MiB


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 1e300])
def test_a_glyph_at_a_nan_position_is_dropped(bad: float) -> None:
    """Found by `make fuzz` (pdf-pdfium, a 600 s run): a mutated content stream put a
    glyph at a NaN position, and round2 raised "cannot convert float NaN to integer".
    Such a glyph is on no page: it is dropped, and the rest of the page is read."""
    good = Run("rule 1.1", 72.0, 120.0, 100.0, 10.0, False, False)
    for field in ("x0", "x1", "base", "size"):
        hostile = good._replace(text="ghost", **{field: bad})
        rows = page_rows([hostile, good._replace(base=130.0)], 612.0, 1, 1)
        assert [row[0] for row in rows] == ["rule 1.1"]
