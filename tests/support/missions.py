"""A second, plain-Python reading of the mission cards, for the tests to hold the compiled engine's check to."""

from __future__ import annotations

import numpy as np

from analyzer.game.board import Board
from analyzer.game.missions import FALLBACK, MISSIONS, Mission


def effective_mission(mission_id: int, player: int, n_players: int, eliminated_by: np.ndarray) -> Mission:
    """The mission a player must fulfil now, after the destroy-mission fallbacks."""
    mission = MISSIONS[mission_id]
    if mission.kind == "destroy":
        target = mission.target
        if target == player or target >= n_players or eliminated_by[target] not in (-1, player):
            return MISSIONS[FALLBACK]
    return mission


def is_complete(
    mission_id: int,
    player: int,
    board: Board,
    owner: np.ndarray,
    armies: np.ndarray,
    n_players: int,
    eliminated_by: np.ndarray,
) -> bool:
    """Whether ``player`` has fulfilled mission ``mission_id`` on this board position."""
    mission = effective_mission(mission_id, player, n_players, eliminated_by)
    mine = owner == player
    if mission.kind == "territories":
        return int(np.count_nonzero(mine & (armies >= mission.min_armies))) >= mission.territories
    if mission.kind == "destroy":
        return bool(eliminated_by[mission.target] == player)
    held = [bool(np.all(mine[board.continent_masks[c]])) for c in range(len(board.continents))]
    named = [board.continent_index(name) for name in mission.continents]
    if not all(held[c] for c in named):
        return False
    others = sum(held) - len(named)
    return others >= mission.extra_continents
