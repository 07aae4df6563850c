"""The harnesses: a target (bytes -> None, raising only the project's own errors when the
input is bad) and its seeds. Imported under atheris' instrumentation by `run_one`, so
every pipeline module they reach reports coverage."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.extract.html import list_links
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.tarball import check_tar_headers, read_archive_commit, read_tar_members
from pipeline.extract.text import extract_text_lines
from pipeline.fetch import mediawiki
from pipeline.fetch.discover import find_link
from pipeline.fetch.manifest import confined_path, entries_for, parse_manifest
from pipeline.lookup import StoredCorpus
from pipeline.models.records import ParseOptions
from pipeline.models.sources import Source
from pipeline.registry.loader import load_registry, parse_registry
from pipeline.runner.families import family_of, parse_bytes
from pipeline.runner.request import ParseRequest, request_for

from . import seeds as S

GZIP_FAST = 1


class Escaped(Exception):
    """The manifest reader let a path out of its folder: a finding, not an input error."""


@dataclass(frozen=True)
class Harness:
    name: str
    target: Callable[[bytes], None]
    seeds: Callable[[Path], list[bytes]]  # given the work folder (for cached extractions)
    max_len: int = 64 * 1024
    timeout: int = 10  # seconds one input may take before it counts as a hang


def _source(source_id: str) -> Source:
    return next(s for s in load_registry() if s.id == source_id)


def family_bytes(source_id: str) -> Callable[[bytes], None]:
    """parse_bytes for one registry source: what the parse sandbox runs on fetched bytes."""
    request = request_for(_source(source_id), what=f"fuzz {source_id}")

    def target(data: bytes) -> None:
        parse_bytes(data, request)

    return target


def family_lines(source_id: str) -> Callable[[bytes], None]:
    """A PDF family's parser on the lines a PDF would give (see seeds.decode_lines)."""
    source = _source(source_id)
    family = family_of(source.family)
    options = ParseOptions(
        document=source.document,
        rendition="pdf",
        version=None,
        settings=dict(source.options),
        scheme=source.scheme,
    )

    def target(data: bytes) -> None:
        family.parse(S.decode_lines(data), {}, options)

    return target


def pdf(engine: str) -> Callable[[bytes], None]:
    def target(data: bytes) -> None:
        extract_pdf_lines(data, what="fuzz.pdf", engine=engine)

    return target


