"""Documents in styles the project had not read, made here: `rulescorpus scheme` writes
their entry and `rulescorpus parse` reads them with it, no edit. Every rule each holds is
read, or named by an `unaccounted-number` warning: none is lost in silence.

- a Word-made text whose numbers sometimes lose their dot (`1.1.2 Organizers …` among
  `1.1.1.` and `1.1.3.`);
- a text export that runs rules into the line before, after a heading
  (`1.1. Number of Players 1.1.1. This game …`) or after a sentence's end.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.support.helpers import scheme_then_parse as scheme_and_parse

runner = CliRunner()

WORD_DOTS = """\
Harbor Lights Tournament Rules
Effective June 2, 2025

1. General
1.1. Scope
1.1.1. These rules apply to every sanctioned Harbor Lights event.
1.1.2 Organizers may add rules of their own when they announce them in advance.
1.1.3. Players are expected to know these rules.
1.2. Roles
1.2.1. A judge answers rules questions and fixes game states.
1.2.2. A scorekeeper records the results of each round.
1.2.3 An organizer is responsible for the venue and the schedule.
2. Decks
2.1. Construction
2.1.1. A deck holds exactly fifty cards.
2.1.2. No more than three copies of a card may be in a deck.
2.1.3 Sideboards are not used.
2.2. Registration
2.2.1. Every player registers a deck list before the first round.
2.2.2. A deck list that does not match the deck is a penalty, as 2.2.1 says.
3. Matches
3.1. Structure
3.1.1. A match is the best of three games.
3.1.2. Each round lasts fifty minutes.
3.1.3 At the end of the round, the active player finishes their turn.
"""

RUN_IN = """\
Moonlit Court Comprehensive Rules
ver. 1.4
1. Game Overview
1.1. Number of Players 1.1.1. This game is played by two players.
1.1.2. Games of three or more players are not covered by these rules. 1.2. Winning the \
Game 1.2.1. A player whose life reaches 0 loses the game.
1.2.2. A player who must draw from an empty deck loses the game. 1.2.3. If both players \
lose at once, the game is a draw.
2. Cards
2.1. Card Types 2.1.1. There are three card types: units, spells and lands.
2.1.2. A unit stays on the field until it is destroyed.
2.1.3. A spell goes to the graveyard after it resolves (see 2.1.1).
2.2. Card Parts 2.2.1. Every card has a name, a cost and a text box.
2.2.2. The cost is printed in the top left corner. 2.2.3. The text box holds the card's \
abilities.
3. Turn Structure
3.1. Phases 3.1.1. A turn has a start phase, a main phase and an end phase.
3.1.2. In the start phase, the active player draws a card. 3.1.3. In the end phase, the \
active player discards down to seven cards.
"""

# The rules as a person reads them: a number with its dot or not, at a line's start, after
# a sentence's end or after the heading before it, followed by a capital.
PRINTED = re.compile(r"(?:^|(?<=[.:] )|(?<=[a-z] ))(\d+(?:\.\d+)*)\.? (?=[A-Z])", re.MULTILINE)
DOCUMENTS = {"harbor": WORD_DOTS, "moonlit": RUN_IN}


def scheme_then_parse(tmp_path: Path, name: str, text: str) -> dict[str, Any]:
    document = tmp_path / f"{name}.txt"
    document.write_text(text, encoding="utf-8")
    doc: dict[str, Any] = scheme_and_parse(document, tmp_path, name)[1]
    return doc


def printed_rules(text: str) -> list[str]:
    body = text.split("\n", 2)[2]  # the title and the statement line are no rules
    return PRINTED.findall(body)


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_every_rule_of_an_unseen_style_is_read_or_named(tmp_path: Path, name: str) -> None:
    text = DOCUMENTS[name]
    doc = scheme_then_parse(tmp_path, name, text)
    records = [r["number"] for r in doc["records"]]
    named = {
        w["message"].split(" ", 1)[0] for w in doc["warnings"] if w["code"] == "unaccounted-number"
    }
    printed = printed_rules(text)
    assert len(printed) == 22
    assert [n for n in printed if n not in records and n not in named] == []


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_an_unseen_style_is_read_exactly(tmp_path: Path, name: str) -> None:
    """Both styles are read as a person reads them: every rule, in order, no warning."""
    text = DOCUMENTS[name]
    doc = scheme_then_parse(tmp_path, name, text)
    assert [r["number"] for r in doc["records"]] == printed_rules(text)
    assert doc["warnings"] == []
    texts = {r["number"]: r["text"] for r in doc["records"]}
    if name == "moonlit":
        assert texts["1.1.1"] == "This game is played by two players."
        assert texts["1.1.2"] == "Games of three or more players are not covered by these rules."
        assert texts["2.1.3"] == "A spell goes to the graveyard after it resolves (see 2.1.1)."
    else:
        assert texts["1.1.2"].startswith("Organizers may add rules")
        assert texts["1.1.1"] == "These rules apply to every sanctioned Harbor Lights event."
