"""The product speaks of the product: code, tests, documentation and the README say what
the program does and why, never how the work on it was organised (ticket numbers,
checklists of the work, who worked when, commit hashes quoted in prose, diaries of how
fast the machine felt). The examples the search must find are assembled from parts, so
this file says none of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.helpers import ROOT

# Each pattern with what it catches. Built so that this file does not match itself.
PATTERNS = {
    "a ticket number": r"\bissues? #?\d+\b",
    "an acceptance checklist": r"\bdone[- ]when\b",
    "a work session": r"\b(this|that|previous|last|earlier|next) session\b|\bsession before\b",
    "rounds of the work": r"\b" + "review" + r" rounds?\b|\bthis " + "round" + r"'s\b",
    "a diary of the machine's mood": r"\bslow(er)? (evening|hour|afternoon|morning)\b",
    "a commit hash in prose": r"\b(commit|at|since|before|after) (?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])"
    r"[0-9a-f]{7,12}\b",
    "an assistant": r"\bhelper (session|agent|developer)s?\b",
    "the lead": r"\blead engineer\b",
}
SUFFIXES = {".py", ".md", ".toml", ".yml", ".yaml", ".txt", ".cfg", ".html", ".j2"}
SKIPPED = {".venv", ".cache", ".git", "corpus", "schemas", "__pycache__", "artifacts"}
SELF = Path(__file__).resolve()


def searched_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "Makefile", ROOT / "mkdocs.yml"]
    for folder in ("pipeline", "tests", "docs", "examples"):
        for path in sorted((ROOT / folder).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if path.is_file() and path.suffix in SUFFIXES and not parts & SKIPPED:
                files.append(path)
    return [f for f in files if f.exists() and f.resolve() != SELF]


def findings() -> list[str]:
    found = []
    for path in searched_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for what, pattern in PATTERNS.items():
                match = re.search(pattern, line, re.I)
                if match:
                    where = path.relative_to(ROOT)
                    found.append(f"{where}:{number}: {what}: {match.group(0)!r} in {line.strip()}")
    return found


def test_nothing_talks_of_how_the_work_was_done() -> None:
    found = findings()
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("A slow step (" + "issue" + " 13) is gone.", "a ticket number"),
        ("Measured at commit 4f70611 on this machine.", "a commit hash in prose"),
        ("what this " + "session" + " changed", "a work session"),
        ("Done" + "-when 1 is not met.", "an acceptance checklist"),
        ("7 min 11 s, a slow evening", "a diary of the machine's mood"),
    ],
)
def test_the_search_finds_such_talk(line: str, what: str) -> None:
    assert re.search(PATTERNS[what], line, re.I), line


@pytest.mark.parametrize(
    "line",
    [
        "the run's process session (setsid) is killed whole",
        "@pytest.fixture(scope='session')",
        "SHA-256 01c4c097ab (canonical JSON of the record)",
        "a session fixture parses each real file once",
        "pinned at a commit the registry names",
    ],
)
def test_the_search_leaves_the_products_own_words(line: str) -> None:
    assert not any(re.search(p, line, re.I) for p in PATTERNS.values()), line
