"""Fault cases of a misbehaving server: each runs the real `rulescorpus update` against a
registry (`--sources FILE`) whose URLs point at the fault server on 127.0.0.1.

Every case starts from the prepared corpus holding MTG 2025-07-25, so "the corpus is
byte-identical after a failure" compares a real corpus, and serves MTG 2025-11-14 (or
something that pretends to be it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tests.support.mtg_sources import mtg_source

from . import corpus_state, materials, procs
from .fault_server import (
    Behaviour,
    closed_port,
    conditional,
    drip,
    endless,
    hang_up,
    redirect,
    send,
    silent,
    status,
)
from .lab import CASE_TIMEOUT, Dirs, Lab, Outcome, judge

Case = Callable[[Lab], Outcome]
CASES: list[tuple[Case, bool]] = []  # (case, part of --quick)
TEXT = {"Content-Type": "text/plain; charset=utf-8"}
PDF = {"Content-Type": "application/pdf"}
TGZ = {"Content-Type": "application/gzip"}


def case(quick: bool = False) -> Callable[[Case], Case]:
    def register(function: Case) -> Case:
        CASES.append((function, quick))
        return function

    return register


def new_bytes() -> bytes:
    return materials.real(materials.MTG_NEW)


def run_update(
    lab: Lab,
    name: str,
    title: str,
    sources: Sequence[Mapping[str, Any]],
    *,
    expected: Sequence[int],
    names: Sequence[str] = (),
    state: str | None = "old",
    env: Mapping[str, str] | None = None,
    extra_args: Sequence[str] = (),
    memory_limit: int | None = None,
    dirs: Dirs | None = None,
) -> Outcome:
    """One `update` with a registry of `sources`, judged (see lab.judge)."""
    dirs = dirs or lab.dirs(name, state)
    registry = materials.write_registry(dirs.corpus.parent / "sources.toml", sources)
    before = corpus_state.Snapshot.of(dirs.corpus)
    result = procs.run(
        [*dirs.args(registry), "update", *extra_args],
        env=procs.base_env(env),
        timeout=CASE_TIMEOUT,
        measure=memory_limit is not None,
    )
    return judge(
        name,
        title,
        result,
        expected=expected,
        dirs=dirs,
        before=before,
        names=names,
        memory_limit=memory_limit,
    )


def served(
    lab: Lab,
    name: str,
    title: str,
    behaviours: Behaviour | Sequence[Behaviour],
    *,
    expected: Sequence[int],
    rendition: str = "txt",
    names: Sequence[str] | None = None,
    **kwargs: Any,
) -> Outcome:
    """The MTG source of the registry answered by `behaviours`; a failure must name its URL
    (unless told what else it must name), a success has nothing to name."""
    url = lab.server.route(f"/{name}/MagicCompRules.{rendition}", behaviours)
    source = mtg_source(rendition, url, primary=True)
    if names is None:
        names = [] if set(expected) <= {0, 10} else [url]
    return run_update(lab, name, title, [source], expected=expected, names=names, **kwargs)


# --------------------------------------------------------------------------- the server


@case(quick=True)
def no_answer(lab: Lab) -> Outcome:
    return served(lab, "no-answer", "the server accepts and never answers", silent(), expected=[30])


@case()
def drip_feed(lab: Lab) -> Outcome:
    return served(
        lab, "drip", "one byte every 2 seconds", drip(new_bytes(), 2.0, TEXT), expected=[30]
    )


@case()
def endless_body(lab: Lab) -> Outcome:
    return served(
        lab, "endless", "a body that never ends", endless(b"100.1. x\n" * 8000, TEXT), expected=[30]
    )


@case()
def gzip_bomb(lab: Lab) -> Outcome:
    bomb = materials.cached(lab.work / "bombs", "gzip-1g.gz", materials.gzip_bomb)
    return served(
        lab,
        "gzip-bomb",
        "Content-Encoding gzip of 1 GiB of zeros (1 MB sent)",
        send(bomb, {**TEXT, "Content-Encoding": "gzip"}),
        expected=[30],
        memory_limit=512 * materials.MiB,
    )


@case(quick=True)
def html_error_page(lab: Lab) -> Outcome:
    return served(
        lab,
        "html-200",
        "an HTML error page served with 200",
        send(materials.html_error_page(), {"Content-Type": "text/html"}),
        expected=[30],
    )


@case()
def empty_200(lab: Lab) -> Outcome:
    return served(lab, "empty-200", "an empty 200", send(b"", TEXT), expected=[30])


@case()
def wrong_content_type(lab: Lab) -> Outcome:
    # The label lies but the bytes are the document: the bytes are what is checked.
    return served(
        lab,
        "wrong-type",
        "the right text served as image/png",
        send(new_bytes(), {"Content-Type": "image/png"}),
        expected=[10],
    )


@case()
def pdf_for_text(lab: Lab) -> Outcome:
    return served(
        lab,
        "pdf-for-txt",
        "a PDF served where the text export belongs",
        send(materials.mini_pdf(), PDF),
        expected=[30, 40],
    )


@case()
def redirect_loop(lab: Lab) -> Outcome:
    lab.server.route("/loop-b/MagicCompRules.txt", redirect("/redirect-loop/MagicCompRules.txt"))
    return served(
        lab,
        "redirect-loop",
        "a redirect loop",
        redirect("/loop-b/MagicCompRules.txt"),
        expected=[30],
    )


@case()
def too_many_redirects(lab: Lab) -> Outcome:
    for hop in range(1, 12):
        lab.server.route(f"/hop{hop}", redirect(f"/hop{hop + 1}"))
    return served(lab, "redirects", "eleven redirects in a row", redirect("/hop1"), expected=[30])


@case()
def https_to_http(lab: Lab) -> Outcome:
    plain = lab.server.route("/downgraded/MagicCompRules.txt", send(new_bytes(), TEXT))
    url = lab.tls_server.route("/https/MagicCompRules.txt", redirect(plain))
    source = mtg_source("txt", url)
    return run_update(
        lab,
        "https-to-http",
        "an https URL redirecting to plain http",
        [source],
        expected=[30],
        names=[url],
        env={"REQUESTS_CA_BUNDLE": str(lab.ca_file)},
    )


@case()
def untrusted_certificate(lab: Lab) -> Outcome:
    url = lab.tls_server.route("/untrusted/MagicCompRules.txt", send(new_bytes(), TEXT))
    return run_update(
        lab,
        "bad-tls",
        "https with a certificate nobody signed",
        [mtg_source("txt", url)],
        expected=[30],
        names=[url],
    )


@case()
def another_host(lab: Lab) -> Outcome:
    elsewhere = f"http://localhost:{lab.server.port}/elsewhere/MagicCompRules.txt"
    return served(
        lab, "other-host", "a redirect to a host not allowed", redirect(elsewhere), expected=[30]
    )


@case(quick=True)
def errors_then_success(lab: Lab) -> Outcome:
    return served(
        lab,
        "5xx-then-ok",
        "503, then 500, then the document",
        [status(503), status(500), send(new_bytes(), TEXT)],
        expected=[10],
    )


@case()
def huge_retry_after(lab: Lab) -> Outcome:
    outcome = served(
        lab,
        "429-retry-after",
        "429 with Retry-After: 86400",
        status(429, {"Retry-After": "86400"}),
        expected=[30],
    )
    if outcome.seconds > 30:
        outcome.problems.append(f"took {outcome.seconds:.0f} s: the Retry-After was obeyed")
    return outcome


@case()
def run_deadline(lab: Lab) -> Outcome:
    """Three documents behind a server that never answers, `update --deadline 4`: the run
    ends near its deadline, and the documents it could not reach say so."""
    sources = []
    for game in ("mtg", "fab", "riftbound"):
        url = lab.server.route(f"/deadline/{game}.txt", silent())
        sources.append({**mtg_source("txt", url), "id": f"{game}-txt", "document": f"{game}/cr"})
    outcome = run_update(
        lab,
        "run-deadline",
        "three silent sources and `update --deadline 4`",
        sources,
        expected=[30],
        names=["deadline"],
        extra_args=["--deadline", "4"],
    )
    if outcome.seconds > 15:
        outcome.problems.append(f"took {outcome.seconds:.0f} s past a 4 s run deadline")
    return outcome


@case()
def retry_after_date(lab: Lab) -> Outcome:
    return served(
        lab,
        "429-http-date",
        "429 with a Retry-After date in 2099",
        status(429, {"Retry-After": "Thu, 01 Jan 2099 00:00:00 GMT"}),
        expected=[30],
    )


@case(quick=True)
def not_modified_corrupt_blob(lab: Lab) -> Outcome:
    """First run stores the document with an ETag; a bit of its blob flips; the next run's
    conditional GET gets 304 and must not vouch for the altered bytes."""
    name = "304-corrupt-blob"
    data = new_bytes()
    url = lab.server.route(f"/{name}/MagicCompRules.txt", conditional(data, '"v1"', TEXT))
    dirs = lab.dirs(name, "old")
    first = run_update(lab, name, "", [mtg_source("txt", url)], expected=[10], dirs=dirs)
    if not first.handled:
        first.title = "304 for a stored blob that was altered (first run failed)"
        return first
    blob = dirs.cache / "sha256" / materials.sha256(data)[:2] / materials.sha256(data)[2:]
    corpus_state.flip_bit(blob)
    return run_update(
        lab,
        name,
        "a 304 whose stored blob was altered on disk",
        [mtg_source("txt", url)],
        expected=[20],
        names=[str(blob)],
        dirs=dirs,
    )


@case()
def renditions_disagree(lab: Lab) -> Outcome:
    txt = lab.server.route("/versions/cr.txt", send(materials.mini_txt(), TEXT))
    pdf = lab.server.route("/versions/cr.pdf", send(materials.mini_pdf("January 16, 2025"), PDF))
    return run_update(
        lab,
        "versions-disagree",
        "TXT at 2026-01-16 and PDF at 2025-01-16 served together",
        [mtg_source("txt", txt), mtg_source("pdf", pdf)],
        expected=[20],
        names=["mtg/cr"],
    )


@case()
def body_shorter(lab: Lab) -> Outcome:
    data = new_bytes()
    return served(
        lab,
        "short-body",
        "a body shorter than its Content-Length",
        send(data, TEXT, length=len(data) + 5000),
        expected=[30],
    )


@case(quick=True)
def body_longer(lab: Lab) -> Outcome:
    data = new_bytes()
    return served(
        lab,
        "long-body",
        "a body longer than its Content-Length",
        send(data, TEXT, length=len(data) - 5000),
        expected=[30],
    )


@case()
def garbage_status_line(lab: Lab) -> Outcome:
    return served(
        lab,
        "not-http",
        "a reply that is not HTTP",
        hang_up(b"SSH-2.0-OpenSSH_9.6\r\n"),
        expected=[30],
    )


@case()
def connection_refused(lab: Lab) -> Outcome:
    url = f"http://127.0.0.1:{closed_port()}/MagicCompRules.txt"
    return run_update(
        lab,
        "refused",
        "nothing listens on the port",
        [mtg_source("txt", url)],
        expected=[30],
        names=[url],
    )


@case()
def not_found(lab: Lab) -> Outcome:
    return served(lab, "404", "404 Not Found", status(404), expected=[30])


@case()
def announced_too_big(lab: Lab) -> Outcome:
    return served(
        lab,
        "announced-big",
        "a Content-Length of 5 GB",
        send(b"x" * 100, TEXT, length=5_000_000_000),
        expected=[30],
    )


@case()
def truncated_document(lab: Lab) -> Outcome:
    data = materials.truncated(new_bytes(), 0.6)
    return served(
        lab,
        "truncated-txt",
        "the first 60 % of the document, served as complete",
        send(data, TEXT),
        expected=[40],
        names=["staged/mtg/cr"],  # staged for review, with its warnings
    )


@case()
def truncated_pdf(lab: Lab) -> Outcome:
    return served(
        lab,
        "truncated-pdf",
        "a PDF cut in half",
        send(materials.truncated(materials.mini_pdf(), 0.5), PDF),
        expected=[40],
        rendition="pdf",
    )


@case()
def pdf_bomb(lab: Lab) -> Outcome:
    bomb = materials.cached(lab.work / "bombs", "bomb.pdf", materials.pdf_bomb)
    limit = 512 * materials.MiB
    return served(
        lab,
        "pdf-bomb",
        f"a {len(bomb) // materials.MiB} MB PDF whose content stream inflates to 2 GiB",
        send(bomb, PDF),
        expected=[40],
        rendition="pdf",
        env={"RULESCORPUS_PARSE_MEMORY_MB": str(limit // materials.MiB)},
        memory_limit=limit,
    )


def _rulings(
    lab: Lab, name: str, title: str, data: bytes, limit: int, expected: Sequence[int]
) -> Outcome:
    url = lab.server.route(f"/{name}/rulings.tar.gz", send(data, TGZ))
    return run_update(
        lab,
        name,
        title,
        [materials.rulings_source(url)],
        expected=expected,
        names=[url],
        env={"RULESCORPUS_PARSE_MEMORY_MB": str(limit // materials.MiB)},
        memory_limit=limit,
    )


@case()
def pax_header_bomb(lab: Lab) -> Outcome:
    bomb = materials.cached(lab.work / "bombs", "pax-1g.tar.gz", materials.pax_bomb)
    # No commit can be read from it: refused as unpinned (20) or as a bomb (40), within
    # the memory limit either way.
    return _rulings(
        lab, "pax-bomb", "a .tar.gz whose pax header declares 1 GiB", bomb,
        512 * materials.MiB, [20, 40],
    )  # fmt: skip


@case()
def tar_member_bomb(lab: Lab) -> Outcome:
    bomb = materials.cached(lab.work / "bombs", "member-1g.tar.gz", materials.tar_member_bomb)
    return _rulings(
        lab, "tar-bomb", "a .tar.gz (of the pinned commit) with a member of 1 GiB of zeros",
        bomb, 512 * materials.MiB, [40],
    )  # fmt: skip


@case()
def refused_webhook(lab: Lab) -> Outcome:
    hook = lab.server.route("/hook", status(500))
    url = lab.server.route("/notify/MagicCompRules.txt", send(new_bytes(), TEXT))
    return run_update(
        lab,
        "notify-500",
        "--notify to a webhook that answers 500",
        [mtg_source("txt", url)],
        expected=[10],
        names=[hook],
        extra_args=["--notify", hook],
    )


def _discovery(lab: Lab, name: str, title: str, page: bytes) -> Outcome:
    landing = lab.server.route(f"/{name}/rules", send(page, {"Content-Type": "text/html"}))
    source = mtg_source("txt")
    del source["url"]
    source["discovery"] = {"page": landing, "link_pattern": r"MagicCompRules[^/]*\.txt$"}
    return run_update(lab, name, title, [source], expected=[30], names=[landing])


@case()
def discovery_no_link(lab: Lab) -> Outcome:
    page = b"<html><body><a href='/rules.docx'>DOCX</a></body></html>"
    return _discovery(lab, "no-link", "the rules page links no text file", page)


@case()
def discovery_two_links(lab: Lab) -> Outcome:
    page = (
        b"<html><body><a href='/MagicCompRules 1.txt'>A</a>"
        b"<a href='/MagicCompRules 2.txt'>B</a></body></html>"
    )
    return _discovery(lab, "two-links", "the rules page links two text files", page)


@case()
def mirror_server_html_manifest(lab: Lab) -> Outcome:
    base = lab.server.url("/html-mirror")
    lab.server.route("/html-mirror/manifest.json", send(materials.html_error_page()))
    return _mirror_server(
        lab, "mirror-html", "a mirror server answering HTML for its manifest", base
    )


@case()
def mirror_server_lies(lab: Lab) -> Outcome:
    base = lab.server.url("/lying-mirror")
    entry = materials.manifest_entry(materials.MTG_NEW)
    lab.server.route("/lying-mirror/manifest.json", send(materials.json_bytes([entry])))
    lab.server.route(
        "/lying-mirror/" + materials.quote(materials.MTG_NEW),
        send(materials.mini_txt(), TEXT),
    )
    return _mirror_server(
        lab, "mirror-lies", "a mirror server whose file is not its manifest's", base, [20]
    )


def _mirror_server(
    lab: Lab, name: str, title: str, base: str, expected: Sequence[int] = (30,)
) -> Outcome:
    dirs = lab.dirs(name, "old")
    before = corpus_state.Snapshot.of(dirs.corpus)
    result = procs.run(
        [*dirs.args(lab.mirror_registry), "update", "--mirror", base], timeout=CASE_TIMEOUT
    )
    return judge(name, title, result, expected=expected, dirs=dirs, before=before, names=[base])
