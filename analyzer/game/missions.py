"""The classic secret-mission cards (the ``missions`` rules option).

The fourteen cards of the classic Secret Mission game. A "destroy" mission
whose colour is the holder's own, or not in the game, or that another player
eliminates first, turns into "occupy 24 territories", as the classic cards say.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.game.board import Board


@dataclass(frozen=True)
class Mission:
    """One mission card. ``kind`` is ``continents``, ``territories`` or ``destroy``."""

    text: str
    kind: str
    continents: tuple[str, ...] = ()
    extra_continents: int = 0
    territories: int = 0
    min_armies: int = 1
    target: int = -1


MISSIONS: tuple[Mission, ...] = (
    Mission("Conquer North America and Africa", "continents", ("North America", "Africa")),
    Mission("Conquer North America and Australia", "continents", ("North America", "Australia")),
    Mission("Conquer Asia and South America", "continents", ("Asia", "South America")),
    Mission("Conquer Asia and Africa", "continents", ("Asia", "Africa")),
    Mission("Conquer Europe, South America and one more continent", "continents", ("Europe", "South America"), 1),
    Mission("Conquer Europe, Australia and one more continent", "continents", ("Europe", "Australia"), 1),
    Mission("Occupy 24 territories", "territories", territories=24),
    Mission("Occupy 18 territories with at least 2 armies in each", "territories", territories=18, min_armies=2),
    *(Mission(f"Destroy all armies of player {k}", "destroy", target=k) for k in range(6)),
)

FALLBACK = 6  # "Occupy 24 territories"


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
