"""The interface every bot shares."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from analyzer.actions import Action
from analyzer.state import GameState


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``choose`` method is a bot.

    ``choose`` is called when ``state.current_player`` is one of the bot's
    seats, and returns a legal action for it. All randomness comes from ``rng``.

    >>> import numpy as np
    >>> from analyzer.actions import EndTurn
    >>> class Pacifist:
    ...     def choose(self, state, rng):
    ...         return state.legal_actions()[-1]  # EndAttack / EndTurn come last
    >>> isinstance(Pacifist(), Bot)
    True
    """

    def choose(self, state: GameState, rng: np.random.Generator) -> Action: ...
