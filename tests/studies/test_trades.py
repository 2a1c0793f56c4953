"""The trade-or-hold decision study and the kill for cards: positions, arms, tables and the CLI."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import StudyError
from analyzer.game.actions import Trade
from analyzer.studies.eliminations import best_trade, kill_for_cards
from analyzer.studies.policies import population_bot
from analyzer.studies.trades import (
    MIN_POSITIONS,
    POSITION_COLUMNS,
    eligible,
    find_trade_position,
    hold_turn,
    play_trade_choices,
    trade_factors,
    trade_turn,
    trade_value,
)

BOT = population_bot("default")
RESULTS = Path(__file__).resolve().parents[2] / "results"


def position(seed: int, n_players: int = 4):
    for k in range(20):
        state = find_trade_position(n_players, BOT, np.random.default_rng([seed, k]))
        if state is not None:
            return state
    raise AssertionError("no position in twenty games")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_two_arms_share_the_position_and_differ_by_the_trade(seed):
    state = position(seed)
    assert eligible(state) and 3 <= len(state.hand(state.player)) <= 4 and not state.must_trade()
    p, turn, traded = state.player, state.turn, state.sets_traded
    trade, hold = state.copy(), state.copy()
    assert trade == hold == state
    chosen = best_trade(state)
    done = trade_turn(trade, BOT, np.random.default_rng(seed))
    hold_turn(hold, BOT, np.random.default_rng(seed))
    assert done == chosen
    mine = [t for t in trade.trades if t.player == p and t.turn == turn]
    assert mine and trade.sets_traded >= traded + 1
    # Holding, the mover trades this turn only when a kill forced it (six cards or more in hand).
    held = [t for t in hold.trades if t.player == p and t.turn == turn]
    if held:
        assert any(e.turn == turn for e in hold.eliminations)
    else:
        assert hold.sets_traded == traded
    assert state.sets_traded == traded and state.turn == turn  # the position itself is untouched


def test_a_held_set_is_still_held_when_the_bot_would_have_traded_it():
    # Find positions where the bot trades at once, and check that holding keeps the cards.
    found = 0
    for seed in range(40):
        state = find_trade_position(5, BOT, np.random.default_rng([7, seed]))
        if state is None or not isinstance(BOT.choose(state.copy(), np.random.default_rng(0)), Trade):
            continue
        hold = state.copy()
        hold_turn(hold, BOT, np.random.default_rng(seed))
        p = state.player
        if not any(e.turn == state.turn and e.player != p for e in hold.eliminations):
            assert set(state.hand(p)) <= set(hold.hand(p)) or not hold.alive[p]
        found += 1
        if found == 3:
            break
    assert found > 0


def test_a_seed_gives_the_same_table_however_the_games_are_split():
    one = play_trade_choices("default", 4, seed=5, player_counts=(3, 4), rollouts=2)
    again = play_trade_choices("default", 4, seed=5, player_counts=(3, 4), rollouts=2, chunk=1, workers=2)
    pd.testing.assert_frame_equal(one, again)
    assert list(one.columns) == [*POSITION_COLUMNS, "population"]
    assert one.groupby("n_players")["game"].is_monotonic_increasing.all()
    assert (one["game"] < 4).all() and set(one["cards"]) <= {3, 4}
    assert one["win_trade"].between(0, 1).all() and one["win_hold"].between(0, 1).all()
    assert ((one["players_left"] >= 2) & (one["players_left"] <= one["n_players"])).all()
    assert (one["army_share"].between(0, 1)).all()


def hand_made(n: int, trade: float, hold: float, **columns) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "win_trade": rng.random(n) < trade,
            "win_hold": rng.random(n) < hold,
            "bot_trades": True,
            "cards": 3,
            "set_band": "0-1",
            **columns,
        }
    ).astype({"win_trade": float, "win_hold": float})


def test_the_trade_table_of_hand_made_positions():
    positions = pd.concat(
        [
            hand_made(400, 1.0, 0.0, cards=4, set_band="6+"),  # trading always wins, holding never
            hand_made(400, 0.0, 1.0, cards=3, set_band="6+"),
            hand_made(400, 0.5, 0.5, cards=3, set_band="0-1").assign(win_hold=lambda f: f["win_trade"]),
            hand_made(MIN_POSITIONS - 1, 1.0, 0.0, cards=4, set_band="0-1"),
        ],
        ignore_index=True,
    )
    table = trade_value(positions).set_index(["cards", "set_band"])
    assert table.loc[("4", "6+"), "advice"] == "trade now" and table.loc[("3", "6+"), "advice"] == "hold"
    assert table.loc[("3", "0-1"), ["verdict", "advice"]].tolist() == ["equivalent", "either"]
    small = table.loc[("4", "0-1")]
    assert small["positions"] == MIN_POSITIONS - 1 and np.isnan(small["vs_baseline_low"])
    assert small["advice"] == "undecided"
    # The counts add up: the cells to each key's margin, the margins to the whole.
    cells = table.drop(index=[k for k in table.index if "all" in k])
    assert table.loc[("all", "all"), "positions"] == len(positions) == cells["positions"].sum()
    for cards in ("3", "4"):
        assert table.loc[(cards, "all"), "positions"] == cells.loc[cards, "positions"].sum()
    factors = trade_factors(positions, ("cards", "set_band"))
    assert factors.groupby("factor")["positions"].sum().eq(len(positions)).all()
    with pytest.raises(StudyError, match="lack the column"):
        trade_value(positions.drop(columns="win_hold"))


def test_the_kill_for_cards_of_hand_made_positions():
    rng = np.random.default_rng(1)
    n = 200
    positions = pd.DataFrame(
        {
            "victim_cards": rng.integers(0, 7, n),
            "set_band": rng.choice(["0-1", "6+"], n),
            "set_value": 4,
            "p_kill": 0.9,
            "killed": 1.0,
            "win_take": 1.0,
            "win_spare": rng.random(n) < 0.2,
        }
    ).astype({"win_spare": float})
    table = kill_for_cards(positions)
    whole = table[(table["cards_band"] == "all") & (table["set_band"] == "all")]
    assert whole["positions"].tolist() == [int((positions["victim_cards"] > 0).sum())]
    cells = table[(table["cards_band"] != "all") & (table["set_band"] != "all")]
    assert cells["positions"].sum() == whole["positions"].iloc[0]
    assert whole["advice"].tolist() == ["take it"]
    # Every kill won and most spares lost: a clear gain, but a cell of fewer than MIN_POSITIONS positions has no
    # figure and stays undecided, as in the trade-or-hold table.
    few = table[table["positions"] < MIN_POSITIONS]
    many = cells[cells["positions"] >= MIN_POSITIONS]
    assert len(few) and few["vs_baseline_low"].isna().all() and set(few["advice"]) == {"undecided"}
    assert len(many) and set(many["advice"]) == {"take it"}


def test_the_cli_runs_the_card_study(tmp_path, capsys):
    from analyzer.studies import __main__ as cli

    (tmp_path / "elimination_positions.csv").write_text(
        "victim_cards,set_band,set_value,p_kill,killed,win_take,win_spare\n3,0-1,4,0.9,1.0,1.0,0.0\n"
        "3,0-1,4,0.9,1.0,0.0,0.0\n"
    )
    code = cli.main(["cards", "--games", "3", "--rollouts", "1", "--players", "3", "--out", str(tmp_path)])
    assert code == 0
    positions = pd.read_csv(tmp_path / "trade_or_hold_positions.csv")
    assert len(positions) <= 3
    assert f"{len(positions)} positions, {2 * len(positions)} games" in capsys.readouterr().out
    for name in ("trade_or_hold.csv", "trade_or_hold_factors.csv", "kill_for_cards.csv"):
        assert (tmp_path / name).is_file()
    assert cli.main(["cards", "--games", "0", "--out", str(tmp_path)]) == 2


def test_a_dask_scheduler_gives_the_same_table():
    from distributed import LocalCluster

    here = play_trade_choices("default", 3, seed=8, player_counts=(3,), rollouts=1, chunk=1)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        there = play_trade_choices(
            "default", 3, seed=8, player_counts=(3,), rollouts=1, chunk=1, scheduler=cluster.scheduler_address
        )
    pd.testing.assert_frame_equal(here, there)


def test_a_run_extended_by_later_games_is_the_longer_run(tmp_path):
    from analyzer.studies import __main__ as cli

    base = ["cards", "--rollouts", "1", "--players", "3", "4", "--seed", "4"]
    assert cli.main([*base, "--games", "4", "--out", str(tmp_path / "one")]) == 0
    assert cli.main([*base, "--games", "2", "--out", str(tmp_path / "two")]) == 0
    assert cli.main([*base, "--games", "2", "--first-game", "2", "--append", "--out", str(tmp_path / "two")]) == 0
    for name in ("trade_or_hold_positions.csv", "trade_or_hold.csv", "trade_or_hold_factors.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "one" / name), pd.read_csv(tmp_path / "two" / name))
    # The same games twice would count their positions twice.
    assert cli.main([*base, "--games", "2", "--first-game", "1", "--append", "--out", str(tmp_path / "two")]) == 2


def test_the_early_strategist_reproduces_the_committed_strategist_positions():
    """The committed strategist results are games of the strategist as first tuned (EARLY_STRATEGIST): its first
    40 three-player games find the committed positions, with the same rollouts' results, to the last digit."""
    new = play_trade_choices("early_strategist", 40, 2026, player_counts=[3])
    stored = pd.read_csv(RESULTS / "strategist_population" / "trade_or_hold_positions.csv")
    stored = stored[(stored["n_players"] == 3) & (stored["game"] < 40)].reset_index(drop=True)
    columns = [c for c in stored.columns if c != "population"]
    assert len(stored) == 34
    pd.testing.assert_frame_equal(new[columns].reset_index(drop=True), stored[columns], check_dtype=False)
    # The registry's strategist, retuned since, finds other positions in the same games.
    assert len(play_trade_choices("strategist", 40, 2026, player_counts=[3])) != 34
