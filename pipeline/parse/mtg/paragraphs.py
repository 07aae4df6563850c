"""Extracted lines -> paragraphs (layout.Block), the unit the MTG parser reads.

The TXT rendition already has one paragraph per line (a blank line between
entries, an indented line for a rule's second paragraph: `layout.text_blocks`
marks both). The PDF rendition wraps paragraphs over several lines and pages;
`pdf_paragraphs` undoes that from the positions the PDF engine reports (either
engine: their lines are the same), so both renditions reach the parser alike.
"""

from __future__ import annotations

import re

from pipeline.models.content import Line
from pipeline.parse.numbered.layout import Block, drop_page_numbers, join_glued

# Lines that always begin a paragraph: a heading or glossary sense (`100. General`,
# `2. An activated...`), `Example:`, and a rule number (checked for order, below).
_HEADING_START = re.compile(r"^[0-9]{1,3}\.\s")
_RULE_START = re.compile(r"^([0-9]{3})\.([0-9]+)([a-z]?)\.?(?:\s|(?=[A-Z]))")
_SECTION_HEADING = re.compile(r"^([0-9]{3})\.\s")
# Paragraphs are separated by about two line pitches, wrapped lines by one.
_GAP_FACTOR = 1.5
# A rule's second paragraph starts further right than its wrapped lines, which
# hang one indent step (about 15 pt) right of the rule number.
_INDENT_STEP = 6.0
_HANGING = 15.5
# Headings sit at the margin (contents entries one step in); wrapped rule lines two steps in.
_HEADING_LIMIT = 20.0
_TERMINAL = (".", ")", "\u201d", '"', ":", "!", "?", "]")

RuleKey = tuple[int, int, str]


def _starts_rule_after_page_break(
    key: RuleKey, last: RuleKey, previous_text: str, letters: str
) -> bool:
    """Whether a rule number at the top of a page starts a rule (or is a wrapped citation).

    A new section always opens with its heading, so a rule continues the
    current section, and a subrule the current rule. The very next number
    (`100.2` -> `100.2a` -> `100.2b`) is always a start; a later one (the
    publisher does skip letters) only if the previous page ended a sentence.
    """
    section, rule, letter = key
    last_section, last_rule, last_letter = last
    if letter:
        index = letters.find(last_letter) if last_letter else -1
        forward = rule == last_rule and letter > last_letter
        successor = letter == letters[index + 1 : index + 2]
    else:
        forward, successor = rule > last_rule, rule == last_rule + 1
    return section == last_section and forward and (successor or previous_text.endswith(_TERMINAL))


def pdf_paragraphs(lines: list[Line], letters: str) -> list[Block]:
    """Rejoin the PDF's wrapped lines into the paragraphs the TXT rendition has.

    Within a page, a vertical gap of more than 1.5 line heights starts a
    paragraph; so does `Example:`, a heading, and a line indented beyond the
    paragraph's wrapped lines (a rule's second paragraph). Across a page break
    there is no gap to measure: a line then starts a paragraph only if it is
    bold at the margin (a glossary term, a heading), a heading, `Example:`, or
    a rule number that can follow the last one (see
    `_starts_rule_after_page_break`); a wrapped line that happens to begin
    with a cited number (`601.2b and ...`) stays a continuation.
    """
    body = drop_page_numbers(lines)
    margin = min((ln.x0 or 0.0 for ln in body), default=0.0) + 3.0
    out: list[Block] = []
    prev: Line | None = None
    first_x0 = 0.0
    wrap_x0: float | None = None  # where the open paragraph's wrapped lines start
    last_key: RuleKey = (0, 0, "")
    for line in body:
        text = line.text.strip()
        x0, size = line.x0 or 0.0, line.size or 10.0
        number = _RULE_START.match(text)
        key = (int(number.group(1)), int(number.group(2)), number.group(3)) if number else None
        # Headings and glossary senses sit left of every wrapped rule line
        # (`See rule\n704. See also` is a wrap, not section 704).
        heading = bool(_HEADING_START.match(text)) and x0 < margin + _HEADING_LIMIT
        special = text.startswith("Example:") or heading
        # Glossary terms and credit labels are bold at the left margin; the
        # regular text under a bold term (the open paragraph's only line) is its definition.
        at_margin = x0 < margin and not text.startswith("Example:")
        bold_start = line.bold and at_margin
        if prev is None:
            new, after_gap, indented = True, True, False
        else:
            limit = wrap_x0 if wrap_x0 is not None else first_x0 + _HANGING
            indented = x0 > limit + _INDENT_STEP
            after_term = prev.bold and not line.bold and at_margin and wrap_x0 is None
            if prev.page == line.page:
                after_gap = (line.top or 0.0) - (prev.top or 0.0) > _GAP_FACTOR * size
                in_order = False
            else:
                after_gap = bold_start
                in_order = key is not None and _starts_rule_after_page_break(
                    key, last_key, out[-1].text, letters
                )
            new = after_gap or special or indented or bold_start or after_term or in_order
        if new:
            indented = indented and not (after_gap or special or key)
            out.append(Block(text, line.line, line.page, after_gap=after_gap, indented=indented))
            first_x0, wrap_x0 = x0, None
            if key is not None:
                last_key = key
            elif heading and (section := _SECTION_HEADING.match(text)):
                last_key = (int(section.group(1)), 0, "")
        else:
            out[-1].text = join_glued(out[-1].text, text)
            out[-1].end_line, out[-1].end_page = line.line, line.page
            if wrap_x0 is None:
                wrap_x0 = x0
        prev = line
    return out
