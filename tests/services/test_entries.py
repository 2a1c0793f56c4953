"""The Record view's entry forms as the service declares them: bounds from the position and its rules, choices
from the position, typed entries read or refused naming the part, all checked against hand-worked positions."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.errors import RiskAnalyzerError
from analyzer.game.board import classic_board
from analyzer.game.dice import DiceRules
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.game.vocabulary import DECK
from analyzer.live import LiveGame
from analyzer.services.entries import (
    Blank,
    EntryError,
    attack_sources,
    battle_counts,
    choice,
    counts_from_text,
    deal_owners,
    fortify_count,
    fortify_sources,
    move_in_count,
    place_count,
    roll_counts,
    trade_choices,
    unseen_cards,
)

BOARD = classic_board()


def two_fronts() -> GameState:
    """A 3-player position, Player 1 to place: they hold North America (9 territories, 5 armies each but Alaska's 1)
    and nothing else; Player 2 holds the rest of the map but Kamchatka, Player 3's, with 2 armies each."""
    na = BOARD.continents[BOARD.continent_index("North America")].territories
    owner = [1] * 42
    armies = [2] * 42
    for t in na:
        owner[t], armies[t] = 0, 5
    owner[BOARD.index("Kamchatka")] = 2
    armies[BOARD.index("Alaska")] = 1
    return GameState.from_position(owner, armies, n_players=3)


def test_the_armies_to_place_run_from_one_to_all_that_are_due() -> None:
    game = two_fronts()
    # Nine territories give 3; North America's bonus 5.
    assert game.pending == 8
    count = place_count(game)
    assert (count.lo, count.hi, count.start) == (1, 8, 8)
    assert count.read(3) == 3 and count.read(np.int64(8)) == 8
    for bad in (0, 9, 2.5, None):
        with pytest.raises(Blank, match="Armies: enter a whole number from 1 to 8"):
            count.read(bad)


def test_a_battle_is_entered_as_the_two_stacks_it_left() -> None:
    game = two_fronts()
    alaska, kamchatka = BOARD.index("Alaska"), BOARD.index("Kamchatka")
    attackers, defenders = battle_counts(game, BOARD.index("Greenland"), BOARD.index("Iceland"))
    assert (attackers.lo, attackers.hi, attackers.start) == (1, 5, 5)
    assert (defenders.lo, defenders.hi, defenders.start) == (0, 2, 2)
    # Alaska's single army cannot attack; every other North American territory with a foreign neighbour can.
    foreign = {t for t in range(42) if game.owner[t] == 0 and any(game.owner[n] != 0 for n in BOARD.neighbors[t])}
    assert set(attack_sources(game)) == foreign - {alaska}
    assert kamchatka in game.attack_targets(alaska)


def test_a_roll_allows_the_dice_the_rules_and_the_two_stacks_allow() -> None:
    game = two_fronts()
    alaska, alberta, kamchatka = BOARD.index("Alaska"), BOARD.index("Alberta"), BOARD.index("Kamchatka")
    greenland, iceland = BOARD.index("Greenland"), BOARD.index("Iceland")
    # Greenland's 5 against Iceland's 2: 3 dice against 2.
    assert [(c.name, c.lo, c.hi, c.start) for c in roll_counts(game, greenland, iceland)] == [
        ("attacker_dice", 1, 3, 3),
        ("defender_dice", 1, 2, 2),
        ("attacker_lost", 0, 2, 0),
        ("defender_lost", 0, 2, 0),
    ]
    # Alberta's 5 against Alaska's lone army (its own, but the fields read only the stacks): 1 defending die, one
    # army lost at most; the fields started at 2 dice, which the entry refused.
    assert [(c.lo, c.hi, c.start) for c in roll_counts(game, alberta, alaska)] == [
        (1, 3, 3),
        (1, 1, 1),
        (0, 1, 0),
        (0, 1, 0),
    ]
    # Kamchatka's 2 attack with 1 die.
    assert [(c.lo, c.hi, c.start) for c in roll_counts(game, kamchatka, alaska)][0] == (1, 1, 1)
    three = Rules(dice=DiceRules(defender_max=3))
    game = GameState.from_position(two_fronts().owner, two_fronts().armies, n_players=3, rules=three)
    assert [(c.lo, c.hi) for c in roll_counts(game, greenland, iceland)] == [(1, 3), (1, 2), (0, 2), (0, 2)]
    game.armies[iceland] = 4
    assert [(c.lo, c.hi) for c in roll_counts(game, greenland, iceland)] == [(1, 3), (1, 3), (0, 3), (0, 3)]


def test_a_move_in_and_a_fortify_keep_one_army_behind() -> None:
    live = LiveGame(two_fronts(), seed=1)
    alberta, greenland = BOARD.index("Alberta"), BOARD.index("Greenland")
    live.place({alberta: 4, greenland: 4})
    # Iceland (2 armies) taken from Greenland (9), 8 attackers left: the last roll's 3 dice to 7 may move in.
    live.battle(greenland, BOARD.index("Iceland"), 8, 0)
    moved = move_in_count(live.state)
    assert (moved.lo, moved.hi, moved.start) == (3, 7, 7)
    assert "Iceland" in moved.label
    live.move_in(3)
    count = fortify_count(live.state, alberta)
    assert (count.lo, count.hi, count.start) == (1, 8, 1)
    # Alaska keeps its single army: nothing to spare.
    assert alberta in fortify_sources(live.state) and BOARD.index("Alaska") not in fortify_sources(live.state)


def test_the_cards_a_face_down_draw_or_a_trade_may_be() -> None:
    def dealt(face_down: list[int]) -> GameState:
        hands = {0: [0, 1], 1: [2, 3]}
        return GameState.from_position(
            two_fronts().owner, two_fronts().armies, n_players=3, hands=hands, face_down=face_down
        )

    game = dealt([3])
    deck = {int(c) for c in np.flatnonzero(game.card_loc == DECK)}
    assert len(deck) == BOARD.n_cards - 4
    # Card 3 was drawn face down by Player 2: nobody has seen it, nor the deck.
    assert unseen_cards(game) == sorted(deck | {3})
    # The user's own hand is all known; another player's may hold a face-down card, or any card of the deck.
    assert trade_choices(game, own=True) == [0, 1]
    mine_down = dealt([1])  # Player 1, to move, holds card 1 face down
    assert trade_choices(mine_down, own=False) == sorted(deck | {0, 1})
    assert trade_choices(mine_down, own=True) == [0]


def test_a_choice_falls_to_the_first_option_when_it_is_gone() -> None:
    assert choice([7], [3, 7]) == 7 and choice([8], [3, 7]) == 3 and choice([None], []) is None
    assert choice([None], [None, 4]) is None and choice([4], [None, 4]) == 4
    # A choice gone, the one before it (the box's kept choice) stands if it still is an option.
    assert choice([8, 7], [3, 7]) == 7 and choice([8, 9], [3, 7]) == 3 and choice([None, 4], [None, 4]) is None


def test_typed_counts_add_up_and_a_bad_part_is_named() -> None:
    ukraine, ural = BOARD.index("Ukraine"), BOARD.index("Ural")
    assert counts_from_text(" Ukraine 3, ural 2,, Ukraine 1 ", BOARD) == {ukraine: 4, ural: 2}
    assert counts_from_text("", BOARD) == {}
    with pytest.raises(EntryError, match="'Ukraine' is not a territory and a count"):
        counts_from_text("Ukraine", BOARD)
    with pytest.raises(RiskAnalyzerError, match="Atlantis"):
        counts_from_text("Atlantis 3", BOARD)


def test_a_deal_gives_every_territory_one_owner() -> None:
    picks = [list(range(0, 14)), list(range(14, 28)), list(range(28, 42))]
    assert deal_owners(picks, BOARD) == [0] * 14 + [1] * 14 + [2] * 14
    with pytest.raises(EntryError, match=f"{BOARD.territories[20]} is picked for two players"):
        deal_owners([*picks, [20]], BOARD)
    names = ", ".join(BOARD.territories[t] for t in range(28, 33))
    with pytest.raises(EntryError, match=f"14 territories have no owner yet: {names}, ..."):
        deal_owners(picks[:2], BOARD)
