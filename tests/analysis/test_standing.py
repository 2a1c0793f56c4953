"""The facts the app shows about a position (analyzer.analysis.standing, analyzer.analysis.chain_entry),
checked against the territories themselves over random games."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.analysis.chain_entry import chain_defenders, check_chain_path
from analyzer.analysis.standing import can_suggest_turn, continent_holders, living_players
from analyzer.errors import BattleInputError, IllegalActionError
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase


def random_positions(n_games: int, seed: int) -> list[GameState]:
    """Positions along random games (random legal actions and chance outcomes), every few actions."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_games):
        state = GameState.random_start(int(rng.integers(2, 5)), rng)
        for step in range(600):
            if state.is_terminal():
                break
            if state.is_chance():
                outcomes = state.chance_outcomes()
                action = outcomes[int(rng.integers(len(outcomes)))][0]
            else:
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            state.apply(action)
            if step % 25 == 0:
                out.append(state.copy())
        out.append(state.copy())
    return out


POSITIONS = random_positions(6, 3)


def test_living_players_are_the_seats_holding_a_territory() -> None:
    for state in POSITIONS:
        assert living_players(state) == sorted({int(o) for o in state.owner if 0 <= o < state.n_players})


def test_a_continent_holder_owns_every_one_of_its_territories() -> None:
    board = classic_board()
    for state in POSITIONS:
        for continent, holder in zip(board.continents, continent_holders(state)):
            owners = {int(state.owner[t]) for t in continent.territories}
            assert holder == (owners.pop() if len(owners) == 1 else None)


def test_a_turn_is_suggested_only_when_the_player_to_move_decides() -> None:
    phases = {state.phase for state in POSITIONS}
    assert Phase.ATTACK in phases
    for state in POSITIONS:
        decides = not state.is_terminal() and not state.is_chance() and state.phase != Phase.DEFEND
        assert can_suggest_turn(state) == (decides and state.phase not in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE))


def test_a_typed_chain_is_read_or_refused_naming_the_bad_part() -> None:
    assert chain_defenders("") == []
    assert chain_defenders(" 5,1  2 ") == [5, 1, 2]
    for bad in ("0", "-3", "2.5", "1234567890"):
        with pytest.raises(BattleInputError, match=bad.replace(".", r"\.")):
            chain_defenders(f"3 {bad}")


def test_a_picked_chain_must_go_from_border_to_border() -> None:
    board = classic_board()
    t = board.index
    check_chain_path(board, t("Brazil"), [t("North Africa"), t("Egypt"), t("Middle East")])
    with pytest.raises(IllegalActionError, match="Egypt does not border India"):
        check_chain_path(board, t("Brazil"), [t("North Africa"), t("Egypt"), t("India")])
