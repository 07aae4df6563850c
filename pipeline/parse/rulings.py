"""NetrunnerDB rulings (`nrdb-rulings`): one JSON file per card -> Ruling records.

Input is the member files of the netrunner-cards-json archive: `v2/rulings/<card>.json`
(a list of {card_id, date_update, nsg_rules_team_verified, question+answer | text_ruling})
and `v2/ruling_sources.json` (the named sources). Paths may keep a leading archive folder.

A ruling's id is a hash of its normalised plain text, so a snapshot that only
reformats the JSON (key order, link style, whitespace) keeps every id; the same
question filed under several cards is one ruling attached to all of them.

This module also owns what the other ruling families (faq-html, fandom-wiki) reuse:
the ruling id (`ruling_id`) and the merge of a ruling filed twice (`add_ruling`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import ParseError
from pipeline.models.records import Document, ParseOptions, ParserInfo, ParseWarning, Ruling
from pipeline.models.records import WarningCode as W
from pipeline.parse.common import warn
from pipeline.parse.numbered.layout import runs

FAMILY = "nrdb-rulings"
PARSER_VERSION = "1.0"

_RULING_FILE = re.compile(r"(?:^|/)v2/rulings/([^/]+)\.json$")
_SOURCES_FILE = re.compile(r"(?:^|/)v2/ruling_sources\.json$")
_TEXT_KEYS = {"question": "question", "answer": "answer", "text": "text_ruling"}  # field: key
_KNOWN_KEYS = {"card_id", "date_update", "nsg_rules_team_verified", *_TEXT_KEYS.values()}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
# A link's destination may itself hold balanced parentheses (and, in the real data,
# a whole nested Markdown link: `[Cezve]([Cezve](/en/card/33017))`).
_LINK = re.compile(
    r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(((?:[^()\s]|\((?:[^()\s])*\))*)(?:\s+\"[^\"]*\")?\)"
)
_CARD_TARGET = re.compile(r"(?:^|/card/)(\d{5})(?=$|[/?#)])")
_ICON = re.compile(r"<span\s+class=\"icon icon-([a-z-]+)\"\s*>\s*</span>")
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.S)
_EMPH = re.compile(
    r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])", re.S
)
_HEADING = re.compile(r"^ {0,3}#{1,6}(.*?)#*\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[*+-]|\d+[.)])\s+(.*)$")
_UNLINKED = re.compile(r"\[([^\[\]]+)\](?!\()")
_BRACKETED = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\](?:\(([^)\s]*)\))?")


def ruling_id(*parts: str | None) -> str:
    """'ruling:' + 16 hex of SHA-256 over the plain-text parts, in order, normalised
    (whitespace collapsed, zero-width characters dropped, case kept).

    Parts are question, answer, text (and the attribution line when there is one);
    None and empty parts still hold their place so a question never hashes like a text.
    """
    joined = "\x1f".join(" ".join(_ZERO_WIDTH.sub("", p or "").split()) for p in parts)
    return "ruling:" + hashlib.sha256(joined.encode("utf-8")).hexdigest()[:16]


@dataclass
class Rendered:
    """Markdown rendered to the text a reader sees, plus what the links pointed at."""

    attribution: str | None
    text: str
    card_references: list[str] = field(default_factory=list)
    labels: list[tuple[str, str | None]] = field(default_factory=list)


def render_inline(md: str, refs: list[str]) -> str:
    """Links become their text (targets that are cards go to `refs`), icons `[credit]`,
    HTML tags and emphasis markers vanish, runs of spaces become one."""

    def link(match: re.Match[str]) -> str:
        card = _CARD_TARGET.search(match.group(2))
        if card and card.group(1) not in refs:
            refs.append(card.group(1))
        return match.group(1)

    text = _LINK.sub(link, md)
    text = _ICON.sub(lambda m: f"[{m.group(1)}]", text)
    text = _TAG.sub("", text)
    previous = None
    while previous != text:  # nested emphasis: *[**x**]*
        previous = text
        text = _STRONG.sub(r"\2", text)
        text = _EMPH.sub(lambda m: m.group(1) or m.group(2), text)
    return " ".join(text.split())


def render_markdown(md: str, *, leading_heading_is_attribution: bool = True) -> Rendered:
    """Plain text of a ruling's Markdown, as NetrunnerDB shows it.

    Paragraphs are separated by a blank line, list items by a newline (their
    markers dropped), soft line breaks become spaces. A heading on the first line
    (`####UFAQ [Michael Boggs]`) is the ruling's attribution, not its question.
    """
    text = _ZERO_WIDTH.sub("", md).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    attribution_md: str | None = None
    if leading_heading_is_attribution and lines and (head := _HEADING.match(lines[0])):
        attribution_md = head.group(1).strip()
        lines = lines[1:]
    refs: list[str] = []
    blocks: list[str] = []
    for blank, run in itertools.groupby(lines, lambda raw: not raw.strip()):
        if blank:
            continue
        block = list(run)
        # A list marker only counts at the start of a block or after another item: in
        # the real data "+ 4 for the token" is a wrapped sum inside italics, not a bullet.
        listed = _LIST_ITEM.match(block[0]) is not None
        starts = [
            _HEADING.match(raw) or (_LIST_ITEM.match(raw) if listed else None) for raw in block
        ]
        items = runs(zip(starts, block, strict=True), lambda line, _: line[0] is not None)
        texts = [" ".join((m.group(1) if m else raw).strip() for m, raw in item) for item in items]
        blocks.append("\n".join(r for text in texts if (r := render_inline(text, refs))))
    attribution = None
    labels: list[tuple[str, str | None]] = []
    if attribution_md is not None:
        attribution = render_inline(attribution_md, refs) or None
        labels = [(m.group(1), m.group(2)) for m in _BRACKETED.finditer(attribution_md)]
        labels.append((attribution or "", None))  # "####Official FAQ": the whole heading
    return Rendered(attribution, "\n\n".join(b for b in blocks if b), refs, labels)


@dataclass(frozen=True)
class RulingSource:
    id: str
    name: str
    url: str | None


def read_json_list(data: bytes, what: str, of: str) -> list[Any]:
    """A JSON list of `of`, or a ParseError naming the file."""
    try:
        raw = json.loads(data)
    except ValueError as exc:
        raise ParseError(what, f"not valid JSON: {exc}") from exc
    if not isinstance(raw, list):
        raise ParseError(what, f"expected a JSON list of {of}")
    return raw


def read_ruling_sources(data: bytes, *, what: str) -> list[RulingSource]:
    out = []
    for entry in read_json_list(data, what, "{id, name, url?}"):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise ParseError(what, f"source entry without an id: {entry!r}")
        out.append(RulingSource(entry["id"], str(entry.get("name", entry["id"])), entry.get("url")))
    return out


def _url_key(url: str) -> str:
    return re.sub(r"^https?://(www\.)?", "", url).split("#")[0].rstrip("/").lower()


def match_sources(labels: list[tuple[str, str | None]], sources: list[RulingSource]) -> list[str]:
    """Ids of the sources a ruling names, by bracketed name (`[Official FAQ]`) or link URL."""
    by_name = {s.name.lower(): s.id for s in sources}
    by_url = {_url_key(s.url): s.id for s in sources if s.url}
    found: list[str] = []
    for label, url in labels:
        name = label.strip().lower()
        hit = by_name.get(name) or (by_url.get(_url_key(url)) if url else None)
        if hit is None:  # "[Official FAQ, listed under Taurus' ruling]"
            hit = next((i for n, i in by_name.items() if name.startswith((n + ",", n + "/"))), None)
        if hit is not None and hit not in found:
            found.append(hit)
    return found


def _build_ruling(entry: dict[str, Any], card: str, sources: list[RulingSource]) -> Ruling:
    markdown = {f"{name}_md": entry.get(key) for name, key in _TEXT_KEYS.items()}
    refs: list[str] = []
    attribution = None
    labels: list[tuple[str, str | None]] = []
    plains: dict[str, str | None] = dict.fromkeys(_TEXT_KEYS)
    for key, md in zip(plains, markdown.values(), strict=True):
        if md is None:
            continue
        rendered = render_markdown(md, leading_heading_is_attribution=key != "answer")
        plains[key] = rendered.text
        attribution = attribution or rendered.attribution
        # bracketed labels that are not links (`... [Official FAQ]`) may name a source too
        labels += rendered.labels + [(m.group(1), None) for m in _UNLINKED.finditer(md)]
        refs += [r for r in rendered.card_references if r not in refs]
    return Ruling(
        id=ruling_id(*plains.values(), attribution), attribution=attribution, cards=[card],
        sources=match_sources(labels, sources), card_references=refs,
        updated=entry.get("date_update"), verified=entry.get("nsg_rules_team_verified"),
        **plains, **markdown,
    )  # fmt: skip


def _check_entry(path: str, stem: str, index: int, entry: Any) -> list[ParseWarning]:
    where = f"{path} entry {index + 1}"
    if not isinstance(entry, dict):
        raise ParseError(where, f"expected an object, got {type(entry).__name__}")
    problems = []
    if unknown := sorted(set(entry) - _KNOWN_KEYS):
        problems.append(warn(W.UNKNOWN_FIELD, f"{where} has fields {unknown} this parser ignores"))
    if (named := entry.get("card_id")) != stem:
        problems.append(warn(W.CARD_MISMATCH, f"{where} names card {named!r}, file is {stem!r}"))
    if entry.keys() & _TEXT_KEYS.values() not in ({"question", "answer"}, {"text_ruling"}):
        raise ParseError(where, "a ruling has either question and answer, or text_ruling")
    for key in _TEXT_KEYS.values():
        if key in entry and not (isinstance(entry[key], str) and entry[key].strip()):
            raise ParseError(where, f"{key} is empty or not a string")
    if not _DATE.fullmatch(str(date := entry.get("date_update", ""))):
        problems.append(warn(W.BAD_DATE, f"{where} date_update {date!r} is not YYYY-MM-DD"))
    if not isinstance(entry.get("nsg_rules_team_verified"), bool):
        problems.append(warn(W.BAD_VERIFIED, f"{where} nsg_rules_team_verified is not true/false"))
    return problems


def add_ruling(rulings: dict[str, Ruling], ruling: Ruling) -> None:
    """A ruling read, by id; the same ruling filed under another card is one record, with
    one more card.

    Copies may disagree on date or flag; the latest date wins and a ruling the
    rules team verified for any card is verified (its text is identical).
    """
    if (existing := rulings.get(ruling.id)) is None:
        rulings[ruling.id] = ruling
        return
    dates = [d for d in (existing.updated, ruling.updated) if d]
    flags = [f for f in (existing.verified, ruling.verified) if f is not None]
    rulings[ruling.id] = existing.model_copy(
        update={
            "cards": existing.cards + [c for c in ruling.cards if c not in existing.cards],
            "card_titles": existing.card_titles
            + [t for t in ruling.card_titles if t not in existing.card_titles],
            "updated": max(dates) if dates else None,
            "verified": any(flags) if flags else None,
            "sources": existing.sources + [s for s in ruling.sources if s not in existing.sources],
        }
    )


def parse(files: dict[str, bytes], notes: dict[str, int], options: ParseOptions) -> Document:
    """Rulings of one snapshot. `version` is the snapshot date the job knows (the archive
    states none); None gives a warning."""
    document, version = options.document, options.version
    warnings: list[ParseWarning] = []
    source_path = next((p for p in files if _SOURCES_FILE.search(p)), None)
    sources = read_ruling_sources(files[source_path], what=source_path) if source_path else []
    if source_path is None:
        warnings.append(warn(W.NO_SOURCES, "v2/ruling_sources.json is missing; sources unnamed"))
    rulings: dict[str, Ruling] = {}
    card_files = entries = zero_width = 0
    for path in sorted(files):
        if not (match := _RULING_FILE.search(path)):
            continue
        card_files += 1
        card = match.group(1)
        for index, entry in enumerate(read_json_list(files[path], path, "rulings")):
            warnings += _check_entry(path, card, index, entry)
            entries += 1
            texts = [v for v in entry.values() if isinstance(v, str)]
            zero_width += sum(len(_ZERO_WIDTH.findall(v)) for v in texts)
            add_ruling(rulings, _build_ruling(entry, card, sources))
    if not rulings:
        raise ParseError(
            "nrdb-rulings",
            "no v2/rulings/*.json file with a ruling in the input "
            f"({len(files)} files); is this the right archive?",
        )
    if version is None:
        message = "the archive states no snapshot date; pass the snapshot date as the version"
        warnings.append(warn(W.NO_VERSION, message))
    records = list(rulings.values())
    cards = {c for r in records for c in r.cards}
    counts = {
        "card_files": card_files, "entries": entries, "rulings": len(records), "cards": len(cards),
        "multi_card_rulings": sum(1 for r in records if len(r.cards) > 1),
        "question_rulings": sum(1 for r in records if r.question is not None),
        "text_rulings": sum(1 for r in records if r.text is not None),
        "verified_rulings": sum(1 for r in records if r.verified),
    }  # fmt: skip
    return Document(
        game=document.split("/")[0], document=document, title="NetrunnerDB card rulings",
        version=version, parser=ParserInfo(family=FAMILY, version=PARSER_VERSION),
        counts=counts, warnings=warnings, rulings=records,
        extraction={"zero_width_removed": zero_width} if zero_width else {},
    )  # fmt: skip
