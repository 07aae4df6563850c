"""`make bench`'s archive row: a long history, built from the real MTG text export.

A synthetic archive of N versions (120 by default): the first is the newest MTG text
export with its date moved on, and each next one is a small random edit of the one
before (seeded, so every run builds the same bytes): a rule reworded, a subrule
inserted (the ones after it renumbered), a subrule removed, two subrules merged. Each
edit keeps the document one a person could have published: the letters of a rule's
subrules stay in sequence (skipping l and o), and a subrule is removed or merged away
only when no other rule cites it. Its date is stated in the text, a week after the one
before.

The archive is imported in three parts (the first ten versions, the middle, the last
ten), so the import cost per version at the start and at the end are measured apart;
then `show`, `history`, `search` and `export sqlite` run over the whole history.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import random
import re
import shutil
import sys
from pathlib import Path

from rich.table import Table

from tests.bench.measure import Figures, measure_once

BASE = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
FIRST_DATE = datetime.date(2026, 1, 7)
STATED = re.compile(r"These rules are effective as of [A-Z][a-z]+ \d{1,2}, \d{4}\.")
LETTERS = "abcdefghijkmnpqrstuvwxyz"  # MTG's subrule letters: no l, no o
SUBRULE = re.compile(r"^(\d{3}\.\d+)([a-z])( .*)$")
WORDS = ("also", "still", "then", "only", "instead")
# Targets of the archive row.
# show, against python -c "import json": the quick path is one small module over the one
# reader, and its speed a measured figure, within this many times a bare Python's start.
SHOW_RATIO = 4.0
HISTORY_RATIO = 3.0  # history over every version, against show
EXPORT_SECONDS = 60.0
EXPORT_MIB = 500.0


def _stated(day: datetime.date) -> str:
    return f"These rules are effective as of {day.strftime('%B')} {day.day}, {day.year}."


def _groups(lines: list[str]) -> dict[str, list[int]]:
    """Rule number -> the line indexes of its subrules, in order."""
    groups: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        if m := SUBRULE.match(line):
            groups.setdefault(m.group(1), []).append(index)
    return groups


def _cited(text: str, number: str) -> bool:
    """Whether any line but the subrule's own names its number."""
    return len(re.findall(rf"(?<![\d.]){re.escape(number)}(?![\w])", text)) > 1


def _reletter(lines: list[str], indexes: list[int]) -> None:
    """Give a rule's subrules consecutive letters again, in their order."""
    for letter, index in zip(LETTERS, indexes, strict=False):
        m = SUBRULE.match(lines[index])
        assert m is not None
        lines[index] = f"{m.group(1)}{letter}{m.group(3)}"


def edit_once(lines: list[str], rng: random.Random) -> str:
    """One small edit of the body (the lines of the rules, without line ends); its kind."""
    groups = [g for g in _groups(lines).values() if 2 <= len(g) < len(LETTERS) - 1]
    kind = rng.choice(("reword", "reword", "insert", "remove", "merge"))
    group = rng.choice(groups)
    text = "\n".join(lines)
    if kind == "reword":
        index = rng.choice(group)
        words = lines[index].split(" ")
        at = rng.randrange(2, max(3, len(words)))
        lines[index] = " ".join([*words[:at], rng.choice(WORDS), *words[at:]])
        return kind
    last = lines[group[-1]]
    m = SUBRULE.match(last)
    assert m is not None
    if kind in ("remove", "merge") and _cited(text, m.group(1) + m.group(2)):
        kind = "insert"  # the last subrule is cited: keep it, renumber instead
    if kind == "insert":
        at = rng.choice(group)
        m = SUBRULE.match(lines[at])
        assert m is not None
        new = (
            f"{m.group(1)}a A player may look at this rule at any time (number {rng.random():.6f})."
        )
        lines[at:at] = [new, ""]
        _reletter(lines, _groups(lines)[m.group(1)])
        return kind
    if kind == "merge":
        before = SUBRULE.match(lines[group[-2]])
        assert before is not None
        lines[group[-2]] += " " + m.group(3).strip()
    end = group[-1] + 1
    while end < len(lines) and lines[end].startswith("Example:"):
        end += 1  # its examples go with it
    if end < len(lines) and not lines[end].strip():
        end += 1  # and the blank line that ends it
    del lines[group[-1] : end]
    return kind


def build_archive(
    shared: Path, folder: Path, versions: int, seed: int = 2025
) -> list[dict[str, str]]:
    """Write `versions` synthetic MTG versions under `folder`; their manifest entries."""
    rng = random.Random(seed)
    raw = (shared / BASE).read_bytes().decode("utf-8-sig")
    lines = raw.split("\r\n")
    entries: list[dict[str, str]] = []
    kinds: dict[str, int] = {}
    for number in range(versions):
        day = FIRST_DATE + datetime.timedelta(days=7 * number)
        if number:
            for _ in range(rng.randint(1, 3)):
                kind = edit_once(lines, rng)
                kinds[kind] = kinds.get(kind, 0) + 1
        body = "\r\n".join(STATED.sub(_stated(day), line) for line in lines)
        data = ("\ufeff" + body).encode("utf-8")
        stamp = day.strftime("%Y%m%d")
        path = f"mtg/comprehensive-rules/{stamp}/MagicCompRules {stamp}.txt"
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
        entries.append(
            {
                "game": "mtg",
                "document": "comprehensive-rules",
                "version": stamp,
                "date": day.isoformat(),
                "format": "txt",
                "url": f"https://example.invalid/MagicCompRules%20{stamp}.txt",
                "bytes": str(len(data)),
                "sha256": hashlib.sha256(data).hexdigest(),
                "path": path,
            }
        )
    print(f"synthetic archive: {versions} versions, edits {kinds}", file=sys.stderr)
    return entries


