"""What the campaign feeds the pipeline: real documents, registries and mirrors pointing at
them, a small PDF rendition, and hostile files (bombs, truncations) built on demand.

The real documents are read from ../shared/sources at run time and linked, never
copied into the repository. Bombs are generated once per campaign into its work
folder (compressing gigabytes takes seconds, not minutes).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import tarfile
import urllib.parse
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tests.support.helpers import ROOT, SHARED, registry_text

MANIFEST = SHARED / "manifest.json"
MINI_TXT = ROOT / "tests" / "parse" / "fixtures" / "mtg" / "mini.txt"
MTG_OLD = "mtg/comprehensive-rules/20250725/MagicCompRules 20250725.txt"
MTG_NEW = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt"
NRDB_2024 = "netrunner/rulings-netrunnerdb/2024-01-15/netrunnerdb-v2-rulings-2024-01-15.tar.gz"
NRDB_REF = "028e08701c9938e9124cdde387e599c8e78fe7a5"
GiB = 1024 * 1024 * 1024
MiB = 1024 * 1024


def real(path: str) -> bytes:
    return (SHARED / path).read_bytes()


def manifest_entries() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(MANIFEST.read_text())
    return entries


def manifest_entry(path: str) -> dict[str, Any]:
    return next(e for e in manifest_entries() if e["path"] == path)


# --------------------------------------------------------------------------- registries


def write_registry(path: Path, sources: Iterable[Mapping[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(registry_text(sources), encoding="utf-8")
    return path


def rulings_source(url: str, **extra: Any) -> dict[str, Any]:
    source: dict[str, Any] = {
        "id": "netrunner-rulings",
        "game": "netrunner",
        "document": "netrunner/rulings",
        "title": "NetrunnerDB rulings",
        "family": "nrdb-rulings",
        "rendition": "tar.gz",
        "url": url,
        "primary": True,
        "options": {"ref": NRDB_REF, "asserted_version": "2024-01-15"},
    }
    source.update(extra)
    return source


# --------------------------------------------------------------------------- mirrors


def write_mirror(
    folder: Path, files: Mapping[str, bytes | Path], *, extra: Iterable[dict[str, Any]] = ()
) -> Path:
    """A mirror folder: each file (bytes, or a real file to hard-link) at its manifest path,
    listed with its own size and SHA-256; `extra` entries are listed as given."""
    entries = []
    for relative, content in files.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            _link(content, target)
            data = content.read_bytes()
        else:
            target.write_bytes(content)
            data = content
        entries.append(_entry_for(relative, data, hashlib.sha256(data).hexdigest()))
    entries.extend(extra)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps(entries, indent=1))
    return folder


def _link(source: Path, target: Path) -> None:
    if target.exists():
        target.unlink()
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _entry_for(relative: str, data: bytes, sha256: str) -> dict[str, Any]:
    """A manifest entry guessed from a path like mtg/comprehensive-rules/<version>/<file>."""
    parts = relative.split("/")
    known = next((e for e in manifest_entries() if e["path"] == relative), None)
    if known is not None:
        return {**known, "bytes": len(data), "sha256": sha256}
    fmt = "pdf" if relative.endswith(".pdf") else "tar.gz" if relative.endswith(".gz") else "txt"
    return {
        "game": parts[0],
        "document": parts[1] if len(parts) > 2 else "comprehensive-rules",
        "version": parts[2] if len(parts) > 3 else "1",
        "date": parts[2] if len(parts) > 3 else None,
        "format": fmt,
        "url": None,
        "bytes": len(data),
        "sha256": sha256,
        "path": relative,
    }


def mtg_mirror(folder: Path, *paths: str) -> Path:
    return write_mirror(folder, {p: SHARED / p for p in paths})


# --------------------------------------------------------------------------- a small PDF


def mini_pdf(effective: str | None = None) -> bytes:
    """The mini MTG document (tests/parse/fixtures/mtg/mini.txt) typeset as a PDF that the mtg-cr
    parser reads record for record like the text (every line its own paragraph, glossary
    terms bold), so a PDF rendition costs a tenth of a second to parse. `effective`
    replaces the date the document states (another version)."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    text = MINI_TXT.read_text(encoding="utf-8")
    if effective is not None:
        text = text.replace("January 16, 2026", effective)
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=letter, invariant=1)
    y = 740.0
    glossary = False
    seen: dict[str, int] = {}
    after_blank = True
    for raw in text.splitlines():
        line = raw.strip()
        if line in ("Glossary", "Credits"):
            seen[line] = seen.get(line, 0) + 1
            glossary = glossary or seen[line] > 1  # the second one: past the contents
        if not line:
            y -= 15
            after_blank = True
            continue
        if y < 60:
            pdf.showPage()
            y = 740.0
        bold = glossary and after_blank and line not in ("Glossary", "Credits")
        pdf.setFont("Helvetica-Bold" if bold else "Helvetica", 9)
        pdf.drawString(50 + (len(raw) - len(raw.lstrip())) * 4, y, line)
        y -= 12 if glossary else 15
        after_blank = False
    pdf.showPage()
    pdf.save()
    return out.getvalue()


