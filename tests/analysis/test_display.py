"""Small display facts: heatmap ticks at whole armies, even survivors' ticks, percentages that
never round to a certainty, names cut at a word, map names clear of the marker below."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from analyzer.game.board import classic_board
from analyzer.plot import _labels_above, whole_ticks
from analyzer.solver.battle import battle
from analyzer.solver.tables import odds_tables
from analyzer.text import percent, shortened


@pytest.mark.parametrize("size", [5, 12, 20, 37])
def test_heatmap_ticks_fall_on_whole_armies(size: int) -> None:
    ax = odds_tables(size).heatmap("p_win")
    FigureCanvasAgg(ax.figure).draw()
    for ticks in (ax.get_xticks(), ax.get_yticks()):
        assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks)


@pytest.mark.parametrize(("lo", "hi"), [(0, 7), (1, 1000), (950, 1000), (3, 37), (0, 0)])
def test_survivors_ticks_are_evenly_spaced_whole_numbers_in_range(lo: int, hi: int) -> None:
    ticks = whole_ticks(lo, hi)
    assert ticks and all(lo <= t <= hi for t in ticks) and len(ticks) <= 11
    assert len(set(np.diff(ticks))) <= 1


def test_a_chance_short_of_one_never_shows_as_certain() -> None:
    r = battle(60, 2)
    assert 0 < 1 - r.p_win < 5e-5  # the solver's value rounds to 100.00% at two decimals
    assert percent(r.p_win) == ">99.99%" and percent(1 - r.p_win) == "<0.01%"
    assert percent(battle(12, 7).p_win) == "85.20%"  # 12 against 7 (the README's battle), to two decimals


def test_names_are_cut_at_a_word() -> None:
    name = "Thursday evening at Ann and Bo's flat, second game"
    cut = shortened(name, 40)
    assert len(cut) <= 40 and cut.endswith("…") and name.startswith(cut[:-1]) and not name[len(cut) - 1].isalnum()


def test_map_names_drawn_above_have_a_marker_just_below_and_none_just_above() -> None:
    board = classic_board()
    above = _labels_above(board.coords)
    names = [board.territories[t] for t in range(board.n_territories) if above[t]]
    # Read off the board: Alberta lies just below Northwest Territory, Southern Europe below Northern Europe.
    assert "Northwest Territory" in names and "Northern Europe" in names and "Alberta" not in names