def tar_headers(data: bytes) -> None:
    """Raw tar bytes, gzipped here, so mutations reach the tar headers (not the CRC)."""
    import zlib

    compressor = zlib.compressobj(GZIP_FAST, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    packed = compressor.compress(data) + compressor.flush()
    check_tar_headers(packed, what="fuzz.tar.gz", max_total_bytes=64 * 1024 * 1024)
    read_archive_commit(packed)
    read_tar_members(packed, what="fuzz.tar.gz")


_RULINGS = family_bytes("netrunner-rulings")
_SOURCES_JSON = (
    S.SHARED / "netrunner/rulings-netrunnerdb/2024-01-15/ruling_sources.json"
).read_bytes()


def ruling_json(data: bytes) -> None:
    """One card's rulings file, as NetrunnerDB's archive would carry it."""
    _RULINGS(S.tar_gz({"v2/rulings/card.json": data, "v2/ruling_sources.json": _SOURCES_JSON}))


FAQ_SELECTORS = [
    {
        "scope": "article.release-notes",
        "card": "h2.card",
        "question": "h3",
        "answer": "p, ul",
        "version": "p.updated",
    },
    {"question": "section.faq dt", "answer": "dd", "section": "section.faq h2"},
    {
        "scope": "div.entry-content",
        "question": "p:has(> strong:-soup-contains-own('Q:'))",
        "answer": "p:has(> strong:-soup-contains-own('A:'))",
        "card": "div.entry-content h3:not(.sd-title)",
    },
]
FAQ_PAGES = ["release-notes-headings.html", "faq-definition-list.html", "blog-q-a-paragraphs.html"]


def faq(data: bytes) -> None:
    """The first byte picks the selector set (the seeds start with their page's)."""
    if not data:
        return
    selectors = FAQ_SELECTORS[data[0] % len(FAQ_SELECTORS)]
    request = ParseRequest("faq-html", "netrunner/faq", "html", "fuzz.html", None, selectors)
    parse_bytes(data[1:], request)


def faq_seeds(_work: Path) -> list[bytes]:
    return [bytes([i]) + (S.FAQ_PAGES_DIR / page).read_bytes() for i, page in enumerate(FAQ_PAGES)]


# One fixed folder (made once, reused by every run): a file inside, a symlink out.
_MANIFEST_ROOT = Path(tempfile.gettempdir()) / "rulescorpus-fuzz-manifest-root"
(_MANIFEST_ROOT / "inside").mkdir(parents=True, exist_ok=True)
(_MANIFEST_ROOT / "inside" / "ok.txt").write_bytes(b"x")
if not (_MANIFEST_ROOT / "out").is_symlink():
    (_MANIFEST_ROOT / "out").symlink_to("/etc")
_REGISTRY = load_registry()


def manifest(data: bytes) -> None:
    """The archive manifest reader: every entry some source takes, confined to its folder;
    a path it returns outside the folder is a finding."""
    entries = parse_manifest(data, "fuzz/manifest.json")
    base = _MANIFEST_ROOT.resolve()
    for source in _REGISTRY:
        for entry in entries_for(source, entries):
            path = confined_path(_MANIFEST_ROOT, entry.path, source.id)
            if not path.is_relative_to(base):
                raise Escaped(f"{entry.path!r} resolved to {path}")


def manifest_seeds(_work: Path) -> list[bytes]:
    import json

    real = S.manifest()
    entry: dict[str, Any] = dict(next(e for e in real if e["game"] == "mtg"))
    hostile = [{**entry, "path": p} for p in ("inside/ok.txt", "out/passwd", "../x", "/etc/passwd")]
    return [json.dumps(real[:12]).encode(), json.dumps(hostile).encode()]


def registry(data: bytes) -> None:
    parse_registry(data.decode("utf-8", "replace"), "fuzz/sources.toml")


def registry_seeds(_work: Path) -> list[bytes]:
    return [(S.ROOT / "pipeline" / "registry" / "sources.toml").read_bytes()]


class Unescaped(Exception):
    """A terminal control reached `search`'s printed text: a finding, not an input error."""


# What `errors.shorten` makes visible: none of it may stand raw in a printed line.
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_SEARCH_ROOT = Path(tempfile.gettempdir()) / "rulescorpus-fuzz-search"
_FOW = "fow/comprehensive-rules/7.0/fow-cr-7.0.txt"


def _search_corpus() -> StoredCorpus:
    """A corpus of the Force of Will rules (imported once, reused by every run)."""
    corpus = _SEARCH_ROOT / "corpus"
    if not (corpus / "index.json").exists():
        import json
        import shutil

        from pipeline.cli.shared import diff_renderers
        from pipeline.jobs.context import Context
        from pipeline.jobs.import_archive import import_archive

        shutil.rmtree(_SEARCH_ROOT, ignore_errors=True)
        archive = _SEARCH_ROOT / "archive"
        (archive / _FOW).parent.mkdir(parents=True)
        shutil.copyfile(S.SHARED / _FOW, archive / _FOW)
        entries = [e for e in S.manifest() if e["path"] == _FOW]
        (archive / "manifest.json").write_text(json.dumps(entries))
        import_archive(Context(corpus, _SEARCH_ROOT / "cache", renderers=diff_renderers()), archive)
    return StoredCorpus(corpus)


def search(data: bytes) -> None:
    """`search WORDS` over a real document, and the text it prints: the time must not grow
    with how the words repeat, and no control character may print raw."""
    from pipeline.cli.show_text import format_hits
    from pipeline.lookup.search import search_corpus

    query = data.decode("utf-8", "replace")
    hits = search_corpus(_search_corpus(), query, limit=20)
    printed = format_hits(query, hits)
    if _RAW_CONTROL.search(printed):
        raise Unescaped(repr(printed[:200]))


def search_seeds(_work: Path) -> list[bytes]:
    return [
        b"draw a card",
        b"judgment " * 2000,
        "chase \x1b[2J \u202ezone\u202c \x9b".encode(),
        b"resolve" + b"x" * 120_000,
    ]


def scheme(data: bytes) -> None:
    """`rulescorpus scheme` on a text file: its lines inferred into a scheme, the entry
    written as TOML and read back by the registry loader (what scheme prints must load)."""
    from pipeline.models.sources import ManifestKey
    from pipeline.parse.scheme_inference import infer_scheme
    from pipeline.registry.entry_toml import entry_toml
    from pipeline.runner.scheme_entry import build_source

    lines = extract_text_lines(data, what="fuzz.txt")
    inference = infer_scheme(lines, "txt", "fuzz.txt")
    key = ManifestKey(game="fuzz", document="cr", format="txt")
    text = entry_toml(build_source(inference, "fuzz", "fuzz/cr", "txt", key), ["fuzzed"])
    parse_registry(text, "the entry inferred from fuzz.txt")


def scheme_seeds(_work: Path) -> list[bytes]:
    nested = "Rules\nVersion 3.1\n" + "".join(
        f"{n}. Part {n}\n{n}.1. Rule one of {n}.\n{n}.1.a. A step.\n" for n in range(1, 9)
    )
    return [
        nested.encode(),
        *S.text_windows(S.files("fow", "comprehensive-rules", "txt"))[:4],
        *S.text_windows(S.files("riftbound", "core-rules", "txt"))[:4],
    ]


def discovery(data: bytes) -> None:
    find_link(
        data,
        "https://example.org/en/rules",
        r"MagicCompRules[^/]*\.txt$",
        source="fuzz",
        list_links=list_links,
    )


def discovery_seeds(_work: Path) -> list[bytes]:
    page = (
        b'<html><body><nav><a href="/">Home</a></nav><h1>Rules</h1>'
        b'<a href="/downloads/MagicCompRules%2020251114.txt">TXT</a>'
        b'<a href="https://media.example.org/x/MagicCompRules 2.pdf">PDF</a></body></html>'
    )
    return [page] + [(S.FAQ_PAGES_DIR / p).read_bytes() for p in FAQ_PAGES[:1]]


def wiki_answers(data: bytes) -> None:
    """The first byte picks the reader: revision query, parse answer, or stored bundle."""
    if not data:
        return
    readers = [mediawiki.read_revision_response, mediawiki.read_parse_response]
    if data[0] % 3 == 2:
        mediawiki.read_bundle(data[1:], what="fuzz bundle")
    else:
        readers[data[0] % 3](data[1:], what="fuzz answer")


def _wiki_bundle() -> bytes:
    query = (S.WIKI_ANSWERS / "query-Conditional_ability.json").read_bytes()
    parsed = (S.WIKI_ANSWERS / "parse-15873.json").read_bytes()
    revision = mediawiki.read_revision_response(query, what="seed")
    page = mediawiki.read_parse_response(parsed, what="seed")
    return mediawiki.build_bundle(revision, page, api="https://example.fandom.com/api.php")


def wiki_answer_seeds(_work: Path) -> list[bytes]:
    query = (S.WIKI_ANSWERS / "query-Conditional_ability.json").read_bytes()
    parsed = (S.WIKI_ANSWERS / "parse-15873.json").read_bytes()
    return [b"\x00" + query, b"\x01" + parsed, b"\x02" + _wiki_bundle()]


def site_bundle_seeds(_work: Path) -> list[bytes]:
    from pipeline.models.bundles import build_site_bundle

    folder = S.SHARED / "fab" / "comprehensive-rules-html" / "2.10.1-prototype" / "en" / "cr"
    index = "https://rules.fabtcg.com/en/cr/"
    small = {
        index: (folder / "index.html").read_bytes(),
        index + "09-additional-rules/": (
            folder / "09-additional-rules" / "index.html"
        ).read_bytes(),
    }
    return [build_site_bundle(index, small)]


def html_seeds(_work: Path) -> list[bytes]:
    folder = S.SHARED / "fab" / "comprehensive-rules-html" / "2.10.1-prototype" / "en" / "cr"
    return [(S.FAQ_PAGES_DIR / p).read_bytes() for p in FAQ_PAGES] + [
        (folder / "09-additional-rules" / "index.html").read_bytes()
    ]


def _texts(game: str, document: str) -> Callable[[Path], list[bytes]]:
    return lambda _work: S.text_windows(S.files(game, document, "txt"))


def _tars(game: str, document: str) -> Callable[[Path], list[bytes]]:
    return lambda _work: [p.read_bytes() for p in S.files(game, document, "tar.gz")]


def _pdf_seeds(_work: Path) -> list[bytes]:
    from ..materials import mini_pdf  # the fault campaign's mini MTG PDF

    small = [
        S.SHARED
        / "fab/casual-procedure-guide/2023-10-13/FaB_Casual_Procedure_Guide_2023-10-13.pdf",
        S.SHARED / "netrunner/organized-play-policies/1.3/Organized_Play_Policies.pdf",
    ]
    return [mini_pdf(), *(p.read_bytes() for p in small)]


def _line_seeds(game: str, document: str) -> Callable[[Path], list[bytes]]:
    def build(work: Path) -> list[bytes]:
        return [w for p in S.files(game, document, "pdf") for w in S.pdf_line_windows(work, p)]

    return build


HARNESSES: dict[str, Harness] = {
    h.name: h
    for h in [
        Harness("pdf-pdfium", pdf("pdfium"), _pdf_seeds, max_len=256 * 1024, timeout=30),
        Harness("pdf-pdfplumber", pdf("pdfplumber"), _pdf_seeds, max_len=256 * 1024, timeout=30),
        Harness("mtg-cr-txt", family_bytes("mtg-cr-txt"), _texts("mtg", "comprehensive-rules")),
        Harness("fab-cr-txt", family_bytes("fab-cr-txt"), _texts("fab", "comprehensive-rules")),
        Harness(
            "fab-policy-txt",
            family_bytes("fab-trp-txt"),
            lambda w: _texts("fab", "tournament-rules-and-policy")(w)
            + _texts("fab", "procedure-and-penalty-guide")(w),
        ),
        Harness("riftbound-cr-txt", family_bytes("riftbound-cr-txt"),
                _texts("riftbound", "core-rules")),
        Harness("netrunner-cr-lines", family_lines("netrunner-cr-nisei-pdf"),
                _line_seeds("netrunner", "comprehensive-rules"), timeout=20),
        Harness("swu-cr-lines", family_lines("swu-cr-pdf"),
                _line_seeds("swu", "comprehensive-rules"), timeout=20),
        Harness("mtg-policy-lines", family_lines("mtg-ipg-pdf"),
                _line_seeds("mtg", "infraction-procedure-guide"), timeout=20),
        Harness("nrdb-rulings-tar", family_bytes("netrunner-rulings"),
                _tars("netrunner", "rulings-netrunnerdb"), max_len=160 * 1024, timeout=20),
        Harness("nsg-yaml-tar", family_bytes("netrunner-cr-yaml"),
                _tars("netrunner", "comprehensive-rules-yaml-source"), max_len=160 * 1024,
                timeout=20),
        Harness("tar-headers", tar_headers,
                lambda w: [t for p in S.files("netrunner", "rulings-netrunnerdb", "tar.gz")[:1]
                           for t in S.small_tars(p)]),
        Harness("ruling-json", ruling_json, lambda w: S.ruling_jsons()),
        Harness("faq-html", faq, faq_seeds, max_len=128 * 1024),
        Harness("nsg-html", family_bytes("netrunner-cr-html"), html_seeds, max_len=160 * 1024),
        Harness("fab-html-site", family_bytes("fab-cr-html"), site_bundle_seeds,
                max_len=256 * 1024, timeout=20),
        Harness("wiki-bundle", family_bytes("netrunner-wiki-conditional-ability"),
                lambda w: [_wiki_bundle()]),
        Harness("wiki-answers", wiki_answers, wiki_answer_seeds),
        Harness("manifest", manifest, manifest_seeds),
        Harness("registry", registry, registry_seeds),
        Harness("discovery", discovery, discovery_seeds),
        Harness("search", search, search_seeds, max_len=160 * 1024, timeout=10),
        Harness("scheme", scheme, scheme_seeds, max_len=128 * 1024, timeout=20),
    ]
}  # fmt: skip