def mini_txt(effective: str | None = None) -> bytes:
    text = MINI_TXT.read_text(encoding="utf-8")
    if effective is not None:
        text = text.replace("January 16, 2026", effective)
    return text.encode("utf-8")


# --------------------------------------------------------------------------- bombs


def _zeros_compressed(size: int, compressor: Any, filler: bytes = b"\0") -> Iterable[bytes]:
    block = filler * MiB
    left = size
    while left > 0:
        step = min(left, len(block))
        yield compressor.compress(block[:step])
        left -= step


def gzip_bomb(size: int = GiB) -> bytes:
    """A gzip stream that inflates to `size` zero bytes (about 1 MB per GiB)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    body = b"".join(_zeros_compressed(size, compressor))
    return body + compressor.flush()


def pdf_bomb(size: int = 2 * GiB) -> bytes:
    """A one-page PDF whose content stream is a FlateDecode of `size` spaces: a few MB that
    a PDF reader inflates to gigabytes."""
    compressor = zlib.compressobj(9)
    stream = b"".join(_zeros_compressed(size, compressor, b" ")) + compressor.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def _tar_header(name: str, size: int, kind: bytes) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    info.type = kind
    info.mtime = 0
    return info.tobuf(format=tarfile.USTAR_FORMAT)


def pax_bomb(size: int = GiB) -> bytes:
    """A .tar.gz whose first header is a pax extended header declaring `size` bytes (the
    tarfile module reads such a header whole into memory)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    parts = [compressor.compress(_tar_header("././@PaxHeader", size, tarfile.XHDTYPE))]
    # "<len> comment=<zeros...>\n" would be valid pax; zeros are enough to be read whole.
    parts.extend(_zeros_compressed(size, compressor))
    parts.append(compressor.compress(_tar_header("v2/ruling_sources.json", 2, tarfile.REGTYPE)))
    parts.append(compressor.compress(b"[]" + bytes(510) + bytes(1024)))
    return b"".join(parts) + compressor.flush()


def _commit_header(commit: str) -> bytes:
    """The pax global header `git archive` writes (comment=<commit id>)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT,
                      pax_headers={"comment": commit}):  # fmt: skip
        pass
    return out.getvalue()[:1024]  # the header block and its one block of data


def tar_member_bomb(size: int = GiB) -> bytes:
    """A .tar.gz made from the pinned commit (by its header) with one regular member of
    `size` zero bytes: a gzip bomb inside a tar that passes the commit check."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    parts = [compressor.compress(_commit_header(NRDB_REF))]
    parts.append(compressor.compress(_tar_header("v2/rulings/bomb.json", size, tarfile.REGTYPE)))
    parts.extend(_zeros_compressed(size, compressor))
    parts.append(compressor.compress(bytes(-size % 512) + bytes(1024)))
    return b"".join(parts) + compressor.flush()


def truncated(data: bytes, fraction: float) -> bytes:
    return data[: int(len(data) * fraction)]


def html_error_page() -> bytes:
    return (
        b"<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head>"
        b"<body><h1>We'll be right back</h1><p>Maintenance in progress.</p></body></html>\n"
    )


def cached(folder: Path, name: str, build: Any) -> bytes:
    """Build a (large, slow to make) hostile file once per work folder."""
    path = folder / name
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(build())
    return path.read_bytes()


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def json_bytes(value: Any) -> bytes:
    return json.dumps(value, indent=1).encode("utf-8")


def quote(path: str) -> str:
    """A manifest path as a mirror server's URL path (what MirrorUrlBackend requests)."""
    return urllib.parse.quote(path)
