"""How players are placed at the end of a game, one rule for a single game and for a simulator's many."""

from __future__ import annotations

import numpy as np


def ranks(winner: np.ndarray, territories: np.ndarray, armies: np.ndarray, eliminated: np.ndarray) -> np.ndarray:
    """Each player's place (1 is first) in each of many games, shape ``(games, players)``: the winner
    (``winner[g]``, -1 for none) first, then more territories, more armies, a later elimination
    (``eliminated[g, p]``: the turn, -1 for never), and seat order last. :meth:`analyzer.game.state.GameState.ranking`
    and the simulator's tables both rank this way.

    >>> ranks(np.array([-1]), np.array([[10, 20, 12]]), np.array([[30, 25, 40]]), np.array([[-1, -1, -1]])).tolist()
    [[3, 1, 2]]
    >>> ranks(np.array([2]), np.array([[0, 0, 42]]), np.array([[0, 0, 90]]), np.array([[5, 9, -1]])).tolist()
    [[3, 2, 1]]
    """
    games, n = territories.shape
    later = np.where(eliminated < 0, 10**9, eliminated)
    seats = np.arange(n)
    order = np.lexsort(
        (
            np.tile(seats, games),
            -later.ravel(),
            -armies.ravel(),
            -territories.ravel(),
            (seats[None, :] != winner[:, None]).ravel(),
            np.repeat(np.arange(games), n),
        )
    )
    place = np.empty(games * n, dtype=np.int64)
    place[order] = np.tile(np.arange(1, n + 1), games)
    return place.reshape(games, n)
