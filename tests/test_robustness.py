"""One regression test per defect of the robustness issue (#10), named after it.

Each reproduces what an adversary did (kill -9 mid-commit, bombs, a hostile
mirror, a lying server, a full disk, a corrupt corpus) and checks the promise:
the corpus is the old state or the new one, nothing unverified gets in, and
every failure has its documented exit code and a message naming the file.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import threading
import time
import traceback
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, SHARED, corpus_digest, link_archive, registry_file
from server import Reply, ScriptedServer

from pipeline.corpus import open_corpus
from pipeline.errors import (
    EXIT_CHANGED,
    EXIT_FETCH,
    EXIT_IO,
    EXIT_OK,
    EXIT_PARSE,
    EXIT_VERIFY,
    ExtractError,
    ParseError,
)
from pipeline.extract.tarball import read_tar_members
from pipeline.fetch.http import Fetcher
from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs import update as jobs
from pipeline.jobs import verify as audit
from pipeline.jobs.context import Context
from pipeline.jobs.import_archive import import_archive
from pipeline.jobs.publish import Candidate
from pipeline.jobs.versions import add_version
from pipeline.models.records import SourceRef
from pipeline.models.sources import Pin
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest
from pipeline.runner.sandbox import parse_isolated
from pipeline.store import files as store_files
from pipeline.store.blobs import BlobStore
from pipeline.store.corpus import Corpus

MTG = "mtg/comprehensive-rules/{0}/MagicCompRules {0}.txt"
FAST = FetchPolicy(connect_timeout=2, read_timeout=3, deadline=4, retries=1, backoff=0.01)


def mtg_entries(*versions: str) -> list[dict[str, object]]:
    wanted = {MTG.format(v) for v in versions}
    manifest = json.loads((SHARED / "manifest.json").read_text())
    return [e for e in manifest if e["path"] in wanted]


def imported(root: Path, *versions: str) -> Context:
    ctx = Context(corpus_dir=root / "corpus", cache_dir=root / "cache")
    folder = link_archive(root / "archive", mtg_entries(*versions))
    summary = import_archive(ctx, folder)
    assert summary.exit_code == EXIT_OK, summary.outcomes
    return ctx


def leftovers(*roots: Path) -> list[Path]:
    """Temporary files, and digest-named corpus files the index does not name."""
    found = [p for root in roots for p in root.rglob(".tmp-*")]
    corpus = Corpus(roots[0])
    from pipeline.store.corpus import referenced_files
    from pipeline.store.layout import is_managed

    named = referenced_files(corpus.index())
    found += [
        p
        for p in roots[0].rglob("*")
        if p.is_file()
        and is_managed(p.relative_to(roots[0]).as_posix())
        and p.relative_to(roots[0]).as_posix() not in named
    ]
    return found


# A second rendition of a stored version, committed by the real store code in a forked
# child that the crash point (store/files.py, RULESCORPUS_CRASH_AT's counter) kills like
# kill -9 before its Nth rename or fsync. Forked rather than started afresh: the child
# has this process's imports, and a kill loop runs dozens of them.
def _add_pdf_rendition(root: Path) -> None:
    ctx = Context(corpus_dir=root / "corpus", cache_dir=root / "cache")
    with ctx.run_lock():
        corpus = ctx.corpus
        doc = corpus.load_document("mtg/cr", "2025-11-14")
        if any(r.rendition == "pdf" for r in doc.renditions):
            return  # already added: a rerun after a completed commit has nothing to do
        sha, size = ctx.blobs.add_bytes(PDF.read_bytes())
        ref = SourceRef(url="https://example.test/cr.pdf", sha256=sha, bytes=size, rendition="pdf")
        both = sorted([*doc.renditions, ref], key=lambda r: r.rendition)
        doc = doc.model_copy(update={"renditions": both})
        pins = [
            Pin(
                document="mtg/cr",
                rendition=r.rendition,
                version="2025-11-14",
                sha256=r.sha256,
                bytes=r.bytes,
                url=r.url,
            )
            for r in doc.renditions
        ]
        tx = corpus.transaction()
        add_version(tx, Candidate("mtg/cr", "mtg-cr", "MTG", doc, pins))
        tx.commit()


PDF = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.pdf"


def republish(root: Path, crash_at: int = 0) -> int:
    # A fork copies no thread but this one, and no lock another thread might hold: the
    # suite leaves none running here (a failure says so rather than a child hanging).
    assert threading.active_count() == 1, f"threads at the fork: {threading.enumerate()}"
    pid = os.fork()
    if pid == 0:  # the child: exit 0 done, 137 killed at the crash point, 1 failed
        code = 1
        try:
            store_files._CRASH_AT, store_files._steps = crash_at, 0
            _add_pdf_rendition(root)
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    assert code in (0, 137), f"the republishing child failed ({code}): see its traceback above"
    return code


def copy_tree(src: Path, dst: Path) -> None:
    subprocess.run(["cp", "-a", str(src), str(dst)], check=True)


@pytest.fixture(scope="module")
def two_versions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("two")
    imported(root, "20250725", "20251114")
    return root


def test_defect_1_a_kill_at_any_step_of_adding_a_rendition_leaves_old_or_new(
    two_versions: Path, tmp_path: Path
) -> None:
    before = corpus_digest(two_versions / "corpus")
    clean = tmp_path / "clean"
    copy_tree(two_versions, clean)
    assert republish(clean) == 0
    after = corpus_digest(clean / "corpus")
    assert after != before
    kills = 0
    for step in range(1, 200):
        run = tmp_path / f"kill-{step}"
        copy_tree(two_versions, run)
        if republish(run, crash_at=step) == 0:
            break
        kills += 1
        ctx = Context(corpus_dir=run / "corpus", cache_dir=run / "cache")
        with ctx.run_lock() as found:
            pass
        state = corpus_digest(run / "corpus")
        assert state in (before, after), f"kill before step {step}: a third state"
        assert leftovers(run / "corpus", run / "cache") == [], f"kill at {step}: {found}"
        assert audit.verify(ctx, []).exit_code == EXIT_OK
        # The next run completes the work and ends exactly where an uninterrupted one did.
        assert republish(run) == 0
        assert corpus_digest(run / "corpus") == after
    assert kills >= 10, "every rename and fsync of the commit was a kill point"


def test_defect_2_adding_a_rendition_keeps_every_old_number_answering(
    two_versions: Path, tmp_path: Path
) -> None:
    root = tmp_path / "corpus"
    copy_tree(two_versions, root)
    corpus = Corpus(root / "corpus")
    aliases = corpus.load_aliases("mtg/cr", "2025-11-14")
    assert aliases, "2025-07-25 -> 2025-11-14 renumbers rules"
    answers = {
        old: open_corpus(corpus.root).show(old, "mtg/cr", "2025-11-14").record.id for old in aliases
    }
    assert republish(root) == 0
    after = Corpus(root / "corpus")
    assert len(after.load_document("mtg/cr", "2025-11-14").renditions) == 2
    assert after.load_aliases("mtg/cr", "2025-11-14") == aliases
    for old, new in answers.items():
        shown = open_corpus(after.root).show(old, "mtg/cr", "2025-11-14")
        assert (shown.record.id, shown.renumbered_from) == (new, old)


def pdf_bomb(inflated: int) -> bytes:
    """A valid one-page PDF whose content stream inflates to `inflated` bytes of spaces."""
    pack = zlib.compressobj(9)
    chunk = b" " * (1 << 20)
    body = b"".join(pack.compress(chunk) for _ in range(inflated >> 20)) + pack.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(body) + body + b"\nendstream",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + obj + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def test_defect_3_a_pdf_bomb_is_stopped_by_the_parse_memory_limit() -> None:
    limits = ParseLimits(memory_bytes=400 << 20, cpu_seconds=120, wall_seconds=180)
    request = ParseRequest(family="mtg-cr", document="mtg/cr", rendition="pdf", what="bomb.pdf")
    bomb = pdf_bomb(1 << 30)
    assert bomb.startswith(b"%PDF-1.4") and len(bomb) < 4 << 20
    before = resident_bytes()
    with pytest.raises(ParseError) as caught:
        parse_isolated(bomb, request, limits)
    message = str(caught.value)
    assert "bomb.pdf" in message and "limit" in message, message
    # The inflating happened in the child, within its address-space limit, not here.
    assert resident_bytes() - before < 100 << 20


def resident_bytes() -> int:
    """This process's resident memory now (VmRSS), not its peak over the whole suite."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def test_defect_3_a_pax_header_bomb_is_refused_before_it_is_read() -> None:
    header = tarfile.TarInfo("PaxHeader")
    header.type = tarfile.XHDTYPE
    header.size = 1 << 30
    raw = header.tobuf(format=tarfile.USTAR_FORMAT) + b"\0" * (1 << 20)
    data = gzip.compress(raw)
    assert len(data) < 100_000
    with pytest.raises(ExtractError, match="metadata header of 1073741824 bytes"):
        read_tar_members(data, what="bomb.tar.gz")


