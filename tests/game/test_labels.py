"""Player and card labels: one place (analyzer.game.labels) that every sentence about a game reads."""

from __future__ import annotations

import numpy as np

from analyzer.analysis.log import log_lines
from analyzer.game.board import classic_board
from analyzer.game.labels import card_label, player_name, player_names, with_player_labels
from analyzer.game.state import GameState
from analyzer.live import LiveGame
from analyzer.plot import player_name as plot_default_name


def test_names_are_the_kept_ones_then_the_defaults_and_the_neutral() -> None:
    two = GameState.from_position([0] * 14 + [1] * 14 + [2] * 14, [1] * 42, n_players=2)
    assert player_names(two) == ["Player 1", "Player 2", "Neutral"]
    named = with_player_labels(two, ["Ann", "Bo"], ["#111111", "#222222"])
    assert player_names(named) == ["Ann", "Bo", "Neutral"] and player_name(named, 2) == "Neutral"
    assert plot_default_name(1) == "Player 2"


def test_cards_read_as_the_table_reads_them() -> None:
    board = classic_board()
    # The classic deck: one card per territory in board order, then the two wilds.
    assert [card_label(board, c) for c in (0, 1, 2, 42, 43)] == [
        "Alaska (infantry)",
        "Northwest Territory (artillery)",
        "Greenland (cavalry)",
        "wild",
        "wild",
    ]


def test_the_log_and_the_recorder_use_the_same_names() -> None:
    live = LiveGame.random(["Ann", "Bo", "Cy"], np.random.default_rng(3))
    s = live.state
    live.place({s.territories_of(s.player)[0]: s.pending})
    line = log_lines(live.state)[-1]
    assert line.name == player_name(live.state, s.player) and f", {line.name}: places" in line.text
