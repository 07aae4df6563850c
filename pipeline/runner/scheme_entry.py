"""`rulescorpus scheme FILE`: a registry entry for a numbered rules document, inferred from it.

The file's lines are extracted as `parse` extracts them, the scheme is inferred
(`parse.scheme_inference`), the entry is written as TOML and read back through
the registry loader, and the file is parsed with that very entry the way
`rulescorpus parse FILE --family numbered --sources ENTRY` parses it: what the
report counts is what pasting the entry gives.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pipeline.errors import ParseError, SchemeError, UsageError
from pipeline.extract.html_lines import extract_html_lines
from pipeline.extract.markdown import extract_markdown_lines
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.text import extract_text_lines
from pipeline.fetch.manifest import ManifestEntry, parse_manifest
from pipeline.models.sources import ManifestKey, Source
from pipeline.parse.common import slugify
from pipeline.parse.scheme_inference import Inference, check_line_count, infer_scheme
from pipeline.registry.entry_toml import entry_toml
from pipeline.registry.loader import parse_registry
from pipeline.runner.family_names import NAMES
from pipeline.runner.limits import ParseLimits
from pipeline.runner.local_file import SUFFIXES, parse_file, read_document
from pipeline.runner.request import ParseRequest
from pipeline.runner.sandbox import run_isolated

READABLE = ("txt", "pdf", "md", "html")
SHOWN_FURNITURE = 5
# Where the publisher's file lives is stated by no file: a reserved name (RFC 2606) that
# never resolves, until a person writes the real one.
PLACEHOLDER_URL = "https://publisher.invalid/the-rules-file"
MANIFEST_DEPTH = 4  # folders above the file searched for the archive's manifest.json


@dataclass(frozen=True)
class SchemeEntry:
    """The entry's TOML (stdout) and what was found (stderr)."""

    toml: str
    report: list[str]


def infer_in_child(rendition: str, data: bytes, request: ParseRequest) -> Inference:
    """The scheme of the document in `data`, read as `parse` reads it: run in the parse
    sandbox's limited child (`run_isolated`), so an inflate bomb, a million numbered lines
    or a deeply nested outline stops at the parse limits, not the machine's."""
    if rendition != "pdf":  # counted in the bytes: a line costs far more once extracted
        try:
            check_line_count(data.count(b"\n"), request.what)
        except ParseError as exc:
            raise SchemeError(exc.what, exc.problem) from exc
    try:
        if rendition == "pdf":
            lines = extract_pdf_lines(data, what=request.what).lines
        elif rendition == "md":
            lines = extract_markdown_lines(data, what=request.what)
        elif rendition == "html":
            lines = extract_html_lines(data, what=request.what)
        else:
            lines = extract_text_lines(data, what=request.what)
    except ParseError as exc:
        problem = exc.problem.rstrip(".")
        raise SchemeError(request.what, f"{problem}; not a numbered rules document") from exc
    try:
        return infer_scheme(lines, rendition, request.what)
    except ParseError as exc:
        raise SchemeError(exc.what, exc.problem) from exc


def find_in_manifest(path: Path, data: bytes) -> tuple[Path, ManifestEntry] | None:
    """The archive manifest entry that lists these bytes (a `manifest.json` in the file's
    folder or one above it, the entry of the same SHA-256), or None."""
    digest = hashlib.sha256(data).hexdigest()
    for folder in list(path.resolve().parents)[:MANIFEST_DEPTH]:
        manifest = folder / "manifest.json"
        if not manifest.is_file():
            continue
        try:
            entries = parse_manifest(manifest.read_bytes(), str(manifest))
        except (OSError, UsageError):
            continue  # a manifest it cannot read only means no names are taken from it
        for entry in entries:
            if entry.sha256 == digest:
                return manifest, entry
    return None


def build_source(
    inference: Inference, game: str, document: str, rendition: str, key: ManifestKey
) -> Source:
    scheme = inference.scheme
    return Source(
        id=f"{game}-{document.split('/')[-1]}-{rendition}".replace("/", "-"),
        game=game,
        document=document,
        title=scheme.title or document,
        family="numbered",
        rendition=rendition,
        primary=True,
        manifest=key,
        # No URL is known from a file: an archive source until the publisher's URL is set.
        options={"archive_only": "true"},
        scheme=scheme,
    )


