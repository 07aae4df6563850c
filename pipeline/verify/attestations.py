"""Hashes that third-party web pages publish for a document's URL.

A rules-reference site may print, under each rule, a Source block such as

    Retrieved from https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt
    TXT SHA-256 d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85

and a page may list several documents' digests. A digest only attests the bytes of
the URL it is printed with, so each digest is paired with the nearest URL *in the same
block* (the innermost element, or blank-line paragraph of a text page, that holds
both), never simply taken as the first hex string on the page.

Pure: a page as extract/web_page.py reads it in, findings out. Fetching and reading
the pages is the caller's job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import unquote, urljoin, urlsplit

from pipeline.models.content import PageRun, WebPage

_HEX64 = re.compile(r"(?<![0-9A-Za-z])([0-9a-fA-F]{64})(?![0-9A-Za-z])")
_URL = re.compile(r"""https?://[^\s<>"'`]+""")
_URL_TAIL = ".,;:!?)]}»”’'\""
# Words that name a rendition in a digest's label ("PDF SHA-256", "JSON sha256").
_RENDITION_WORDS = dict(
    pdf="pdf", txt="txt", text="txt", html="html", json="json", zip="zip",
    tar="tar.gz", tarball="tar.gz", gz="tar.gz",
)  # fmt: skip


@dataclass(frozen=True)
class AttestedDigest:
    """One digest found on a page and the URL it is printed with (None: no URL near it)."""

    sha256: str
    url: str | None
    label: str = ""


class Verdict(StrEnum):
    MATCH = "match"
    MISMATCH = "mismatch"
    NONE = "none-published"


@dataclass(frozen=True)
class AttestationCheck:
    """What one page says about one document URL, compared with the bytes we hold."""

    page_url: str
    document_url: str
    sha256: str
    verdict: Verdict
    published: tuple[str, ...]
    independent: bool

    @property
    def guards(self) -> str:
        if self.independent:
            return "guards against corruption and tampering (the page is on an independent host)"
        return "guards against corruption only (the page is on the document's own host)"

    @property
    def message(self) -> str:
        if self.verdict is Verdict.MATCH:
            head = f"match: {self.page_url} publishes {self.sha256} for {self.document_url}"
        elif self.verdict is Verdict.MISMATCH:
            head = (
                f"mismatch: {self.page_url} publishes {', '.join(self.published)} for "
                f"{self.document_url}, the stored bytes hash to {self.sha256}"
            )
        else:
            return f"none published: {self.page_url} gives no SHA-256 for {self.document_url}"
        return f"{head}; {self.guards}"


@dataclass(frozen=True)
class _Token:
    kind: str  # "url" or "digest"
    value: str
    path: tuple[int, ...]  # ids of the enclosing blocks, outermost first
    order: int
    label: str = ""


