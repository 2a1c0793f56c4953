"""Helping a setup along at the table: who places next, where they likely tap, and finishing the rest at once.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> state = GameState(3, first_player=0)
>>> state.board.continents[likely_continent(state)].name     # nothing claimed yet: the most free territories
'Asia'
>>> for t in random_claims(state, np.random.default_rng(1)):
...     state.apply(Claim(t))
>>> state.phase.name, int((state.owner >= 0).sum())
('SETUP_PLACE', 42)
>>> spread = spread_rest(state)
>>> [sum(spread[force].values()) for force in range(3)] == [int(k) for k in state.pool]
True
"""

from __future__ import annotations

import numpy as np

from analyzer.errors import IllegalActionError
from analyzer.game.actions import Claim, Place, Territory  # noqa: F401 - the docstring's example claims
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase


def setup_force(state: GameState) -> int:
    """The force (a seat, or the neutral of a 2-player game) whose army goes down next in the setup."""
    if state.phase != Phase.SETUP_PLACE:
        raise IllegalActionError(f"starting armies are placed in phase SETUP_PLACE, not {state.phase.name}")
    first = state.legal_actions()[0]
    assert isinstance(first, Place)
    return int(state.owner[int(first.territory)])


def likely_continent(state: GameState) -> int:
    """The continent the next claim or starting army most likely goes to, for the map to open on.

    Claiming: the continent where the player to move holds most territories
    among those with a free territory left (ties: the most free territories),
    or, with no claim yet, the one with the most free territories. Placing:
    the continent holding most of the placing force's territories.
    """
    board = state.board
    if state.phase == Phase.SETUP_PLACE:
        force = setup_force(state)
        held = [int(np.count_nonzero(state.owner[list(c.territories)] == force)) for c in board.continents]
        return int(np.argmax(held))
    free = [int(np.count_nonzero(state.owner[list(c.territories)] < 0)) for c in board.continents]
    mine = [
        int(np.count_nonzero(state.owner[list(c.territories)] == state.player)) if f else -1
        for c, f in zip(board.continents, free)
    ]
    return max(range(len(free)), key=lambda c: (mine[c], free[c]))


def random_claims(state: GameState, rng: np.random.Generator) -> list[int]:
    """The territories still free, in a random order drawn from ``rng``: claimed in turn, they finish the claims."""
    if state.phase != Phase.SETUP_CLAIM:
        raise IllegalActionError(f"territories are claimed in phase SETUP_CLAIM, not {state.phase.name}")
    free = np.flatnonzero(state.owner < 0)
    return [int(t) for t in rng.permutation(free)]


def spread_rest(state: GameState) -> dict[int, dict[Territory, int]]:
    """Every force's starting armies still to place, one at a time on its territory holding the fewest.

    ``{force: {territory: armies}}``, as :meth:`analyzer.live.LiveGame.place_starting` takes it; ties go
    to the territory listed first on the board.
    """
    if state.phase != Phase.SETUP_PLACE:
        raise IllegalActionError(f"starting armies are placed in phase SETUP_PLACE, not {state.phase.name}")
    out: dict[int, dict[Territory, int]] = {}
    for force in range(len(state.pool)):
        mine = [int(t) for t in np.flatnonzero(state.owner == force)]
        armies = {t: int(state.armies[t]) for t in mine}
        counts: dict[Territory, int] = {}
        for _ in range(int(state.pool[force])):
            t = min(mine, key=lambda u: (armies[u], u))
            armies[t] += 1
            counts[t] = counts.get(t, 0) + 1
        out[force] = counts
    return out