def manifest_key(
    path: Path, data: bytes, game: str, document: str, rendition: str
) -> tuple[ManifestKey, list[str]]:
    """The manifest names `import` and `update --mirror` match a file by, and comments saying
    where they came from and what to check."""
    found = find_in_manifest(path, data)
    if found is not None:
        manifest, entry = found
        key = ManifestKey(game=entry.game, document=entry.document, format=entry.format)
        return key, [
            f"manifest: the names of this file's entry ({entry.path}) in {manifest}; `import` "
            "and `update --mirror` take every entry with the same game, document and format.",
        ]
    key = ManifestKey(game=game, document=document.split("/")[-1], format=rendition)
    return key, [
        "manifest: no archive manifest.json above the file lists it. `import` and `update "
        "--mirror` take the entries of an archive's manifest.json whose game, document and "
        "format are these: write them so in the entry of each version of this file.",
    ]


def describe(inference: Inference, counts: dict[str, int], warnings: list[str]) -> list[str]:
    """What was found, for stderr: records per level, the contents, the furniture."""
    report = []
    for level in inference.scheme.levels:
        report.append(f"level {level.kind}: {counts.get(level.kind + 's', 0)} records")
    for table in inference.contents:
        pages = sorted({ln.page for ln in table if ln.page is not None})
        where = f", pages {pages[0]}-{pages[-1]}" if pages else ""
        report.append(
            f"contents skipped: {len(table)} lines, lines {table[0].line}-{table[-1].line}{where}"
        )
    if not inference.contents:
        report.append("contents: none found")
    for item in inference.furniture[:SHOWN_FURNITURE]:
        report.append(f"furniture: {item.text!r} on {item.pages} pages")
    if not inference.furniture:
        report.append("furniture: none found")
    back = inference.back_matter
    if back is not None:
        at = f"line {back.heading.line}" + (
            f", page {back.heading.page}" if back.heading.page else ""
        )
        declared = (
            "declared in ends"
            if back.declared
            else "not declared: the rules' own text has it before, and the rules would end there"
        )
        report.append(f"back matter: {back.heading.text!r} at {at}; {declared}")
    report.extend(f"not declarable: {note}" for note in inference.notes)
    report.append(f"numbers in sequence: {inference.in_sequence:.0%}")
    codes = Counter(warnings).most_common()
    by_code = f" ({', '.join(f'{code} {n}' for code, n in codes)})" if codes else ""
    report.append(
        f"parse with this entry: {counts.get('records', 0)} records, {len(warnings)} "
        f"warnings{by_code}"
    )
    return report


def infer_entry(
    path: Path,
    game: str | None = None,
    document: str | None = None,
    limits: ParseLimits | None = None,
) -> SchemeEntry:
    """The registry entry for the numbered rules document at `path`, checked by parsing the
    file with it."""
    rendition = SUFFIXES.get(path.suffix.lower())
    if rendition not in READABLE:
        raise UsageError(
            f"{path}: scheme reads a PDF (.pdf), a text file (.txt), a Markdown page (.md) "
            "or an HTML page (.html)"
        )
    game = slugify(game or path.stem.split("_")[0])
    document = document or f"{game}/cr"
    if "/" not in document:
        raise UsageError(f"--document {document!r}: a document id is game/document, e.g. {game}/cr")
    data = read_document(path, Source.model_fields["max_bytes"].default)  # as `parse` reads
    request = ParseRequest(
        family="numbered", document=document, rendition=rendition, what=str(path)
    )
    inference = run_isolated(data, request, partial(infer_in_child, rendition), limits)
    key, where = manifest_key(path, data, game, document, rendition)
    source = build_source(inference, game, document, rendition, key)
    (entry,) = parse_registry(entry_toml(source), f"the entry inferred from {path}", NAMES)
    parsed = parse_file(path, "numbered", document=document, rendition=rendition, registry=[entry])
    counts = json.loads(parsed.json)["counts"]
    report = describe(inference, counts, [w.code.value for w in parsed.warnings])
    url = [
        "The publisher's https address of this file, stated by no file: write it in place of",
        "the placeholder and uncomment the line, then delete archive_only so `update` fetches",
        "it. Until then `import` and `update --mirror` read the file from an archive only.",
        f'url = "{PLACEHOLDER_URL}"',
    ]
    text = entry_toml(source, entry_comments(path, report, where), before={"primary": url})
    return SchemeEntry(text, report)


def entry_comments(path: Path, report: list[str], where: list[str]) -> list[str]:
    """What was inferred (the report) and what a person checks before using the entry."""
    return [
        f"Inferred by `rulescorpus scheme` from {path.name}.",
        "What it found:",
        *(f"  {line}" for line in report),
        "",
        "Check before use (docs/adding-a-game.md):",
        "- title, version and date: `rulescorpus parse FILE --family numbered --sources "
        "THIS.toml` prints them; each must be the document's own.",
        "- a warning in the parse above names a rule read wrong: fix the scheme, never the text.",
        "- url: commented out, a placeholder; see the comment above it.",
        *(f"- {line}" for line in where),
        "",
    ]
