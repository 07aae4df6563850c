"""Defects in Null Signal Games' YAML rules source, reviewed by a person.

Whatever the generator would not print, or would print other than its author meant,
is a warning (pipeline.parse.nsg.tree, pipeline.parse.nsg.markup). Once a maintainer
has read the YAML and confirmed the defect is in the publisher's source, it is listed
here with the reason: it is then recorded in `Document.publisher_errata` instead of
warned, so a clean parse still means zero warnings and nothing is hidden. Entries
are matched by problem code, symbolic key and a piece of the detail, so a defect
that survives into a later release is recognised there too; a test fails when a
listed defect no longer occurs in any bundle.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Defect:
    code: str
    key: str
    contains: str  # a piece of the problem's detail
    cites: str  # what the erratum names (the offending piece of the source)
    reason: str


KNOWN_DEFECTS: tuple[Defect, ...] = (
    Defect(
        "unknown-field",
        "rule_candidates_already_accessed",
        "'The Corp is playing {card:Gagarin Deep Space'",
        "examples[1].text",
        "22.12 and 25.04: the second example's text is not indented under `text: |-`, so "
        "YAML reads it as a key of its own ('The Corp is playing {card:Gagarin Deep Space') "
        "and the example's text is empty; the generator prints 'Example:' with nothing "
        "after it, so no example is recorded (fixed in 26.03)",
    ),
    Defect(
        "unknown-field",
        "rule_memory_limit",
        "'rules'",
        "rules: rule_memory_unused_mu",
        "25.04 onwards: rule_memory_unused_mu (the definition of unused and full [MU]) is "
        "listed under a `rule`, and the generator reads `rules` only under a `subsection`, "
        "so it is not printed and has no number",
    ),
    Defect(
        "unknown-field",
        "rule_alternate_payment",
        "'new' holds content",
        "new: examples",
        "25.04: the example about Biawak is indented under `new:` instead of beside it, so "
        "the generator reads only the new flag and prints no example (fixed in 26.03)",
    ),
    Defect(
        "bad-markup",
        "rule_once_per_turn_flag",
        "{c}",
        "{c}",
        "25.04: 'gain 1{c}' in an example, where the credit symbol is '[c]'; the generator "
        "prints the bare letter ('gain 1c')",
    ),
    Defect(
        "bad-markup",
        "rule_instruction_requirements_past_state",
        "{c}",
        "{c}",
        "25.04: 'gain 2{c}' in an example, where the credit symbol is '[c]'; the generator "
        "prints the bare letter ('gain 2c')",
    ),
    Defect(
        "bad-markup",
        "rule_subroutines_static_ability_decrease",
        "{card:{card:Ashigaru}}",
        "{card:{card:Ashigaru}}",
        "22.12 and 25.04: a card tag nested in a card tag; the generator splits on every "
        "brace, so it still prints 'Ashigaru' as a card name (fixed in 26.03)",
    ),
)


def known_defect(code: str, key: str | None, detail: str) -> Defect | None:
    """The reviewed entry for this problem, when it is a known defect of the source."""
    for defect in KNOWN_DEFECTS:
        if defect.code == code and defect.key == key and defect.contains in detail:
            return defect
    return None
