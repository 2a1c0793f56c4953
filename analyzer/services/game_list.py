"""The start page's list of stored games: those a search finds, the last changed first, a page at a time.

A club's server keeps every table's games; drawn all at once, 300 of them took 5 s to show on a phone and
a page 100,000 pixels long. The page shows :data:`PAGE` at a time and finds the rest by a game's name or a
player's.

>>> from datetime import UTC, datetime
>>> def game(name, *players):
...     return GameSummary(name.lower(), name, players, 1, 1, datetime(2026, 12, 7, tzinfo=UTC))
>>> games = [game("Friday", "Søren", "Ann"), game("Tuesday club", "Bo", "Cy"), game("Sunday", "Ann", "Di")]
>>> found = listing(games, "ann", shown=1)
>>> [g.name for g in found.shown], found.found, found.stored
(['Friday'], 2, 3)
>>> [g.name for g in listing(games, "SØREN", shown=10).shown], listing(games, "  ", shown=10).found
(['Friday'], 3)
>>> listing(games, "  Tuesday   club ", shown=10).search, listing(games, "  ", shown=10).search
('Tuesday club', '')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.store.games import GameSummary, plain_search

#: The games the start page lists before "Show more", and how many more each press shows.
PAGE = 10


@dataclass(frozen=True)
class Listing:
    """The games to show, how many the search found and the store holds, and the search as it was matched (its
    runs of spaces made one; blank: none, every game found)."""

    shown: list[GameSummary]
    found: int
    stored: int
    search: str


def listing(games: Sequence[GameSummary], search: str, shown: int) -> Listing:
    """The first ``shown`` of ``games`` (in their order, the store's last changed first) that ``search`` finds;
    a blank search finds them all."""
    search = plain_search(search)
    found = [game for game in games if game.matches(search)]
    return Listing(found[: max(shown, 0)], len(found), len(games), search)
