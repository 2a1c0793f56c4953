"""The interface every bot shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from analyzer.game.actions import Action
from analyzer.game.state import GameState


@dataclass(frozen=True)
class BattleOrder:
    """A whole battle a bot asks for in the attack phase: attack ``target`` from
    ``source`` until it falls or ``source`` holds ``stop_at`` armies or fewer.

    The stop rule is the battle solver's (:func:`analyzer.solver.battle.battle`), so
    the simulator can resolve the order either in one draw from the solver's
    exact distribution or roll by roll, with the same outcome distribution.
    ``stop_at`` must be below the armies on ``source``.
    """

    source: int
    target: int
    stop_at: int = 1


#: What :meth:`Bot.choose` returns: an engine action, or in the attack phase a :class:`BattleOrder`.
Decision = Action | BattleOrder


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``choose`` method is a bot.

    ``choose`` is called when ``state.current_player`` is one of the bot's
    seats, and returns a legal action for it, or in the attack phase a
    :class:`BattleOrder` for a whole battle. All randomness comes from ``rng``.
    Bots are shared by every game a worker plays, so they keep no per-game
    state, and they must be picklable to run on other processes.

    >>> import numpy as np
    >>> from analyzer.game.actions import EndTurn
    >>> class Pacifist:
    ...     def choose(self, state, rng):
    ...         return state.legal_actions()[-1]  # EndAttack / EndTurn come last
    >>> isinstance(Pacifist(), Bot)
    True
    """

    def choose(self, state: GameState, rng: np.random.Generator) -> Decision: ...
