"""The inline markup of Null Signal Games' YAML rules source, rendered as a reader sees it.

This follows the generator (github.com/rubenpieters/netrunner-comprehensive-rules,
`rules_doc_generator/input/yaml/parser.py` and `model/text.py`) step for step:

1. the bracketed symbols `[c]`, `[click]`, `[recurring]`, `[link]`, `[MU]`, `[sub]`,
   `[trash]`, `[interrupt]`, `[trashcost]` become images (`{img:credit}` ...);
2. the text is split on every `{` and `}` (`re.split('[{}]')`), and each piece is
   classified by its prefix: `ref:` (ids lowercased, capitalised when the first
   letter is upper case), `ref/<combiner>:`, `img:`, `term:`, `subtype:`, `card:`,
   `product:`, `link:` (text and target lowercased), `curly:` (a literal `{x}`), `n`
   and `/n` (start and end of new text, invisible), anything else plain text;
3. a reference prints as `rule 1.2.3` / `Section 4.5` (one id) or `rules 1.2.3, 1.2.4
   and 1.2.5` (several; `through`, `or` ... as the combiner says), with the type
   of the first id.

What a reader sees is then: references as printed, game terms, subtypes, card and
product names as their text (card names are also kept as references), links as
their text, and each symbol as the generator's own plaintext form (`[c]`, `[click]`,
`[MU]`: its JSON output and the plaintext table of 22.12 and 25.04). Whitespace is
folded within a line; a line break separates paragraphs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# The generator's replacements, in its order ([trash] before [trashcost] is harmless:
# "[trashcost]" does not contain "[trash]").
SYMBOLS: tuple[tuple[str, str], ...] = (
    ("[c]", "credit"),
    ("[click]", "click"),
    ("[recurring]", "recurring"),
    ("[link]", "link"),
    ("[MU]", "mu"),
    ("[sub]", "sub"),
    ("[trash]", "trash"),
    ("[interrupt]", "interrupt"),
    ("[trashcost]", "trashcost"),
)
# Image name -> the plaintext the generator writes for it (its JSON output).
ICON_TEXT: dict[str, str] = {name: token for token, name in SYMBOLS}
_KNOWN_PREFIXES = (
    "ref:",
    "ref/",
    "img:",
    "term:",
    "subtype:",
    "card:",
    "product:",
    "link:",
    "curly:",
)


@dataclass(frozen=True)
class RefInfo:
    """What the generator's reference map holds for one key: printed number and type."""

    number: str
    type: str  # section, rule or step


@dataclass
class Rendered:
    text: str
    references: list[str] = field(default_factory=list)  # record ids, in order, unique
    cards: list[str] = field(default_factory=list)
    new_text: bool = False  # {n}...{/n} marks part of the text as new in this version
    unknown_refs: list[str] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (code, detail)


def fold_space(text: str) -> str:
    """Runs of spaces folded within each line; empty lines dropped; lines joined by '\\n'."""
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def record_id(number: str) -> str:
    return f"cr:{number}"


def render(source: str, refs: dict[str, RefInfo]) -> Rendered:
    """Plain text of one YAML text field, its resolved references and the cards it names."""
    text = source.rstrip()  # the generator strips trailing whitespace of every field
    for token, name in SYMBOLS:
        text = text.replace(token, "{img:" + name + "}")
    out = Rendered(text="")
    balanced = _balanced(text)
    if not balanced:
        # The generator still splits on every brace; what it prints is what we print, but
        # the source is malformed, so it is a problem either way.
        out.problems.append(("bad-markup", f"braces do not pair up in {source!r}"))
    pieces: list[str] = []
    for index, piece in enumerate(re.split(r"[{}]", text)):
        in_braces = index % 2 == 1
        if (
            balanced
            and not in_braces
            and (piece.startswith(_KNOWN_PREFIXES) or piece in ("n", "/n"))
        ):
            # The generator classifies by prefix alone: plain text that looks like markup
            # would be read as markup, so it is never let through silently.
            out.problems.append(("bad-markup", f"plain text {piece!r} reads as markup"))
        pieces.append(_render_piece(piece, in_braces and balanced, refs, out))
    out.text = fold_space("".join(pieces))
    return out


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        if char in "{}":
            depth += 1 if char == "{" else -1
            if depth not in (0, 1):
                return False
    return depth == 0


def _render_piece(piece: str, in_braces: bool, refs: dict[str, RefInfo], out: Rendered) -> str:
    if piece.startswith("ref:"):
        keys = piece[4:].lower().split(",")
        capitalize = piece[4:5].isupper()
        return _render_ref(keys, capitalize, "and", refs, out)
    if piece.startswith("ref/"):
        combiner, *keys = re.split(r":|,", piece[4:].lower())
        # The generator tests the first id for upper case after lowercasing it: never.
        return _render_ref(keys, False, combiner, refs, out)
    if piece.startswith("img:"):
        name = piece[4:]
        if name not in ICON_TEXT:
            out.problems.append(("bad-markup", f"image {name!r} has no plaintext form"))
        return ICON_TEXT.get(name, f"[{name}]")
    for prefix in ("term:", "subtype:", "product:"):
        if piece.startswith(prefix):
            return piece[len(prefix) :]
    if piece.startswith("card:"):
        name = " ".join(piece[5:].split())  # `{card: Hedge Fund}` names Hedge Fund
        if name and name not in out.cards:
            out.cards.append(name)
        return piece[5:]
    if piece.startswith("link:"):
        return piece[5:].lower().split("|")[0]
    if piece.startswith("curly:"):
        return "{" + piece[6:] + "}"
    if piece in ("n", "/n"):
        out.new_text = True
        return ""
    if in_braces:
        # Not markup the generator knows: it prints the bare text without its braces.
        out.problems.append(("bad-markup", "{" + piece + "}"))
    return piece


def _render_ref(
    keys: list[str], capitalize: bool, combiner: str, refs: dict[str, RefInfo], out: Rendered
) -> str:
    infos: list[RefInfo] = []
    for key in keys:
        info = refs.get(key)
        if info is None:
            out.unknown_refs.append(key)
            continue
        infos.append(info)
        ident = record_id(info.number)
        if ident not in out.references:
            out.references.append(ident)
    if len(infos) != len(keys) or not infos:
        # The generator stops here ("id does not exist"); the reader would see nothing.
        return "UNKNOWNREF(" + ",".join(keys) + ")"
    kind = infos[0].type.capitalize() if capitalize else infos[0].type
    if len(infos) == 1:
        return f"{kind} {infos[0].number}"
    numbers = [i.number for i in infos]
    return f"{kind}s " + f" {combiner} ".join([", ".join(numbers[:-1]), numbers[-1]])
