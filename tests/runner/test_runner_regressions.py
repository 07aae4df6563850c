"""Regression tests of the parse runner, one per defect, named after it: bombs stopped by
the parse limits, killed runs that leave no process and print no traceback, a damaged
parse cache. Each docstring says what was found."""

from __future__ import annotations

import hashlib
import io
import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from pipeline.errors import ParseError
from pipeline.models.scheme import LevelScheme, NumberedScheme
from pipeline.runner.cache import ParseCache, read_entry
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest
from pipeline.runner.sandbox import parse_isolated
from tests.faults import cases_disk
from tests.faults.lab import Lab
from tests.support.helpers import ROOT, SHARED


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


def resident_bytes() -> int:
    """This process's resident memory now (VmRSS), not its peak over the whole suite."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc/self/status")


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


PDF = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.pdf"


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


MTG_TXT = SHARED / "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"


@pytest.mark.campaign
def test_a_pdf_bomb_is_stopped_by_the_parse_memory_limit() -> None:
    """A PDF whose content stream inflates to 1 GiB grew the parsing process without
    bound."""
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


@pytest.mark.campaign
def test_kill_9_during_a_pdf_parse_leaves_no_process_behind(tmp_path: Path) -> None:
    """kill -9 of `rulescorpus parse` left its parse child running."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "parse", str(PDF), "--family", "mtg-cr"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    children: set[int] = set()
    for _ in range(300):  # the parse child starts
        children |= descendants(run.pid)
        if children:
            break
        time.sleep(0.1)
    assert children, "the parse runs in child processes"
    time.sleep(0.5)
    children |= descendants(run.pid)
    run.send_signal(signal.SIGKILL)
    run.wait()
    for _ in range(100):
        if not any(alive(pid) for pid in children):
            break
        time.sleep(0.1)
    assert [pid for pid in children if alive(pid)] == []


def test_a_damaged_parse_cache_entry_is_parsed_again(tmp_path: Path) -> None:
    """Found by `make faults` (parse-cache-flip): one letter flipped in a cached parse
    (still valid JSON) was served, and published, as the document's text."""
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


def test_a_damaged_parse_cache_entry_is_parsed_again_in_the_campaign(lab: Lab) -> None:
    """Found by `make faults` (parse-cache-flip): the campaign's case, run by a real
    `update`."""
    outcome = cases_disk.parse_cache_bit_flip(lab)
    assert outcome.handled and not outcome.corrupt, f"{outcome.problems}\n{outcome.output}"


def test_a_parse_child_whose_run_was_killed_prints_no_traceback() -> None:
    """Found by `make faults` (crash campaign): killed runs printed tracebacks from
    their parse children: a child that finished after its run was killed failed to send
    (BrokenPipeError)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD_WHOSE_RUN_IS_GONE, str(MTG_TXT)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0 and done.stderr == ""


def test_a_fork_server_child_whose_run_was_killed_prints_no_traceback() -> None:
    """Found by `make faults` (crash campaign): a child whose run was killed while
    handing it its work read half a pickle ("pickle data was truncated"): the fork
    server's hook ends it quietly, and still prints any other error."""
    done = subprocess.run(
        [sys.executable, "-c", FORK_SERVER_HOOK], capture_output=True, text=True, cwd=ROOT
    )
    assert "UnpicklingError" not in done.stderr and "truncated" not in done.stderr
    assert "ValueError: a real bug" in done.stderr


def test_a_rule_number_of_5000_digits(tmp_path: Path) -> None:
    """A rule number of 5,000 digits passed Python's integer conversion limit inside the
    parse and `scheme`: an internal error with a traceback. It is the parse's clean error
    now, exit 40, naming the file and what is wrong."""
    huge = "1" * 5000
    path = tmp_path / "digits.txt"
    path.write_text(
        f"Rules\nVersion 1.0\n1. Play\n1.1. Rule one.\n{huge}. Huge\n2. End\n2.1. Last.\n"
    )
    registry = tmp_path / "sources.toml"
    registry.write_text(
        '[[source]]\nid = "sf-cr-txt"\ngame = "sf"\ndocument = "sf/cr"\ntitle = "SF"\n'
        'family = "numbered"\nrendition = "txt"\nprimary = true\n'
        'options = { archive_only = "true" }\n[source.scheme]\n'
        'levels = [{ kind = "chapter", dot = "required" }, { kind = "rule", dot = "required" }]\n'
    )
    for args in (["scheme", str(path)], ["--sources", str(registry), "parse", str(path),
                                         "--family", "numbered"]):  # fmt: skip
        done = subprocess.run(
            [sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 40, done.stderr
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr
        assert str(path) in done.stderr and "more than 4300 digits" in done.stderr


@pytest.mark.parametrize("pattern", [r"v(a+)+b", r"x(\d+)+y", r"(?:v|w)(?:a|aa)+b"])
def test_catastrophic_registry_patterns_keep_parse_busy(pattern: str) -> None:
    """A registry `version_pattern` that backtracks catastrophically on a document's line
    kept `parse` busy for over 120 s and `import` for over 150 s: only `update` had a
    deadline. Each use of the pattern in the parse child has a time budget now; past it
    the parse is a clean error naming the registry key. (Such patterns are refused at
    load too; this is what a pattern the probes miss meets.)"""
    scheme = NumberedScheme(
        levels=[LevelScheme(kind="chapter", dot="required"), LevelScheme(kind="rule")],
        statement_forms=["version"],
        version_pattern=pattern,
    )
    request = ParseRequest("numbered", "sf/cr", "txt", "sf-cr-txt (a test)", scheme=scheme)
    attack = {"v(a+)+b": "v" + "a" * 60, "x(\\d+)+y": "x" + "1" * 60}.get(pattern, "v" + "a" * 80)
    data = f"Rules\nVersion {attack}!\n1. Play\n1.1. Rule one.\n2. End\n2.1. Last.\n".encode()
    began = time.monotonic()
    with pytest.raises(ParseError) as caught:
        parse_isolated(data, request, ParseLimits(pattern_seconds=2))
    assert time.monotonic() - began < 30
    message = str(caught.value)
    assert "sf-cr-txt" in message and "scheme.version_pattern" in message
    assert "time budget of 2 s" in message