def _part(folder: Path, entries: list[dict[str, str]], name: str) -> Path:
    """An archive folder holding some of the versions (hard links) and their manifest."""
    part = folder.parent / name
    for entry in entries:
        target = part / entry["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / entry["path"], target)
    (part / "manifest.json").write_text(
        json.dumps([{**e, "bytes": int(e["bytes"])} for e in entries])
    )
    return part


def _size_mib(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


def _median(command: list[str], runs: int, ok: tuple[int, ...] = (0,)) -> Figures:
    figures = Figures()
    for _ in range(runs):
        run = measure_once(command, ok)
        figures.add(run.wall, run.largest)
    return figures


def archive_rows(table: Table, shared: Path, tmp: Path, versions: int, runs: int) -> list[str]:
    """Build, import and read the synthetic archive; add its rows; the verdicts."""
    folder = tmp / "synthetic"
    entries = build_archive(shared, folder, versions)
    corpus, cache = tmp / "archive-corpus", tmp / "archive-cache"
    base = [sys.executable, "-m", "pipeline", "--corpus", str(corpus), "--cache", str(cache)]
    head, tail = entries[:10], entries[-10:] if len(entries) > 20 else []
    middle = entries[10 : len(entries) - len(tail)]
    walls: dict[str, float] = {}
    for name, part in (("first", head), ("middle", middle), ("last", tail)):
        if part:
            run = measure_once([*base, "import", str(_part(folder, part, name))])
            walls[name] = run.wall / len(part)
    stored = json.loads((corpus / "index.json").read_text())["documents"]["mtg/cr"]
    published = [v for v in stored["versions"] if v["status"] == "published"]
    last = walls.get("last", walls["first"])
    table.add_row(
        f"import, per version: first ten | last ten of {versions}",
        f"{walls['first']:.2f} s | {last:.2f} s",
        f"{len(published)} published, {len(stored['diffs'])} diffs, "
        f"corpus {_size_mib(corpus):.0f} MiB",
        f"{last / walls['first']:.1f}x",
    )
    # show and its reference run in turns, so the machine's load at the moment falls on both
    show, bare = Figures(), Figures()
    for _ in range(max(runs, 5)):
        for figures, command in (
            (show, [*base, "show", "cr:702.19c", "--doc", "mtg/cr"]),
            (bare, [sys.executable, "-c", "import json"]),
        ):
            run = measure_once(command)
            figures.add(run.wall, run.largest)
    rows = {
        "history cr:702.19c --doc mtg/cr": _median(
            [*base, "history", "cr:702.19c", "--doc", "mtg/cr"], runs
        ),
        "search trample planeswalkers": _median(
            [*base, "search", "trample", "planeswalkers"], runs
        ),
    }
    table.add_row(
        f"show cr:702.19c --doc mtg/cr ({versions} versions)",
        f"{show.wall * 1000:.0f} ms, {show.peak:.0f} MiB",
        f"{bare.wall * 1000:.0f} ms (python -c 'import json')",
        f"{show.wall / bare.wall:.1f}x",
    )
    for what, figures in rows.items():
        table.add_row(
            f"{what} ({versions} versions)",
            f"{figures.wall * 1000:.0f} ms, {figures.peak:.0f} MiB",
            f"{show.wall * 1000:.0f} ms (show)",
            f"{figures.wall / show.wall:.1f}x",
        )
    export = measure_once([*base, "export", "sqlite", str(tmp / "archive.db")], ok=(0,))
    table.add_row(
        f"export sqlite ({versions} versions)",
        f"{export.wall:.1f} s, {export.largest:.0f} MiB",
        f"{show.wall * 1000:.0f} ms (show)",
        f"{export.wall / show.wall:.0f}x",
    )
    history = rows["history cr:702.19c --doc mtg/cr"].wall
    verdicts = [
        _verdict(
            f"show within {SHOW_RATIO:.0f}x python -c 'import json'",
            show.wall / bare.wall <= SHOW_RATIO,
            f"{show.wall / bare.wall:.2f}x",
        ),
        _verdict(
            f"history over {versions} versions within {HISTORY_RATIO:.0f}x show",
            history / show.wall <= HISTORY_RATIO,
            f"{history / show.wall:.1f}x",
        ),
        _verdict(
            f"export sqlite of {versions} versions under {EXPORT_SECONDS:.0f} s and "
            f"{EXPORT_MIB:.0f} MiB",
            export.wall < EXPORT_SECONDS and export.largest < EXPORT_MIB,
            f"{export.wall:.1f} s, {export.largest:.0f} MiB",
        ),
        _verdict(
            "import cost per version flat (last ten within 1.5x the first ten)",
            last <= 1.5 * walls["first"],
            f"{last / walls['first']:.2f}x",
        ),
    ]
    return verdicts


def _verdict(what: str, met: bool, figure: str) -> str:
    """One target's verdict, in rich markup (the page takes its plain text)."""
    return f"{'[green]met[/green]' if met else '[red]missed[/red]'}: {what} ({figure})"
