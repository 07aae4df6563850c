"""Seed inputs for the harnesses, made from the real files in ../shared/sources and the
project's fixtures. Big documents are cut into windows so that one input parses in
milliseconds: libFuzzer mutates windows of real bytes, not random noise.

PDF families are fuzzed from the lines a PDF gives (`encode_lines`/`decode_lines`,
one tab-separated line per text line: page, x0, top, size, bold, text), extracted once
from the real PDFs and cached in the work folder.
"""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared" / "sources"
FAQ_PAGES_DIR = ROOT / "tests" / "parse" / "fixtures" / "faq"
WIKI_ANSWERS = ROOT / "tests" / "fetch" / "fixtures" / "wiki"
WINDOW = 24 * 1024


def manifest() -> list[dict[str, object]]:
    entries: list[dict[str, object]] = json.loads((SHARED / "manifest.json").read_text())
    return entries


def files(game: str, document: str, fmt: str) -> list[Path]:
    return [
        SHARED / str(e["path"])
        for e in manifest()
        if (e["game"], e["document"], e["format"]) == (game, document, fmt)
    ]


def windows(data: bytes, size: int = WINDOW) -> list[bytes]:
    """The head (with any byte-order mark), a middle and the tail of a document, or the
    whole of a small one."""
    if len(data) <= size * 3:
        return [data]
    middle = len(data) // 2
    return [data[:size], data[middle : middle + size], data[-size:]]


def text_windows(paths: Iterable[Path]) -> list[bytes]:
    return [w for p in paths for w in windows(p.read_bytes())]


# --------------------------------------------------------------------------- tar


def tar_gz(members: dict[str, bytes], pax: dict[str, str] | None = None) -> bytes:
    # mtime 0 in the gzip header too, so the same members give the same bytes
    return gzip.compress(tar_raw(members, pax), mtime=0)


def tar_raw(members: dict[str, bytes], pax: dict[str, str] | None = None) -> bytes:
    out = io.BytesIO()
    with tarfile.open(
        fileobj=out, mode="w", format=tarfile.PAX_FORMAT, pax_headers=pax or {}
    ) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def small_tars(path: Path, count: int = 6) -> list[bytes]:
    """Uncompressed tars of the first members of a real archive, with its pax header."""
    with tarfile.open(path, "r:gz") as archive:
        pax = dict(archive.pax_headers)
        members: dict[str, bytes] = {}
        for member in archive:
            if member.isreg() and len(members) < count:
                handle = archive.extractfile(member)
                if handle is not None:
                    members[member.name] = handle.read()
    return [tar_raw(members, pax), tar_raw(dict(list(members.items())[:2]))]


def ruling_jsons() -> list[bytes]:
    folder = SHARED / "netrunner" / "rulings-netrunnerdb"
    return [p.read_bytes() for p in sorted(folder.glob("*/*.json")) if p.stat().st_size < 20000]


# --------------------------------------------------------------------------- PDF lines


def encode_lines(lines: Iterable[object]) -> bytes:
    rows = []
    for line in lines:
        rows.append(
            "\t".join(
                [
                    str(getattr(line, "page", 0) or 0),
                    f"{getattr(line, 'x0', 0.0) or 0.0:.1f}",
                    f"{getattr(line, 'top', 0.0) or 0.0:.1f}",
                    f"{getattr(line, 'size', 0.0) or 0.0:.1f}",
                    "1" if getattr(line, "bold", False) else "0",
                    str(getattr(line, "text", "")).replace("\t", " "),
                ]
            )
        )
    return ("\n".join(rows) + "\n").encode("utf-8")


def decode_lines(data: bytes) -> list[object]:
    """The harness's own format, read leniently: a malformed field takes a default, so the
    decoder itself never raises (only the parser is under test)."""
    from pipeline.models.content import Line

    def number(text: str, default: float) -> float:
        try:
            value = float(text)
        except ValueError:
            return default
        return value if value == value and abs(value) < 1e6 else default  # no NaN, no inf

    out: list[object] = []
    for number_, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        fields = raw.split("\t", 5)
        if len(fields) < 6:
            fields = ["1", "72", str(number_ * 12), "10", "0", raw]
        page = int(number(fields[0], 1))
        out.append(
            Line(
                text=fields[5],
                line=number_,
                page=max(1, min(page, 10000)),
                x0=number(fields[1], 72.0),
                top=number(fields[2], 12.0 * number_),
                size=number(fields[3], 10.0),
                bold=fields[4] == "1",
            )
        )
    return out


def pdf_line_windows(work: Path, path: Path, lines_per_window: int = 400) -> list[bytes]:
    """Windows of the lines of a real PDF (extracted once, cached in `work`)."""
    cache = work / "lines" / (path.stem + ".tsv")
    if not cache.exists():
        from pipeline.extract.pdf import extract_pdf_lines

        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(encode_lines(extract_pdf_lines(path.read_bytes(), what=path.name).lines))
    rows = cache.read_bytes().split(b"\n")
    middle = len(rows) // 2
    picks = [
        rows[:lines_per_window],
        rows[middle : middle + lines_per_window],
        rows[-lines_per_window:],
    ]
    return [b"\n".join(p) for p in picks]
