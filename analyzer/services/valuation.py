"""The win chances shown beside a live game: the evaluator's, at the start of each complete turn and now.

Every view takes its figures from :func:`analyzer.analysis.evaluator.chances` (the learned model of the
default bot's play, or rollouts of it); this module says which positions the strip beside a live game
values, and the key its figures are kept under.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from analyzer.analysis.evaluator import ROLLOUTS, Chances, chances
from analyzer.analysis.review import turn_positions
from analyzer.game.state import GameState, turn_number


def position_key(state: GameState) -> str:
    """The key a position's figures are kept under: a hash of the position without its history.

    >>> import numpy as np
    >>> a = GameState.random_start(3, np.random.default_rng(1))
    >>> position_key(a) == position_key(a.copy()), position_key(a) == position_key(GameState.random_start(3, np.random.default_rng(2)))
    (True, False)
    """
    return hashlib.sha256(state.to_json(history=False).encode()).hexdigest()


@dataclass(frozen=True)
class Series:
    """The chances at the start of each complete turn, then of the game as it stands now (the last one);
    the table's turn of each; the key of the position now."""

    chances: list[Chances]
    turns: tuple[int, ...]
    key: str

    @property
    def now(self) -> Chances:
        return self.chances[-1]


def chance_series(game: GameState) -> Series:
    """The model's chances over ``game``: at the start of each complete turn, and now."""
    positions = turn_positions(game)
    # The game now ends the series, in place of the last complete turn's end if no entry came since (the game
    # itself keeps its players' names, which the turns' positions leave out).
    if positions and (game.turn, game.phase, game.pending) == (
        positions[-1].turn,
        positions[-1].phase,
        positions[-1].pending,
    ):
        positions.pop()
    shown = [*positions, game]
    return Series([chances(p) for p in shown], tuple(turn_number(p) for p in shown), position_key(game))


def counted(game: GameState) -> Chances:
    """The chances of ``game`` as it stands, measured by :data:`~analyzer.analysis.evaluator.ROLLOUTS` rollouts of
    the default bot, with their 95% intervals."""
    return chances(game, "rollouts", rollouts=ROLLOUTS)
