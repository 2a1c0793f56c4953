"""P(win) and expected-loss tables: values, CSV export and the heatmap."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from support.battles import OSBORNE_TABLE_3

from analyzer.errors import BattleInputError
from analyzer.game.dice import DiceRules
from analyzer.solver.battle import BattleOptions, battle
from analyzer.solver.blitz import balanced_win_probability
from analyzer.solver.tables import TABLES, odds_tables


def test_tables_are_indexed_by_board_counts_and_match_single_battles() -> None:
    t = odds_tables(12)
    for table in (t.p_win, t.expected_attacker_losses, t.expected_defender_losses):
        assert table.shape == (11, 12)
        assert table.index.name == "attackers" and table.columns.name == "defenders"
        assert list(table.index) == list(range(2, 13)) and list(table.columns) == list(range(1, 13))
    for a, d in [(2, 1), (7, 3), (12, 12), (5, 9)]:
        r = battle(a, d)
        assert t.p_win.loc[a, d] == pytest.approx(r.p_win, rel=1e-13)
        assert t.expected_attacker_losses.loc[a, d] == pytest.approx(r.expected_attacker_losses, rel=1e-12)
        assert t.expected_defender_losses.loc[a, d] == pytest.approx(r.expected_defender_losses, rel=1e-12)


def test_p_win_table_reproduces_osborne() -> None:
    t = odds_tables(11)
    published = np.array(OSBORNE_TABLE_3)
    ours = t.p_win.loc[2:11, 1:10].to_numpy()  # Osborne counts the armies that can roll
    assert np.abs(ours - published).max() <= 0.0005 + 1e-12


def test_rows_that_cannot_attack_are_nan() -> None:
    t = odds_tables(8, stop_at=3, options=BattleOptions(stop_mode="cap"))
    assert t.p_win.loc[2:3].isna().all().all()
    assert t.p_win.loc[6, 2] == pytest.approx(battle(6, 2, stop_at=3, options=BattleOptions(stop_mode="cap")).p_win)


def test_variant_and_balanced_tables() -> None:
    capital = BattleOptions(dice=DiceRules(defender_max=3))
    assert odds_tables(6, options=capital).p_win.loc[6, 4] == pytest.approx(battle(6, 4, options=capital).p_win)
    blitz = BattleOptions(balanced_blitz=True)
    t = odds_tables(7, options=blitz)
    plain = odds_tables(7)
    assert np.allclose(t.p_win.to_numpy(), balanced_win_probability(plain.p_win.to_numpy()))
    r = battle(7, 4, options=blitz)
    assert t.p_win.loc[7, 4] == pytest.approx(r.p_win)
    assert t.expected_attacker_losses.loc[7, 4] == pytest.approx(r.expected_attacker_losses)
    assert t.expected_defender_losses.loc[7, 4] == pytest.approx(r.expected_defender_losses)


def test_csv_export_round_trips(tmp_path: Path) -> None:
    t = odds_tables(9)
    grid = tmp_path / "p.csv"
    t.to_csv(grid)
    back = pd.read_csv(grid, index_col="attackers")
    assert back.shape == (8, 9)
    assert np.allclose(back.to_numpy(), t.p_win.to_numpy(), rtol=1e-9)
    losses = tmp_path / "losses.csv"
    t.to_csv(losses, which="expected_defender_losses")
    assert np.allclose(pd.read_csv(losses, index_col=0).to_numpy(), t.expected_defender_losses.to_numpy(), rtol=1e-9)
    every = tmp_path / "all.csv"
    t.to_csv(every, which="all")
    long = pd.read_csv(every)
    assert list(long.columns) == ["attackers", "defenders", *TABLES]
    assert len(long) == 8 * 9
    row = long[(long.attackers == 5) & (long.defenders == 3)].iloc[0]
    assert row.p_win == pytest.approx(t.p_win.loc[5, 3], rel=1e-9)


def test_heatmap() -> None:
    t = odds_tables(15)
    ax = t.heatmap()
    assert ax.get_title() == "P(attacker conquers)"
    assert ax.get_xlabel() == "defenders"
    image = ax.get_images()[0]
    assert image.get_array().shape == (14, 15)
    assert image.get_clim() == (0.0, 1.0)
    from matplotlib.figure import Figure

    own = Figure().add_subplot()
    assert t.heatmap("expected_attacker_losses", ax=own) is own


def test_bad_table_requests() -> None:
    with pytest.raises(BattleInputError, match="max_armies must be a whole number >= 2, got 1"):
        odds_tables(1)
    with pytest.raises(BattleInputError, match="max_armies must be a whole number >= 2, got 2.5"):
        odds_tables(2.5)  # type: ignore[arg-type]
    with pytest.raises(BattleInputError, match="no table 'p_lose'"):
        odds_tables(3).table("p_lose")
