"""Chances to win the game from a position, by rollouts of bots within a time budget."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.bots.base import Bot
from analyzer.errors import SimulationError
from analyzer.game import face_down
from analyzer.game.labels import player_names
from analyzer.game.state import GameState
from analyzer.sim.evaluate import evaluate
from analyzer.sim.intervals import chance_table


@dataclass(frozen=True)
class WinChances:
    """Each player's chance to win from a position, estimated by rollouts within a time budget.

    ``table`` has one row per player: ``player``, ``wins``, ``p_win`` and the
    Wilson interval ``ci_low``, ``ci_high`` at ``confidence``. ``capped``
    rollouts hit the round cap with no winner and count as a loss for all.
    ``seconds`` is the time the rollouts took. ``assumed`` says what the
    rollouts assumed of cards nobody has seen ("" when every card is known).
    """

    table: pd.DataFrame
    rollouts: int
    capped: int
    confidence: float
    seconds: float
    assumed: str = ""


def face_down_assumption(state: GameState, names: Sequence[str] | None = None) -> str:
    """What an analysis that draws the face-down cards assumes of them, in words ("" if none is face down).

    ``names``: the players' names (default: those kept in ``state``); a position taken out of a game's history
    has none of its own, and its players are still called by their names.

    >>> owner = [0] * 14 + [1] * 14 + [2] * 14
    >>> state = GameState.from_position(owner, [3] * 42, hands={1: ["?", "?"], 2: ["?"]})
    >>> face_down_assumption(state)
    'Face-down cards (Player 2 2, Player 3 1) drawn at random from the 44 cards not yet seen, afresh in each rollout.'
    """
    counts = face_down.counts(state)
    if not any(counts):
        return ""
    names = player_names(state) if names is None else names
    held = ", ".join(f"{names[p]} {k}" for p, k in enumerate(counts) if k)
    return (
        f"Face-down cards ({held}) drawn at random from the {len(face_down.unseen(state))} cards not yet seen, "
        "afresh in each rollout."
    )


#: The bot the rollouts use unless told otherwise: the default bot plays thousands of games in a
#: few seconds, where the random bot's games run long and decide little.
DEFAULT_ROLLOUT_BOT = "default"


def win_chances(
    state: GameState,
    bots: Sequence[Bot | str] | str = DEFAULT_ROLLOUT_BOT,
    *,
    budget: float = 10.0,
    batch: int = 20,
    max_rollouts: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
    on_progress: Callable[[int, float], None] | None = None,
) -> WinChances:
    """:func:`analyzer.sim.evaluate.evaluate` in batches of ``batch`` rollouts until ``budget`` seconds are spent.

    A new batch starts only while time is left (the first always runs), and
    never past ``max_rollouts``; after the first, a batch holds only as many
    rollouts as the time left fits at the pace measured so far, so a slow
    bot cannot overrun the budget by a whole batch. Batch ``k`` is ``evaluate(..., seed=s_k)`` with
    ``s_k`` drawn from ``SeedSequence(seed, spawn_key=(k,))``, so the same
    ``seed`` and batch sizes give the same estimate.
    ``on_progress(rollouts_done, fraction_of_budget_used)`` is called after
    each batch, for a progress bar.

    With face-down cards (:attr:`GameState.face_down`) each rollout draws
    them afresh from its own generator (the simulator's ``start``), so the
    placeholders' identities never decide a rollout.

    >>> import numpy as np
    >>> state = GameState.random_start(3, np.random.default_rng(2))
    >>> chances = win_chances(state, budget=0, batch=4, seed=1)    # no time: one batch
    >>> chances.rollouts, int(chances.table["wins"].sum()) + chances.capped
    (4, 4)
    """
    if batch < 1 or max_rollouts < 1:
        raise SimulationError(f"batch and max_rollouts must be at least 1, got {batch} and {max_rollouts}")
    if not 0 < confidence < 1:
        raise SimulationError(f"confidence must be between 0 and 1, got {confidence!r}")
    started = time.perf_counter()
    wins = np.zeros(state.n_players, dtype=np.int64)
    done = capped = k = 0
    while done == 0 or (time.perf_counter() - started < budget and done < max_rollouts):
        n = min(batch, max_rollouts - done)
        if done:
            elapsed = time.perf_counter() - started
            n = min(n, int((budget - elapsed) / (elapsed / done)))
            if n < 1:
                break
        batch_seed = int(np.random.SeedSequence(seed, spawn_key=(k,)).generate_state(1)[0])
        result = evaluate(state, bots, rollouts=n, seed=batch_seed, progress=False)
        wins += result.table["wins"].to_numpy()
        capped += result.capped
        done += n
        k += 1
        if on_progress is not None:
            on_progress(done, min(1.0, (time.perf_counter() - started) / budget) if budget > 0 else 1.0)
    return WinChances(
        chance_table(wins.tolist(), done, confidence),
        done,
        capped,
        confidence,
        time.perf_counter() - started,
        face_down_assumption(state),
    )
