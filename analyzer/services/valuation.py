"""The win chances shown beside a live game: the evaluator's, at the start of each complete turn and now.

Every view takes its figures from :func:`analyzer.analysis.evaluator.chances`; this module says which
positions the strip beside a live game values, by which method, and the key its figures are kept under.
A position's figures are the evaluator's truncated rollouts on seed 0 (:func:`now`), the review's too: 15 to
56 ms of CPU a position on average (2 to 6 players), within about a point a seat of 2,000 whole rollouts on
held-out positions, where the learned model alone is 6.4 points off (``results/bench/bench_value.txt``). Each
position's are kept once made (:data:`KEPT` positions), so an entry values only the positions it made, and a
game opened afresh values its turns a slice of time at a time (:func:`chance_series`).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from functools import lru_cache

from analyzer.analysis.evaluator import CUT_ROLLOUTS, CUT_ROUNDS, ROLLOUTS, Chances, chances
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
    """The chances at the start of each complete turn, then of the game as it stands now (the last one, when
    ``complete``); the table's turn of each; the key of the position now; how many positions the whole series
    has. A series cut short by its time holds its first ``len(chances)`` only."""

    chances: list[Chances]
    turns: tuple[int, ...]
    key: str
    positions: int

    @property
    def complete(self) -> bool:
        return len(self.chances) == self.positions

    @property
    def now(self) -> Chances:
        return self.chances[-1]


def chance_series(game: GameState, seconds: float | None = None) -> Series:
    """:func:`now` over ``game``: at the start of each complete turn, and now.

    With ``seconds``, it stops valuing positions once that much time has passed and returns the turns valued
    so far (at least one), ``complete`` False: a long game opened afresh has every turn to value (a 6-player
    game of 150 turns, several seconds), and a view that waits for all of them holds up the entries behind it.
    The positions valued are kept, so the next call goes on from there.
    """
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
    deadline = None if seconds is None else time.perf_counter() + seconds
    valued: list[Chances] = []
    for p in shown:
        if valued and deadline is not None and time.perf_counter() > deadline:
            break
        valued.append(now(p))
    turns = tuple(turn_number(p) for p in shown[: len(valued)])
    return Series(valued, turns, position_key(game), len(shown))


#: Positions whose figures are kept: the turns of a few long games.
KEPT = 4096


def now(game: GameState) -> Chances:
    """The figures for the position ``game``: :data:`~analyzer.analysis.evaluator.CUT_ROLLOUTS` truncated rollouts
    of :data:`~analyzer.analysis.evaluator.CUT_ROUNDS` rounds on seed 0, so every device and view shows the same."""
    return _now(game.to_json(history=False))


@lru_cache(maxsize=KEPT)
def _now(position: str) -> Chances:
    return chances(
        GameState.from_json(position, trusted=True), "truncated", rollouts=CUT_ROLLOUTS, rounds=CUT_ROUNDS, seed=0
    )


def counted(game: GameState) -> Chances:
    """The chances of ``game`` as it stands, measured by :data:`~analyzer.analysis.evaluator.ROLLOUTS` rollouts of
    the default bot, with their 95% intervals."""
    return chances(game, "rollouts", rollouts=ROLLOUTS)