def mirror_with(tmp_path: Path, path: str, data: bytes | None = None) -> Path:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    entry = mtg_entries("20251114")[0]
    entry = {**entry, "path": path}
    if data is not None:
        (mirror / "big.txt").write_bytes(data)
        entry.update(bytes=len(data), sha256=__import__("hashlib").sha256(data).hexdigest())
    (mirror / "manifest.json").write_text(json.dumps([entry]))
    return mirror


def mtg_registry(tmp_path: Path, **extra: object) -> Path:
    source = {
        "id": "mtg-cr-txt",
        "game": "mtg",
        "document": "mtg/cr",
        "title": "Magic: The Gathering Comprehensive Rules",
        "family": "mtg-cr",
        "rendition": "txt",
        "url": "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt",
        "primary": True,
        "manifest": {"game": "mtg", "document": "comprehensive-rules", "format": "txt"},
        **extra,
    }
    return registry_file(tmp_path, [source])


@pytest.mark.parametrize(
    "path", ["../../etc/passwd", "/etc/passwd", "link/passwd"], ids=["dotdot", "absolute", "link"]
)
def test_defect_4_a_mirror_path_out_of_the_folder_is_refused_before_reading(
    tmp_path: Path, path: str
) -> None:
    mirror = mirror_with(tmp_path, path)
    (mirror / "link").symlink_to("/etc")
    ctx = Context(tmp_path / "corpus", tmp_path / "cache", mtg_registry(tmp_path))
    summary = jobs.update(ctx, [], mirror=str(mirror))
    assert summary.exit_code == EXIT_FETCH
    assert path in summary.outcomes[0].message
    assert list((tmp_path / "cache" / "sha256").rglob("*")) == [], "no byte was stored"