def normalise_url(url: str) -> str:
    """A URL as compared here: scheme-less, lower-case host, default port dropped, path
    percent-decoded (`%20` and a space are the same file), fragment dropped."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    port = parts.port
    if port is not None and port not in (80, 443):
        host = f"{host}:{port}"
    query = f"?{parts.query}" if parts.query else ""
    return f"{host}{unquote(parts.path) or '/'}{query}"


def _rendition_named(label: str) -> str | None:
    for word in re.findall(r"[a-z]+", label.lower()):
        if word in _RENDITION_WORDS:
            return _RENDITION_WORDS[word]
    return None


def _label(since: str) -> str:
    """The words between the previous URL or digest and this digest, on their last
    non-empty line (`PDF SHA-256`, or the <dt> before a <dd> that holds the digest)."""
    lines = [line for line in since.split("\n") if line.strip()]
    return " ".join(lines[-1].split())[-48:] if lines else ""


def scan_text(text: str, since: str = "") -> tuple[list[tuple[str, str, str]], str]:
    """URLs and digests of a run of text, in order, as (kind, value, label), and the text
    after the last one (the start of the next digest's label)."""
    found = sorted(
        [(m.start(), m.end(), "url", m.group(0).rstrip(_URL_TAIL)) for m in _URL.finditer(text)]
        + [(m.start(), m.end(), "digest", m.group(1).lower()) for m in _HEX64.finditer(text)]
    )
    tokens: list[tuple[str, str, str]] = []
    position = 0
    for start, end, kind, value in found:
        if start < position:
            continue  # a digest inside a URL (a content-addressed link) belongs to the URL
        since += text[position:start]
        tokens.append((kind, value, _label(since) if kind == "digest" else ""))
        since = ""
        position = end
    return tokens, (since + text[position:])[-200:]


def _run_tokens(runs: tuple[PageRun, ...], base_url: str | None) -> list[_Token]:
    """An HTML page's runs: a block is an element, and a token's path the elements it
    sits in."""
    tokens: list[_Token] = []
    since = ""  # text since the last token: the next digest's label
    for run in runs:
        if run.kind == "link":
            url = urljoin(base_url, run.value) if base_url else run.value
            if urlsplit(url).scheme in ("http", "https"):
                # the link's own text follows; the label goes on
                tokens.append(_Token("url", url, run.path, len(tokens)))
            continue
        found, since = scan_text(run.value, since)
        for kind, value, label in found:
            tokens.append(_Token(kind, value, run.path, len(tokens), label))
    return tokens


def _text_tokens(text: str) -> list[_Token]:
    """A plain-text page: a block is a paragraph (lines between blank lines)."""
    tokens: list[_Token] = []
    paragraph = 1
    since = ""
    for line in text.splitlines():
        if not line.strip():
            paragraph += 1
            continue
        found, since = scan_text(line + "\n", since)
        for kind, value, label in found:
            tokens.append(_Token(kind, value, (paragraph,), len(tokens), label))
    return tokens


def _common_depth(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    depth = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        depth += 1
    return depth


def _pair(digest: _Token, urls: list[_Token]) -> str | None:
    """The URL in the innermost block shared with the digest; of several there, the
    nearest one before it (a Source block names the URL, then the hash), else after it."""
    if not urls:
        return None

    def rank(url: _Token) -> tuple[int, int, int]:
        before = url.order < digest.order
        return (
            _common_depth(url.path, digest.path),
            1 if before else 0,
            -abs(digest.order - url.order),
        )

    return max(urls, key=rank).value


def read_attestations(page: WebPage, page_url: str | None = None) -> list[AttestedDigest]:
    """Every SHA-256 on the page, each with the URL it is printed with, in page order."""
    tokens = _text_tokens(page.text) if page.text is not None else _run_tokens(page.runs, page_url)
    urls = [t for t in tokens if t.kind == "url"]
    return [AttestedDigest(t.value, _pair(t, urls), t.label) for t in tokens if t.kind == "digest"]


def same_site(a: str, b: str) -> bool:
    """Whether two URLs are served by the same site: the same host, or hosts that share a
    registrable domain (rules.fabtcg.com and fabtcg.com). Without a public-suffix list the
    domain is the last two labels, or three under a two-letter country code with a generic
    second level (co.uk, com.au)."""
    ha, hb = (urlsplit(u).hostname or "" for u in (a, b))
    ha, hb = ha.lower().removeprefix("www."), hb.lower().removeprefix("www.")
    if ha == hb:
        return True
    if re.fullmatch(r"[\d.]+|\[?[0-9a-f:]+\]?", ha) or re.fullmatch(r"[\d.]+|\[?[0-9a-f:]+\]?", hb):
        return False  # IP addresses: only an exact match is the same host
    return _registrable(ha) == _registrable(hb)


def _registrable(host: str) -> str:
    labels = host.split(".")
    keep = 2
    if (
        len(labels) >= 3
        and len(labels[-1]) == 2
        and labels[-2] in {"co", "com", "org", "net", "ac", "gov", "edu"}
    ):
        keep = 3
    return ".".join(labels[-keep:])


def check_attestation(
    page: WebPage,
    page_url: str,
    document_url: str,
    sha256: str,
    *,
    rendition: str | None = None,
) -> AttestationCheck:
    """Compare the digest(s) a page publishes for `document_url` with `sha256`.

    A digest whose label names another rendition ("JSON SHA-256" beside a PDF's URL) is
    not about these bytes and is left out. Any remaining digest equal to ours is a match
    (a page may list the digests a URL served over time); others alone are a mismatch."""
    wanted = normalise_url(document_url)
    published = []
    for found in read_attestations(page, page_url):
        if found.url is None or normalise_url(found.url) != wanted:
            continue
        named = _rendition_named(found.label)
        if rendition is not None and named is not None and named != rendition:
            continue
        if found.sha256 not in published:
            published.append(found.sha256)
    ours = sha256.lower()
    if not published:
        verdict = Verdict.NONE
    elif ours in published:
        verdict = Verdict.MATCH
    else:
        verdict = Verdict.MISMATCH
    return AttestationCheck(
        page_url=page_url,
        document_url=document_url,
        sha256=ours,
        verdict=verdict,
        published=tuple(published),
        independent=not same_site(page_url, document_url),
    )
