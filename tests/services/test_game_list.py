"""The start page's list of stored games: a search by a game's name or a player's, a page at a time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from analyzer.services.game_list import PAGE, listing
from analyzer.store.games import GameSummary

NOW = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)


def game(i: int, name: str, *players: str) -> GameSummary:
    return GameSummary(f"id{i}", name, players, 1, 1, NOW - timedelta(minutes=i))


def test_a_search_finds_a_game_by_part_of_its_name_or_of_a_players_whatever_the_case() -> None:
    friday = game(0, "Friday at Åse's", "Søren", "Ann", "Bo")
    assert friday.matches("friday") and friday.matches("ÅSE") and friday.matches("søren") and friday.matches("nn")
    assert friday.matches("  at   Åse ")  # spaces as typed on a phone: runs of them count as one
    assert not friday.matches("Cy") and not friday.matches("Friday Søren")  # a name and a player are apart


def test_the_list_is_a_page_at_a_time_in_the_stores_order() -> None:
    games = [game(i, f"Table {i % 4}", "Ann" if i % 3 == 0 else "Bo", "Cy") for i in range(23)]
    first = listing(games, "", PAGE)
    assert first.shown == games[:PAGE] and (first.found, first.stored) == (23, 23)
    assert listing(games, "", 3 * PAGE).shown == games  # more than there are: all of them
    found = listing(games, "ann", PAGE)
    ann = [g for g in games if "Ann" in g.players]
    assert found.shown == ann[:PAGE] and found.found == len(ann) == 8 and found.stored == 23
    assert listing(games, "Table 1", 2).shown == [games[1], games[5]]
    nothing = listing(games, "Di", PAGE)
    assert (nothing.shown, nothing.found, nothing.stored) == ([], 0, 23)
