"""FAQ web pages (`faq-html`): questions and answers found by CSS selectors -> Ruling records.

The registry entry's `options` are the selectors:

    question   CSS for each question element (required unless `text` is given)
    answer     CSS the answer blocks match; they are read from the siblings after the
               question up to the next question, card, section or heading. This one rule
               covers `<h3>` + `<p>`s, `<dt>` + `<dd>`, and `Q:` / `A:` paragraphs.
    text       CSS for rulings that are a single block (no question), instead of the two above
    card       CSS for the element naming the card the following questions concern
    section    CSS for the element naming the section the following questions sit in
    scope      CSS for the container(s) to search (default: the whole page)
    card_link  regex with one group: the card id inside a link's href (default /card/(\\w+))
    version    CSS for the element stating the page's version or date

Ids and plain text follow the NetrunnerDB rulings: a hash of the normalised
question and answer, so a ruling keeps its id wherever and however it is posted.
"""

from __future__ import annotations

import re

from pipeline.errors import ParseError
from pipeline.models.content import FaqPage, HtmlText, QAItem
from pipeline.models.records import (
    Document,
    Location,
    ParseOptions,
    ParserInfo,
    ParseWarning,
    Ruling,
)
from pipeline.models.records import WarningCode as W
from pipeline.parse.common import slugify, warn
from pipeline.parse.rulings import add_ruling, ruling_id

FAMILY = "faq-html"
PARSER_VERSION = "1.0"

_Q_LABEL = re.compile(r"^\s*(?:Q|Question)\s*[:.]\s*", re.I)
_A_LABEL = re.compile(r"^\s*(?:A|Answer)\s*[:.]\s*", re.I)
_INLINE_ANSWER = re.compile(r"^(.*?)\n\s*(?:A|Answer)\s*:\s*(.+)$", re.S | re.I)
_VERSION_IN_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}|\bv?\d+(?:\.\d+)+\b")


def card_references(texts: list[HtmlText | None], pattern: str) -> list[str]:
    found = (re.search(pattern, href) for text in texts if text for href in text.links)
    return list(dict.fromkeys(match.group(1) for match in found if match))


def split_labels(item: QAItem) -> tuple[str, str | None]:
    """Question and answer without their `Q:` / `A:` labels; an answer written in the
    question's own paragraph (`<p>Q: ...<br>A: ...</p>`) is split off."""
    question = item.question.text
    answer = item.answer.text if item.answer else None
    if answer is None and (inline := _INLINE_ANSWER.match(question)):
        question, answer = inline.group(1), inline.group(2)
    question = _Q_LABEL.sub("", question).strip()
    answer = _A_LABEL.sub("", answer).strip() if answer is not None else None
    return question, answer or None


def build_ruling(item: QAItem, *, is_text: bool, card_link: str) -> Ruling:
    question, answer = split_labels(item)
    cards: list[str] = []
    titles: list[str] = []
    if item.card and item.card.text:
        cards = card_references([item.card], card_link)[:1] or [slugify(item.card.text)]
        titles = [item.card.text]
    text = question if is_text else None
    question_or_none = None if is_text else question
    return Ruling(
        id=ruling_id(question_or_none, answer, text, None),
        cards=cards,
        card_titles=titles,
        question=question_or_none,
        answer=answer,
        text=text,
        card_references=card_references([item.question, item.answer], card_link),
        section=item.section.text if item.section else None,
        location=Location(line=item.question.line) if item.question.line else None,
    )


def parse(page: FaqPage, notes: dict[str, int], options: ParseOptions) -> Document:
    """Rulings of one FAQ page (read by extract.html.read_faq_page with the same selectors,
    which the page carries).

    A page whose selectors match nothing is a ParseError, never an empty document."""
    document, version = options.document, options.version
    selectors = page.selectors
    what = f"{document} (faq-html)"
    is_text = "text" in selectors
    shown = ", ".join(f"{k}={v!r}" for k, v in sorted(selectors.items()))
    if not page.items:
        problem = f"the selectors match nothing on this page ({shown}); the page layout changed"
        raise ParseError(what, problem + " or the registry entry is wrong")
    warnings: list[ParseWarning] = []
    card_link = selectors.get("card_link", r"/card/(\w+)")
    rulings: dict[str, Ruling] = {}
    for item in page.items:
        ruling = build_ruling(item, is_text=is_text, card_link=card_link)
        if not (ruling.question or ruling.text):
            message = "a question element has no text"
            warnings.append(warn(W.EMPTY_QUESTION, message, ruling.location))
            continue
        if not is_text and ruling.answer is None:
            message = f"no answer after question {ruling.question!r}"
            warnings.append(warn(W.NO_ANSWER, message, ruling.location))
        add_ruling(rulings, ruling)
    records = list(rulings.values())
    if not is_text and all(r.answer is None for r in records):
        raise ParseError(what, f"no question has an answer ({shown}); check the answer selector")
    if version is None and page.version_text is not None:
        found = _VERSION_IN_TEXT.search(page.version_text)
        version = found.group(0) if found else page.version_text
    if version is None:
        message = "the page states no version or date (add a version selector or pass the version)"
        warnings.append(warn(W.NO_VERSION, message))
    counts = {
        "rulings": len(records),
        "cards": len({c for r in records for c in r.cards}),
        "multi_card_rulings": sum(1 for r in records if len(r.cards) > 1),
        "sections": len({r.section for r in records if r.section}),
    }
    return Document(
        game=document.split("/")[0], document=document, title=page.title, version=version,
        parser=ParserInfo(family=FAMILY, version=PARSER_VERSION), counts=counts,
        warnings=warnings, rulings=records,
    )  # fmt: skip
