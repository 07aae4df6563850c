"""One regression test per finding of `make faults` and `make fuzz`, named after it.

Each test's docstring says what was found; each feeds the input that found it (or one
built the same way) and checks what a user gets: the project's own error with the file
named, never a traceback, and the documented exit code.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from faults import cases_disk, cases_network, materials
from faults.lab import Lab
from helpers import ROOT, SHARED
from server import Reply, ScriptedServer

from pipeline.errors import (
    EXIT_CHANGED,
    EXIT_OK,
    EXIT_PARSE,
    EXIT_VERIFY,
    ExtractError,
    RegistryError,
)
from pipeline.extract.fab_html import read_rules_site
from pipeline.extract.html import list_links, load_html
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.pdflines import Run, page_rows
from pipeline.extract.tarball import read_archive_commit
from pipeline.fetch.discover import find_link
from pipeline.jobs import update as update_job
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context
from pipeline.models.bundles import SITE_BUNDLE_FORMAT
from pipeline.registry.loader import parse_registry
from pipeline.runner.cache import ParseCache, read_entry
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest
from pipeline.store.corpus import DiffEntry

MTG_TXT = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"

# --------------------------------------------------------------------------- make fuzz


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


def test_regression_fuzz_pdfplumber_pdfminer_exception_is_an_extract_error() -> None:
    # pdf-pdfplumber: "Non-Ascii85 digit found" escaped _read_pages, because pdfminer
    # parses each content stream only when the page's characters are asked for.
    data = _pdf_with_content(b"BT /F1 12 Tf 10 10 Td (x) Tj ET \x7f\x7f~>")
    with pytest.raises(ExtractError) as caught:
        extract_pdf_lines(data, what="hostile.pdf", engine="pdfplumber")
    assert "hostile.pdf" in str(caught.value)
    assert caught.value.exit_code == EXIT_PARSE


def test_regression_fuzz_nsg_html_markup_bs4_rejects_is_an_extract_error() -> None:
    # nsg-html: bs4's ParserRejectedMarkup ("unknown status keyword") escaped load_html.
    with pytest.raises(ExtractError, match=r"rules\.html: the page is not HTML"):
        load_html(b"<!DOCTYPE x><![ DOCTYPE y", what="rules.html")


@pytest.mark.parametrize("missing", ["html", "sha256", "url"])
def test_regression_fuzz_fab_html_site_bundle_page_without_a_key(missing: str) -> None:
    # fab-html-site: KeyError 'html', 'sha256', 'url' escaped _bundle_pages.
    entry = {"url": "https://rules.example/index.html", "html": "<p>x</p>", "sha256": "0" * 64}
    del entry[missing]
    bundle = {"format": SITE_BUNDLE_FORMAT, "index": entry.get("url", "x"), "pages": [entry]}
    with pytest.raises(ExtractError, match="page entry 1 of the site bundle lacks"):
        read_rules_site(json.dumps(bundle).encode(), what="site.json")


@pytest.mark.parametrize(
    "bundle",
    [{"format": SITE_BUNDLE_FORMAT}, {"format": SITE_BUNDLE_FORMAT, "index": 3, "pages": []}],
)
def test_regression_fuzz_fab_html_site_bundle_of_the_wrong_shape(bundle: object) -> None:
    with pytest.raises(ExtractError):
        read_rules_site(json.dumps(bundle).encode(), what="site.json")


def test_regression_fuzz_discovery_ipv6_value_error_in_list_links() -> None:
    # discovery: urljoin raised ValueError "Invalid IPv6 URL" for href="http://[x", one
    # malformed link ending `update` with a traceback instead of finding the good link.
    page = (
        b'<html><body><a href="http://[x/rules.txt">bad</a>'
        b'<a href="/files/CR-2026.txt">the rules</a></body></html>'
    )
    assert list_links(page, "https://publisher.example/rules/") == [
        "https://publisher.example/files/CR-2026.txt"
    ]
    found = find_link(
        page,
        "https://publisher.example/rules/",
        r"CR-\d+\.txt$",
        source="cr",
        list_links=list_links,
    )
    assert found == "https://publisher.example/files/CR-2026.txt"


def test_regression_fuzz_discovery_page_bs4_rejects_has_no_links() -> None:
    assert list_links(b"<!DOCTYPE x><![ DOCTYPE y", "https://publisher.example/") == []


def test_regression_fuzz_registry_value_error_in_secure() -> None:
    # registry: urlsplit(url).hostname raised ValueError for `http://[source`.
    text = (
        '[[source]]\nid = "x"\ngame = "g"\ndocument = "g/cr"\ntitle = "T"\n'
        'family = "mtg-cr"\nrendition = "txt"\nurl = "http://[source/x.txt"\n'
    )
    with pytest.raises(RegistryError, match="url must be https"):
        parse_registry(text, name="sources.toml")


# --------------------------------------------------------------------------- make faults


def _flip_one_bit(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.fixture
def corpus_copy(imported_corpus: Context, tmp_path: Path) -> Context:
    """The imported corpus copied (its blobs read from the session's cache, never written)."""
    shutil.copytree(imported_corpus.corpus_dir, tmp_path / "corpus", symlinks=True)
    return Context(corpus_dir=tmp_path / "corpus", cache_dir=imported_corpus.cache_dir)


def _mtg_diff(ctx: Context) -> DiffEntry:
    return ctx.corpus.document_entry("mtg/cr").diffs[-1]


@pytest.mark.parametrize("part", ["json_file", "markdown", "html", "renumbering"])
def test_regression_faults_diff_flip_verify(corpus_copy: Context, part: str) -> None:
    # diff-flip-verify: a bit flipped in a stored diff passed `verify` (exit 0).
    name = getattr(_mtg_diff(corpus_copy), part)
    assert name is not None
    _flip_one_bit(corpus_copy.corpus_dir / name)
    summary = audit.verify(corpus_copy, ["mtg/cr"])
    assert summary.exit_code == EXIT_VERIFY
    failed = [o for o in summary.outcomes if o.exit_code]
    assert len(failed) == 1 and name in failed[0].message and "changed since" in failed[0].message


def test_regression_faults_aliases_flip_verify(corpus_copy: Context) -> None:
    # aliases-flip-verify: a bit flipped in a stored alias table passed `verify` (exit 0).
    entry = corpus_copy.corpus.document_entry("mtg/cr")
    item = next(v for v in entry.versions if v.aliases is not None)
    assert item.aliases is not None
    _flip_one_bit(corpus_copy.corpus_dir / item.aliases)
    summary = audit.verify(corpus_copy, ["mtg/cr"])
    assert summary.exit_code == EXIT_VERIFY
    failed = [o for o in summary.outcomes if o.exit_code]
    assert [o.version for o in failed] == [item.version]
    assert item.aliases in failed[0].message


def test_regression_faults_clean_corpus_verifies_every_diff(corpus_copy: Context) -> None:
    summary = audit.verify(corpus_copy, ["mtg/cr"])
    assert summary.exit_code == EXIT_OK
    diffs = {o.version for o in summary.outcomes if o.version and ".." in o.version}
    entry = corpus_copy.corpus.document_entry("mtg/cr")
    assert diffs == {f"{d.old}..{d.new}" for d in entry.diffs} and diffs


def test_regression_faults_versions_disagree(lab: Lab) -> None:
    # versions-disagree: a TXT at 2026-01-16 and a PDF at 2025-01-16 served together
    # exited 40, and the failed run published the TXT's version.
    outcome = cases_network.renditions_disagree(lab)
    assert outcome.got == EXIT_VERIFY, f"{outcome.problems}\n{outcome.output}"
    assert outcome.handled and not outcome.corrupt, f"{outcome.problems}\n{outcome.output}"
    assert "state different versions" in outcome.output


def test_regression_faults_parse_cache_flip(tmp_path: Path) -> None:
    # parse-cache-flip: one letter flipped in a cached parse (still valid JSON) was
    # served, and published, as the document's text.
    data = MTG_TXT.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="txt", what="mtg")
    parses = ParseCache(tmp_path)
    good = parses.parse(data, sha, request, ParseLimits())
    [entry] = sorted(tmp_path.rglob("*.json"))
    damaged = bytearray(entry.read_bytes())
    where = damaged.find(b'"text":"', len(damaged) // 2) + len(b'"text":"')
    damaged[where] ^= 0x20  # a letter's case
    entry.write_bytes(bytes(damaged))
    assert read_entry(bytes(damaged)) is None
    assert parses.parse(data, sha, request, ParseLimits()) == good
    assert read_entry(entry.read_bytes()) == good  # and the damaged entry was replaced


def test_regression_faults_parse_cache_flip_campaign_case(lab: Lab) -> None:
    outcome = cases_disk.parse_cache_bit_flip(lab)
    assert outcome.handled and not outcome.corrupt, f"{outcome.problems}\n{outcome.output}"


def test_regression_faults_pax_bomb_pinned_commit_read_stays_small() -> None:
    # pax-bomb: the pinned-commit check read the archive with tarfile in the parent,
    # before the parse's memory limit, and peaked at 1104 MiB for a 1 GiB pax header.
    bomb = materials.pax_bomb(64 * materials.MiB)
    tracemalloc.start()
    try:
        assert read_archive_commit(bomb) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * materials.MiB


def test_regression_faults_pax_bomb_campaign_case(lab: Lab) -> None:
    outcome = cases_network.pax_header_bomb(lab)
    assert outcome.handled, f"{outcome.problems}\n{outcome.output}"


CHILD_WHOSE_RUN_IS_GONE = """
import sys
from multiprocessing import Pipe
from pipeline.runner.request import ParseRequest
from pipeline.runner.limits import ParseLimits
from pipeline.runner.sandbox import _child, dump_json
receiver, sender = Pipe(duplex=False)
receiver.close()  # the run was killed before the parse ended
request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="txt", what="mtg")
_child(sender, open(sys.argv[1], "rb").read(), request, ParseLimits(), dump_json)
"""

FORK_SERVER_HOOK = """
import pickle, sys
import pipeline.runner.sandbox_server
try:
    pickle.loads(b"\\x80\\x04\\x95")
except Exception:
    sys.excepthook(*sys.exc_info())
sys.excepthook(ValueError, ValueError("a real bug"), None)
"""


def test_regression_faults_killed_run_parse_worker_prints_no_traceback() -> None:
    # The crash campaign's killed runs printed tracebacks from their parse children: a
    # child that finished after its run was killed failed to send (BrokenPipeError).
    done = subprocess.run(
        [sys.executable, "-c", CHILD_WHOSE_RUN_IS_GONE, str(MTG_TXT)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0 and done.stderr == ""


def test_regression_faults_killed_run_fork_server_child_prints_no_traceback() -> None:
    # ... and a child whose run was killed while handing it its work read half a pickle
    # ("pickle data was truncated"): the fork server's hook ends it quietly, and still
    # prints any other error.
    done = subprocess.run(
        [sys.executable, "-c", FORK_SERVER_HOOK], capture_output=True, text=True, cwd=ROOT
    )
    assert "UnpicklingError" not in done.stderr and "truncated" not in done.stderr
    assert "ValueError: a real bug" in done.stderr


def test_regression_faults_fetch_record_flip_verify(corpus_copy: Context) -> None:
    # verify re-hashed version files and blobs only; a stored fetch record is the proof
    # of where and when the bytes were retrieved.
    index = corpus_copy.corpus.index()
    name = index.fetch[sorted(index.fetch)[0]]
    _flip_one_bit(corpus_copy.corpus_dir / name)
    summary = audit.verify(corpus_copy, [])
    failed = [o for o in summary.outcomes if o.exit_code]
    assert [o.document for o in failed] == ["fetch records"] and name in failed[0].message
    assert summary.exit_code == EXIT_VERIFY


def test_regression_faults_versions_disagree_a_lagging_pdf_holds_nothing_up(
    tmp_path: Path,
) -> None:
    # The other side of versions-disagree: a PDF still serving the bytes of the version
    # already stored is not new, so the text export's new version is stored (exit 10).
    with ScriptedServer() as srv:
        srv.serve("/cr.txt", Reply(200, materials.mini_txt("January 16, 2025")))
        srv.serve("/cr.pdf", Reply(200, materials.mini_pdf("January 16, 2025")))
        registry = materials.write_registry(
            tmp_path / "sources.toml",
            [
                materials.mtg_source("txt", srv.url("/cr.txt"), allowed_hosts=["127.0.0.1"]),
                materials.mtg_source("pdf", srv.url("/cr.pdf"), allowed_hosts=["127.0.0.1"]),
            ],
        )
        ctx = Context(
            corpus_dir=tmp_path / "corpus", cache_dir=tmp_path / "cache", sources_file=registry
        )
        first = update_job.update(ctx, [], accept=True)
        assert first.exit_code == EXIT_CHANGED, first.outcomes
        srv.serve("/cr.txt", Reply(200, materials.mini_txt()))  # January 16, 2026
        second = update_job.update(ctx, [], accept=True)
    assert second.exit_code == EXIT_CHANGED, second.outcomes
    entry = ctx.corpus.document_entry("mtg/cr")
    assert [v.version for v in entry.versions] == ["2025-01-16", "2026-01-16"]
    assert set(entry.versions[0].sources) == {"txt", "pdf"}
    assert set(entry.versions[1].sources) == {"txt"}


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 1e300])
def test_regression_fuzz_pdf_pdfium_nan_position_in_round2(bad: float) -> None:
    # pdf-pdfium (600 s run): a mutated content stream put a glyph at a NaN position, and
    # round2 raised "cannot convert float NaN to integer". Such a glyph is on no page: it
    # is dropped, and the rest of the page is read.
    good = Run("rule 1.1", 72.0, 120.0, 100.0, 10.0, False, False)
    for field in ("x0", "x1", "base", "size"):
        hostile = good._replace(text="ghost", **{field: bad})
        rows = page_rows([hostile, good._replace(base=130.0)], 612.0, 1, 1)
        assert [row[0] for row in rows] == ["rule 1.1"]
