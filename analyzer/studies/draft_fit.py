"""Fitting the planning bot's draft model: the study that makes :data:`analyzer.bots.draft_model.COEFFICIENTS`.

The bots only apply the fitted coefficients (in compiled code); fitting them plays games on the
simulator and fits the studies' draft model, so it lives here, above both.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from analyzer.bots.planner import PLANNER_BOT
from analyzer.game.actions import Claim
from analyzer.game.board import classic_board
from analyzer.game.state import GameState
from analyzer.game.vocabulary import Phase
from analyzer.sim import playout
from analyzer.sim.runs import game_rng
from analyzer.studies.openings import draft_arrays, fit_draft_model


def fit_coefficients(n_players: int, games: int = 3000, seed: int = 101) -> dict[str, float]:
    """Fit the draft model to ``games`` random drafts of ``n_players`` played on by the planning bot
    (a few CPU seconds per thousand games): the terms of
    :data:`analyzer.bots.draft_model.COEFFICIENTS` (made with :data:`analyzer.bots.draft_model.FITTED_WITH`)."""
    board = classic_board()
    # The default bot's play after the claims, which its draft does not change (nor the fitted model then).
    bot = dataclasses.replace(PLANNER_BOT, draft="ease")
    owners, firsts, winners = [], [], []
    for g in range(games):
        rng = game_rng(seed, g)
        state = GameState.new(n_players, rng)
        while state.phase == Phase.SETUP_CLAIM:
            free = np.flatnonzero(state.owner == -1)
            state.apply(Claim(int(free[rng.integers(len(free))])))
        owners.append(state.owner.copy())
        firsts.append(state.first_player)
        playout.play_compiled(state, [bot] * n_players, rng)
        winners.append(-1 if state.winner is None else state.winner)
    arrays = draft_arrays(np.array(owners), np.array(firsts), n_players, board)
    rows = {k: v.reshape(-1) for k, v in arrays.items()}
    rows["won"] = (np.array(winners)[:, None] == np.arange(n_players)[None, :]).reshape(-1)
    rows["n_players"] = np.full(len(rows["won"]), n_players)
    table = fit_draft_model(pd.DataFrame(rows), board=board).coefficients()
    return {
        str(f): float(c)
        for f, c in zip(table["feature"], table["coef"])
        if f != "intercept" and not str(f).startswith("order")
    }
