"""Who is still playing, who holds what, and whether the player to move has a decision: facts the app shows.

>>> from analyzer.game.state import GameState
>>> state = GameState.from_position([0] * 38 + [1] * 4, [3] * 42, n_players=3)
>>> living_players(state)
[0, 1]
>>> continent_holders(state)[-1], continent_holders(state)[0]
(1, 0)
>>> can_suggest_turn(state)
True
"""

from __future__ import annotations

from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase

#: Phases in which the player whose turn it is has a decision to make (where a turn search can start).
TURN_PHASES = (Phase.REINFORCE, Phase.ATTACK, Phase.MOVE_IN, Phase.FORTIFY)


def living_players(state: GameState) -> list[int]:
    """The seats still in the game (the neutral force of a 2-player game is not a seat)."""
    return [p for p in range(state.n_players) if bool(state.alive[p])]


def continent_holders(state: GameState) -> list[int | None]:
    """For each continent of the board, in order, the force holding all of it (a seat or the neutral), or None."""
    return state.continent_holders()


def can_suggest_turn(state: GameState) -> bool:
    """Whether the player to move has a move of their own to make (placing, attacking, moving in, fortifying).

    Not during the setup, a battle's roll, a card draw or after the game is won.
    """
    return not state.is_terminal() and state.phase in TURN_PHASES
