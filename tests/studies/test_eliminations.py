"""The elimination study: hand-built positions, invariants over simulated ones, the value table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import StudyError
from analyzer.game.board import classic_board
from analyzer.game.rules import Rules
from analyzer.game.state import GameState
from analyzer.studies.eliminations import (
    KILL_ODDS,
    SET_BANDS,
    elimination_value,
    opportunity,
    play_eliminations,
    set_band,
    spare_turn,
    take_turn,
)
from analyzer.studies.policies import population_bot

BOARD = classic_board()


def siam_position(
    siam: int = 2, hands: dict[int, list[int]] | None = None, n_players: int = 3, indonesia: int = 3
) -> GameState:
    """Player 0 holds everything but Siam (player 1) and Indonesia (player 2, in a 3-player game)."""
    owner, armies = [0] * 42, [3] * 42
    owner[BOARD.index("Siam")] = 1
    if n_players == 3:
        owner[BOARD.index("Indonesia")] = 2
    armies[BOARD.index("Siam")], armies[BOARD.index("Indonesia")] = siam, indonesia
    return GameState.from_position(owner, armies, n_players=n_players, hands=hands or {})


def test_a_sure_kill_takes_the_victims_cards_and_sparing_never_attacks_them():
    state = siam_position(hands={1: [0, 1]}, indonesia=200)
    found = opportunity(state)
    assert found is not None and (found.mover, found.victim, found.trade) == (0, 1, None)
    assert found.p_kill > 0.99 and BOARD.index("Siam") in BOARD.neighbors[found.entry]
    assert found.plan == ((found.entry, BOARD.index("Siam")),)
    bot = population_bot("classic")
    taken = state.copy()
    assert take_turn(taken, found, bot, np.random.default_rng(0)) == 2
    assert not taken.alive[1] and {0, 1} <= set(taken.hand(0)) and taken.player != 0
    spared = state.copy()
    spare_turn(spared, found, bot, np.random.default_rng(0))
    siam = BOARD.index("Siam")
    assert spared.alive[1] and spared.owner[siam] == 1 and spared.armies[siam] == 2 and spared.player != 0


def test_no_opportunity_when_the_kill_would_end_the_game_or_is_out_of_reach():
    assert opportunity(siam_position(n_players=2)) is None  # two players: a kill is a win, not a choice
    assert opportunity(siam_position(siam=200, indonesia=200)) is None  # 200 armies against 3 + 28
    # A set in hand counts: its armies go into the solver's stack, and the trade is the one made.
    state = siam_position(siam=22, indonesia=200, hands={0: [0, 1, 2]})
    found = opportunity(state)
    assert found is not None and found.victim == 1 and found.trade is not None and set(found.trade.cards) == {0, 1, 2}
    assert opportunity(state, kill_odds=0.99) is None
    assert opportunity(siam_position(siam=22, indonesia=200), kill_odds=0.95) is None  # without the set: 92%


def test_set_bands():
    assert [set_band(k) for k in range(8)] == ["0-1", "0-1", "2-3", "2-3", "4-5", "4-5", "6+", "6+"]
    assert SET_BANDS[0][0] == 0
    with pytest.raises(StudyError, match="sets traded must be 0 to"):
        set_band(-1)


def test_simulated_positions_keep_the_studys_invariants():
    positions = play_eliminations("classic", 10, seed=4, player_counts=(3, 5), rollouts=2)
    assert len(positions) > 0 and set(positions["n_players"]) <= {3, 5}
    rules = Rules()
    assert (positions["p_kill"] >= KILL_ODDS).all() and (positions["players_left"] >= 3).all()
    assert (positions["players_left"] <= positions["n_players"]).all()
    assert positions["set_band"].tolist() == [set_band(k) for k in positions["sets_traded"]]
    assert positions["set_value"].tolist() == [rules.set_value(k) for k in positions["sets_traded"]]
    assert (positions["victim_territories"] <= positions["victim_armies"]).all()
    # Sparing never eliminates the victim; a kill hands over exactly the victim's hand.
    assert (positions["spared"] == 1).all()
    killed = positions[positions["killed"] > 0]
    assert len(killed) > 0 and (killed["cards_taken"] == killed["victim_cards"]).all()
    for column in ("killed", "win_take", "win_spare"):
        assert set(positions[column]) <= {0.0, 0.5, 1.0}
    again = play_eliminations("classic", 10, seed=4, player_counts=(3, 5), rollouts=2)
    pd.testing.assert_frame_equal(positions, again)


def test_the_value_table_pairs_take_with_spare():
    positions = pd.DataFrame(
        {
            "n_players": [4, 4, 4, 4, 5],
            "set_band": ["0-1", "0-1", "6+", "6+", "0-1"],
            "win_take": [1.0, 1.0, 0.0, 1.0, 0.5],
            "win_spare": [0.0, 1.0, 0.0, 0.0, 0.5],
            "set_value": [4, 6, 20, 25, 4],
            "victim_cards": [3, 1, 2, 4, 0],
            "p_kill": 0.9,
            "killed": 1.0,
        }
    )
    table = elimination_value(positions).set_index(["n_players", "set_band"])
    assert table.loc[(4, "0-1"), "vs_baseline"] == 0.5 and table.loc[(4, "6+"), "vs_baseline"] == 0.5
    assert table.loc[(4, "all"), "positions"] == 4 and table.loc[(4, "all"), "vs_baseline"] == 0.5
    assert table.loc[(4, "all"), "set_value"] == pytest.approx(13.75)
    low, high = table.loc[(4, "all"), ["vs_baseline_low", "vs_baseline_high"]]
    assert low < 0.5 < high
    assert np.isnan(table.loc[(5, "0-1"), "vs_baseline"])  # one position has no interval
    with pytest.raises(StudyError, match="lack the column"):
        elimination_value(positions.drop(columns="win_take"))


def test_the_cli_saves_the_elimination_study(tmp_path):
    from analyzer.studies.__main__ import main

    assert (
        main(["--eliminations", "--population", "classic", "--games", "3", "--seed", "2", "--out", str(tmp_path)]) == 0
    )
    positions = pd.read_csv(tmp_path / "elimination_positions.csv")
    value = pd.read_csv(tmp_path / "elimination_value.csv")
    assert set(positions["population"]) <= {"classic"}
    assert value.groupby("n_players")["positions"].max().sum() == len(positions)