def test_defect_4_a_mirror_file_over_max_bytes_is_refused(tmp_path: Path) -> None:
    mirror = mirror_with(tmp_path, "big.txt", b"x" * 5000)
    ctx = Context(tmp_path / "corpus", tmp_path / "cache", mtg_registry(tmp_path, max_bytes=4096))
    summary = jobs.update(ctx, [], mirror=str(mirror))
    assert summary.exit_code == EXIT_FETCH
    message = summary.outcomes[0].message
    assert "5000 bytes" in message and "4096" in message and "max_bytes" in message
    assert not (tmp_path / "corpus" / "index.json").exists()


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer() as srv:
        yield srv


def test_defect_5_a_body_longer_than_its_content_length_is_a_fetch_failure(
    tmp_path: Path, server: ScriptedServer
) -> None:
    body = (SHARED / MTG.format("20251114")).read_bytes()
    announced = body[: len(body) // 2]
    server.serve("/cr.txt", Reply(200, body, {"Content-Length": str(len(announced))}))
    with Fetcher(BlobStore(tmp_path / "cache"), FAST) as fetcher, pytest.raises(Exception) as err:
        fetcher.fetch("mtg-cr-txt", server.url("/cr.txt"), expect="txt")
    assert "more than the" in str(err.value) and "Content-Length" in str(err.value)
    assert list((tmp_path / "cache" / "sha256").rglob("*")) == []


FULL_DISK = """
import resource, signal, sys
from pathlib import Path
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
from pipeline.cli.app import main
sys.argv = ["rulescorpus", "--corpus", sys.argv[1] + "/corpus", "--cache", sys.argv[1] + "/cache",
            "import", sys.argv[1] + "/archive"]
main()
"""


def test_defect_6_a_full_disk_is_exit_74_naming_the_path_and_touches_nothing(
    two_versions: Path, tmp_path: Path
) -> None:
    root = tmp_path / "full"
    copy_tree(two_versions, root)
    # A third version arrives; the disk holds files of at most 64 KiB (a version is ~4 MB).
    for entry in mtg_entries("20230414"):
        target = root / "archive" / str(entry["path"])
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(SHARED / str(entry["path"]), target)
    manifest = mtg_entries("20250725", "20251114", "20230414")
    (root / "archive" / "manifest.json").write_text(json.dumps(manifest))
    before = corpus_digest(root / "corpus")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(root), str(64 << 10)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == EXIT_IO, done.stdout + done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert str(root) in done.stdout + done.stderr
    assert corpus_digest(root / "corpus") == before


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_defect_7_kill_9_during_a_pdf_parse_leaves_no_process_behind(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "parse", str(PDF), "--family", "mtg-cr"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    for _ in range(300):  # the fork server, the parse child and its workers start
        workers |= descendants(run.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.1)
    assert workers, "the parse runs in child processes"
    time.sleep(0.5)
    workers |= descendants(run.pid)
    run.send_signal(signal.SIGKILL)
    run.wait()
    for _ in range(100):
        if not any(alive(pid) for pid in workers):
            break
        time.sleep(0.1)
    assert [pid for pid in workers if alive(pid)] == []


def test_defect_8_temporary_files_of_a_killed_run_are_removed_by_the_next(
    two_versions: Path, tmp_path: Path
) -> None:
    for step in (1, 2, 3, 5, 8):
        run = tmp_path / f"kill-{step}"
        copy_tree(two_versions, run)
        assert republish(run, crash_at=step) == 137
        Path(run / "corpus" / "mtg" / ".tmp-left-by-kill.json").write_bytes(b"{")
        ctx = Context(corpus_dir=run / "corpus", cache_dir=run / "cache")
        with ctx.run_lock() as found:
            assert "removed" in found
        assert leftovers(run / "corpus", run / "cache") == []


def test_defect_9_update_says_20_not_0_when_a_stored_version_is_corrupt(
    two_versions: Path, tmp_path: Path
) -> None:
    root = tmp_path / "corrupt"
    copy_tree(two_versions, root)
    corpus = Corpus(root / "corpus")
    path = root / "corpus" / corpus.version_entry("mtg/cr", "2025-11-14").file
    path.write_bytes(path.read_bytes().replace(b"Trample", b"Tramble", 1))
    registry = mtg_registry(tmp_path)
    ctx = Context(root / "corpus", root / "cache", registry)
    summary = jobs.update(ctx, [], mirror=str(root / "archive"))
    assert summary.exit_code == EXIT_VERIFY
    assert str(path) in summary.outcomes[0].message


def test_defect_9_corpus_files_are_readable_by_other_users(two_versions: Path) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    for path in (two_versions / "corpus").rglob("*.json"):
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask, path


def test_defect_9_a_host_that_rate_limits_everything_cannot_outlive_the_run_deadline(
    tmp_path: Path, server: ScriptedServer
) -> None:
    server.serve("/cr.txt", Reply(429, b"", {"Retry-After": "3600"}))
    sources = [
        {
            "id": f"mtg-cr-{n}",
            "game": "mtg",
            "document": f"mtg/cr{n}",
            "title": "MTG",
            "family": "mtg-cr",
            "rendition": "txt",
            "url": server.url("/cr.txt"),
            "primary": True,
        }
        for n in range(3)
    ]
    ctx = Context(tmp_path / "corpus", tmp_path / "cache", registry_file(tmp_path, sources))
    ctx.policy = FetchPolicy(deadline=300, max_retry_after=300, retries=5)
    summary = jobs.update(ctx, [], deadline=1.0)
    assert summary.exit_code == EXIT_FETCH
    assert [o.outcome for o in summary.outcomes] == ["fetch-failed"] * 3
    assert any("deadline" in o.message for o in summary.outcomes)
    assert len(server.requests) <= 3


def test_no_outcome_but_unchanged_sums_to_exit_0() -> None:
    from pipeline.jobs.outcomes import Outcome, RunSummary

    for code in (2, 10, 20, 30, 40, 74, 75, 99):
        summary = RunSummary("update", [Outcome(document="d", outcome="x", exit_code=code)])
        summary.outcomes.append(Outcome(document="e", outcome="unchanged"))
        assert summary.exit_code == code, code
    assert RunSummary("update", [Outcome(document="d", outcome="unchanged")]).exit_code == 0
    assert EXIT_CHANGED and EXIT_PARSE  # the documented codes exist


@pytest.mark.parametrize(
    ("path", "family", "code"),
    [
        ("fab/comprehensive-rules/2.14.0/en-fab-cr.txt", "fab-cr", "unexpected-end"),
        (MTG.format("20251114"), "mtg-cr", "no-credits"),
    ],
)
def test_defect_5_a_document_that_stops_short_is_never_clean(
    path: str, family: str, code: str
) -> None:
    from pipeline.runner.families import parse_bytes

    data = (SHARED / path).read_bytes()
    request = ParseRequest(
        family=family, document=family[:-3] + "/cr", rendition="txt", what=path, version="v"
    )
    assert code not in {w.code for w in parse_bytes(data, request).warnings}
    cut = parse_bytes(data[: int(len(data) * 0.97)], request)
    assert code in {w.code for w in cut.warnings}, "a truncated file must not parse clean"
