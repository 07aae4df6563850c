"""A shown record as the text a person reads: the one formatter of `show`, from its JSON.

Plain standard library on purpose: `show` answers in the time Python takes to start
(see `cli.quick`), so neither this module nor what it imports may load the models,
rich or typer. It formats the dict `show --json` prints, whichever path built it.
"""

from __future__ import annotations

import os
import textwrap
from typing import Any

from pipeline.errors import NAME_LENGTH, shorten


def _columns() -> int:
    """The terminal's width (COLUMNS first), 100 when there is none."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(1).columns
    except OSError:
        return 100


def _wrap(text: str, indent: int, width: int) -> list[str]:
    """Wrapped lines keep the indentation of their first line; line breaks are kept."""
    pad = " " * indent
    out: list[str] = []
    for line in text.split("\n"):
        lead = " " * (len(line) - len(line.lstrip(" ")))
        out += textwrap.wrap(
            line.lstrip(" "),
            width=width,
            initial_indent=pad + lead,
            subsequent_indent=pad + lead,
            break_on_hyphens=False,
        ) or [pad.rstrip()]
    return out


def record_lines(record: dict[str, Any]) -> list[str]:
    """A rule, glossary term or ruling as its heading line and the lines of its text."""
    if "term" in record:
        return [f"{record['id']}  {record['term']}", record["definition"]]
    if "card_titles" in record or "question" in record:
        titles, codes = record.get("card_titles") or [], record.get("cards") or []
        cards = ", ".join(f"{t} ({c})" for t, c in zip(titles, codes, strict=False))
        lines = [f"{record['id']}  cards: {cards or ', '.join(codes)}"]
        if record.get("question"):
            lines.append(f"Q: {record['question']}")
        if record.get("answer"):
            lines.append(f"A: {record['answer']}")
        if record.get("text"):
            lines.append(record["text"])
        origin = [*(record.get("sources") or [])]
        if record.get("attribution"):
            origin.append(record["attribution"])
        if origin:
            lines.append("ruling source: " + ", ".join(origin))
        if record.get("updated"):
            verified = ", verified by the rules team" if record.get("verified") else ""
            lines.append(f"updated {record['updated']}{verified}")
        return lines
    head = f"{record['id']}  {record['title']}" if record.get("title") else record["id"]
    lines = [head]
    if record.get("text"):
        lines.append(record["text"])
    lines += [f"  Example: {e}" for e in record.get("examples") or []]
    lines += [f"  Note: {n}" for n in record.get("notes") or []]
    lines += [f"  • {b}" for b in record.get("bullets") or []]
    return lines


def format_shown(data: dict[str, Any], width: int | None = None) -> str:
    """The text of `show` for the dict of `show --json` (asked, renumbered_from, record,
    children, provenance)."""
    width = width or max(60, min(_columns(), 120))
    record, p = data["record"], data["provenance"]
    out: list[str] = []
    if data.get("renumbered_from"):
        # When it happened, not the version shown (the alias table spans many).
        when = data.get("renumbered_in") or p["version"]
        out += [
            f"{data['renumbered_from']} was renumbered to {record['id']} in {p['document']} {when}",
            "",
        ]
    for line in record_lines(record):
        out += _wrap(line, 0, width)
    for child in data.get("children") or []:
        out.append("")
        for line in record_lines(child):
            out += _wrap(line, 2, width)
    out += ["", "Source"]
    title = p.get("title") or p["document"]
    out.append(f"  Document:  {title} ({p['document']}), version {p['version']}")
    if p.get("published") or p.get("effective"):
        published, effective = p.get("published") or "-", p.get("effective") or "-"
        out.append(f"  Published: {published}   Effective: {effective}")
    out.append(f"  Citation:  {record['id']}")
    out.append(f"  URL:       {p['url'] or 'not known (read from an archive only)'}")
    out.append(f"  SHA-256:   {p['sha256']} ({p['bytes']} bytes, {p['rendition']})")
    for rendition in p.get("renditions") or []:
        if rendition["sha256"] != p["sha256"]:
            out.append(
                f"  Also:      {rendition['rendition']} {rendition['url']} sha256 "
                f"{rendition['sha256']}"
            )
    for fetch in p.get("fetches") or []:
        out.append(f"  Retrieved: {fetch.get('retrieved')} from {fetch.get('final_url')}")
    parser = p.get("parser") or {}
    out.append(f"  Parser:    {parser.get('family')} {parser.get('version')}")
    check = (
        f"download {p['url']} and run `sha256sum` on the file; if it is still version "
        f"{p['version']} it prints {p['sha256']}."
        if p["url"]
        else "no publisher URL is known for these bytes; `sha256sum` of the file retrieved "
        f"above prints {p['sha256']}."
    )
    out += _wrap(f"Check it yourself: {check}", 2, width)
    return shorten("\n".join(out), None) + "\n"


def format_history(citation: str, document: str, steps: list[Any], width: int | None = None) -> str:
    """The text of `history`: each version, the record's id there and how it changed, and
    its text where it differs from the version before (`lookup.lineage.HistoryStep`s)."""
    width = width or max(60, min(_columns(), 120))
    asked = shorten(citation, NAME_LENGTH, one_line=True)
    out = [f"history of {asked} in {shorten(document, NAME_LENGTH, one_line=True)}"]
    previous: str | None = None
    for step in steps:
        label = ", ".join(step.citations) or step.citation or "(absent)"
        out += ["", f"{step.version}  {label}  [{step.change}]"]
        if step.text is None:
            continue
        out += ["  (text unchanged)"] if step.text == previous else _wrap(step.text, 2, width)
        previous = step.text
    return shorten("\n".join(out), None) + "\n"


def format_hits(query: str, hits: list[Any], width: int | None = None) -> str:
    """The text of `search`: each hit's citation, heading, where it is, and its snippet
    (`lookup.search.Hit`s, best first)."""
    width = width or max(60, min(_columns(), 120))
    if not hits:
        return f"no record holds every word of {shorten(repr(query), NAME_LENGTH)}\n"
    out: list[str] = []
    for hit in hits:
        heading = f"  {hit.heading}" if hit.heading else ""
        out.append(f"{hit.citation}{heading}  ({hit.document} {hit.version}, {hit.kind})")
        out += _wrap(hit.snippet, 2, width)
    return shorten("\n".join(out), None) + "\n"


def _range(word: str, first: Any, last: Any) -> str:
    """`line 12`, `lines 12–14`."""
    if last is None or last == first:
        return f"{word} {first}"
    return f"{word}s {first}\u2013{last}"


def location_text(location: dict[str, Any]) -> str:
    """A record's span as a person reads it: `lines 1530–1534, page 37`, `line 4062`,
    `lines 88–93, pages 3–4`; `not recorded` without a line."""
    if location.get("line") is None:
        return "not recorded"
    out = _range("line", location["line"], location.get("end_line"))
    if location.get("page") is not None:
        out += ", " + _range("page", location["page"], location.get("end_page"))
    return out


def offsets_text(location: dict[str, Any]) -> str:
    start, end = location.get("char_start"), location.get("char_end")
    if start is None or end is None:
        return "not recorded (the family's records are not read from lines)"
    where = "the extracted text (its lines joined with \\n; 0-based, end excluded)"
    return f"{start}\u2013{end} of {where}"


def provenance_lines(p: dict[str, Any]) -> list[tuple[str, str]]:
    """The `show --provenance` block, label by label, from `record_provenance`'s dict."""
    engine = " ".join(x for x in (p.get("engine"), p.get("engine_version")) if x)
    location = p.get("location") or {}
    return [
        ("Document", f"{p['title']} ({p['document']}), version {p['version']}"),
        ("Source URL", p["url"] or "none known"),
        ("SHA-256", f"{p['sha256']} ({p['bytes']} bytes)"),
        ("Retrieved", f"{p['retrieved'] or 'not recorded'} from {p['retrieved_from'] or '-'}"),
        ("Rendition", p["rendition"] or "-"),
        ("Parser", f"{p['parser_family']} {p['parser_version']}"),
        ("Extraction", engine or "the document records no extraction engine"),
        ("Location", location_text(location)),
        ("Characters", offsets_text(location)),
        ("Record JSON", f"SHA-256 {p['record_sha256']} (canonical JSON of the record)"),
        ("Document JSON", f"SHA-256 {p['document_sha256']} (canonical JSON of the version)"),
    ]
