"""Position evaluation: each player's chance to win from a mid-game state, by rollouts.

Every rollout plays the position on to the end with the given bots (one per
seat), with its own generator from ``SeedSequence(seed, spawn_key=(i,))``,
on the simulator's backends (:func:`analyzer.sim.simulate.simulate`), so the
estimate is reproducible whatever the workers.

>>> import numpy as np
>>> from analyzer.game.state import GameState
>>> state = GameState.random_start(3, np.random.default_rng(2))
>>> ev = evaluate(state, "default", rollouts=20, seed=1, progress=False)
>>> ev.table.columns.tolist()
['player', 'bot', 'games', 'wins', 'win_rate', 'ci_low', 'ci_high']
>>> int(ev.table["wins"].sum()) + ev.capped == 20
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.bots.base import Bot
from analyzer.errors import SimulationError
from analyzer.game.state import GameState
from analyzer.integers import whole_number
from analyzer.sim.intervals import check_confidence, win_rate
from analyzer.sim.result import SimulationResult
from analyzer.sim.runs import BATCH_SIZE, DEFAULT_MAX_ROUNDS
from analyzer.sim.simulate import simulate


@dataclass(frozen=True)
class Evaluation:
    """Each player's estimated chance to win, with Wilson intervals at ``confidence``.

    ``table`` has one row per player: ``player``, ``bot``, then the win rate's columns
    (:data:`analyzer.sim.intervals.RATE_COLUMNS`: ``games``, the rollouts, ``wins``, ``win_rate``,
    ``ci_low``, ``ci_high``). ``capped`` rollouts reached the round cap with no winner; they count as
    a loss for everyone, so the ``win_rate`` sum to ``1 - capped / rollouts``.
    """

    table: pd.DataFrame
    rollouts: int
    capped: int
    confidence: float
    result: SimulationResult

    def to_dict(self) -> dict[str, Any]:
        return {
            "rollouts": self.rollouts,
            "capped": self.capped,
            "confidence": self.confidence,
            "players": self.table.to_dict("records"),
        }


def evaluate(
    state: GameState,
    bots: Sequence[Bot | str] | str,
    rollouts: int = 1000,
    seed: int = 0,
    *,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    confidence: float = 0.95,
    sample_battles: bool = True,
    workers: int = 1,
    dask: bool = False,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    batch_size: int = BATCH_SIZE,
    progress: bool = True,
) -> Evaluation:
    """Estimate each player's chance to win ``state`` by ``rollouts`` games played on by ``bots``.

    ``bots`` is one bot per seat, or one name for every seat. A rollout
    stops with no winner after ``max_rounds`` more rounds. The other options
    are those of :func:`analyzer.sim.simulate.simulate`.
    """
    if not isinstance(state, GameState):
        raise SimulationError(
            f"state must be a GameState (GameState.from_json(text) reads a saved game), got {type(state).__name__}"
        )
    confidence = check_confidence(confidence, SimulationError)
    rollouts = whole_number(rollouts, "rollouts", 1, SimulationError)
    result = simulate(
        state.n_players,
        bots,
        rollouts,
        seed,
        max_rounds=max_rounds,
        sample_battles=sample_battles,
        workers=workers,
        dask=dask,
        scheduler=scheduler,
        checkpoint=checkpoint,
        batch_size=batch_size,
        progress=progress,
        start=state,
    )
    winners = result.games["winner"].dropna().astype(int)
    names = result.params["bot_names"]
    rows = []
    for p in range(state.n_players):
        wins = int((winners == p).sum())
        rows.append({"player": p, "bot": names[p], **win_rate(wins, rollouts, confidence)})
    return Evaluation(
        table=pd.DataFrame(rows),
        rollouts=rollouts,
        capped=int(result.games["capped"].sum()),
        confidence=confidence,
        result=result,
    )
