"""`rulescorpus scheme FILE`: a registry entry for a numbered rules document, inferred from it.

The file's lines are extracted as `parse` extracts them, the scheme is inferred
(`parse.scheme_inference`), the entry is written as TOML and read back through
the registry loader, and the file is parsed with that very entry the way
`rulescorpus parse FILE --family numbered --sources ENTRY` parses it: what the
report counts is what pasting the entry gives.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import ParseError, SchemeError, UsageError
from pipeline.extract.html_lines import extract_html_lines
from pipeline.extract.markdown import extract_markdown_lines
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.extract.text import extract_text_lines
from pipeline.models.content import Line
from pipeline.models.sources import Source
from pipeline.parse.common import slugify
from pipeline.parse.scheme_inference import Inference, infer_scheme
from pipeline.registry.entry_toml import entry_toml
from pipeline.registry.loader import parse_registry
from pipeline.runner.family_names import NAMES
from pipeline.runner.local_file import SUFFIXES, parse_file

READABLE = ("txt", "pdf", "md", "html")
SHOWN_FURNITURE = 5


@dataclass(frozen=True)
class SchemeEntry:
    """The entry's TOML (stdout) and what was found (stderr)."""

    toml: str
    report: list[str]


def read_lines(path: Path, rendition: str) -> list[Line]:
    """The file's lines as `parse` extracts them; a file that cannot be read, or is no PDF,
    is named with what is wrong."""
    limit = Source.model_fields["max_bytes"].default  # what `parse` reads at most
    try:
        if path.stat().st_size > limit:
            raise UsageError(
                f"{path}: over {limit} bytes, more than any rules document parse reads"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read it ({exc.strerror})") from exc
    try:
        if rendition == "pdf":
            return extract_pdf_lines(data, what=str(path)).lines
        if rendition == "md":
            return extract_markdown_lines(data, what=str(path))
        if rendition == "html":
            return extract_html_lines(data, what=str(path))
        return extract_text_lines(data, what=str(path))
    except ParseError as exc:
        problem = exc.problem.rstrip(".")
        raise SchemeError(str(path), f"{problem}; not a numbered rules document") from exc


def build_source(inference: Inference, game: str, document: str, rendition: str) -> Source:
    scheme = inference.scheme
    return Source(
        id=f"{game}-{document.split('/')[-1]}-{rendition}".replace("/", "-"),
        game=game,
        document=document,
        title=scheme.title or document,
        family="numbered",
        rendition=rendition,
        primary=True,
        # No URL is known from a file: an archive source until the publisher's URL is set.
        options={"archive_only": "true"},
        scheme=scheme,
    )


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


def infer_entry(path: Path, game: str | None = None, document: str | None = None) -> SchemeEntry:
    """The registry entry for the numbered rules document at `path`, checked by parsing the
    file with it."""
    rendition = SUFFIXES.get(path.suffix.lower())
    if rendition not in READABLE:
        raise UsageError(
            f"{path}: scheme reads a PDF (.pdf), a text file (.txt), a Markdown page (.md) "
            "or an HTML page (.html)"
        )
    lines = read_lines(path, rendition)
    game = slugify(game or path.stem.split("_")[0])
    document = document or f"{game}/cr"
    if "/" not in document:
        raise UsageError(f"--document {document!r}: a document id is game/document, e.g. {game}/cr")
    try:
        inference = infer_scheme(lines, rendition, str(path))
    except ParseError as exc:
        raise SchemeError(exc.what, exc.problem) from exc
    source = build_source(inference, game, document, rendition)
    comments = [
        f"Inferred by `rulescorpus scheme` from {path.name}; review it, then set the url.",
    ]
    text = entry_toml(source, comments)
    (entry,) = parse_registry(text, f"the entry inferred from {path}", NAMES)
    parsed = parse_file(path, "numbered", document=document, rendition=rendition, registry=[entry])
    counts = json.loads(parsed.json)["counts"]
    return SchemeEntry(text, describe(inference, counts, [w.code.value for w in parsed.warnings]))
