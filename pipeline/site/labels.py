"""The names a reader knows the games by, for the labels and filters of search results.

The corpus names a game by its short id (`mtg`); a game this table does not list is
shown by that id."""

from __future__ import annotations

GAME_NAMES = {
    "digimon": "Digimon Card Game",
    "fab": "Flesh and Blood",
    "fow": "Force of Will",
    "gundam": "Gundam Card Game",
    "mtg": "Magic: The Gathering",
    "netrunner": "Netrunner",
    "riftbound": "Riftbound",
    "swu": "Star Wars: Unlimited",
}


def game_name(game: str) -> str:
    return GAME_NAMES.get(game, game)
