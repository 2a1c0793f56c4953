"""Card-set timing: when to trade a set, compared across 3 to 6 players.

Each policy (:func:`~analyzer.studies.policies.card_policy`) is played by
one seat against a field of the population's bots (the classic heuristic bot,
the planning bot or the strategist, :data:`~analyzer.studies.policies.POPULATIONS`), whose
own policy is to hold until a set is worth 10; the policy's seat is the same
population bot with another card policy, so only the card decisions differ. The first player is drawn
at random in every game, so the policy's seat moves first as often as any
other, and its fair share of wins is ``1 / players``.

All policies at one player count play the same ``n_games`` game seeds
(common random numbers): their drafts and first turns are identical, and
only diverge once a card decision differs. So their win rates share the luck
of those seeds, and the fair comparison is with the baseline policy played on
the same seeds (by default the field's own, ``value:10``): ``vs_baseline``
is the per-game paired difference, with its interval.

>>> table = card_timing([3], ["first", "forced"], n_games=20, seed=1)
>>> table.columns.tolist()[:8]
['n_players', 'policy', 'games', 'wins', 'win_rate', 'ci_low', 'ci_high', 'fair_share']
>>> table.columns.tolist()[8:]
['vs_baseline', 'vs_baseline_low', 'vs_baseline_high', 'capped', 'sets_per_game', 'mean_set_value', 'first_trade_turn']
>>> table["policy"].tolist()
['value:10', 'first', 'forced']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyzer.bots.base import Bot
from analyzer.errors import StudyError
from analyzer.game.vocabulary import player_count
from analyzer.sim.intervals import RATE_COLUMNS, win_rate
from analyzer.sim.result import SimulationResult
from analyzer.sim.runs import BATCH_SIZE
from analyzer.sim.simulate import simulate
from analyzer.studies.policies import CARD_POLICIES, card_policy, population_bot
from analyzer.studies.stats import check_confidence, check_count, paired_difference

#: Player counts of the study: the classic game's claiming draft needs at least 3.
PLAYER_COUNTS = (3, 4, 5, 6)
#: The default bot's own card policy: what every other policy is compared with.
BASELINE = "value:10"


def card_timing(
    player_counts: Sequence[int] = PLAYER_COUNTS,
    policies: Sequence[str] = CARD_POLICIES,
    n_games: int = 1000,
    seed: int = 0,
    *,
    population: str = "classic",
    field: Bot | str | None = None,
    baseline: str | None = BASELINE,
    confidence: float = 0.95,
    workers: int = 1,
    dask: bool = False,
    scheduler: str | None = None,
    batch_size: int = BATCH_SIZE,
    progress: bool = False,
) -> pd.DataFrame:
    """Win rate of each card policy of the ``population``'s bot in seat 0 against ``field`` bots (by
    default the population's own) in the other seats.

    One row per player count and policy (``baseline`` first, added if
    missing): ``n_players``, ``policy``, ``games``, ``wins``, ``win_rate``
    with its Wilson interval ``ci_low`` .. ``ci_high``, ``fair_share`` (``1 /
    n_players``), ``vs_baseline`` (win rate minus the baseline's on the same
    seeds; NaN without a baseline) with a paired t interval
    ``vs_baseline_low`` .. ``vs_baseline_high``, ``capped`` (games with no
    winner, lost by everyone), and for the policy's seat ``sets_per_game``,
    ``mean_set_value`` (armies per set) and ``first_trade_turn`` (mean
    player-turn of its first trade, over the games in which it traded; a round
    is ``n_players`` turns while nobody is out). The options after
    ``field`` are :func:`~analyzer.sim.simulate.simulate`'s.
    """
    confidence = check_confidence(confidence)
    n_games = check_count(n_games, "n_games", 1)
    if not isinstance(player_counts, Sequence) or isinstance(player_counts, str):
        raise StudyError(f"player_counts must be a list of player counts, such as [3, 4], got {player_counts!r}")
    counts = [player_count(n, f"player_counts[{i}]", StudyError) for i, n in enumerate(player_counts)]
    if not counts:
        raise StudyError("player_counts must hold at least one player count, got none")
    if isinstance(policies, str) or not policies:
        raise StudyError(f"policies must be a list of policy names, got {policies!r}")
    names = list(dict.fromkeys(([baseline] if baseline is not None else []) + list(policies)))
    bots = {name: card_policy(name, population) for name in names}
    field = field if field is not None else population_bot(population)
    rows = []
    for n in counts:
        won: dict[str, np.ndarray] = {}
        for name, bot in bots.items():
            result = simulate(
                n,
                [bot] + [field] * (n - 1),
                n_games,
                seed,
                workers=workers,
                dask=dask,
                scheduler=scheduler,
                batch_size=batch_size,
                progress=progress,
            )
            won[name] = result.games.sort_values("game")["winner"].eq(0).fillna(False).to_numpy(dtype=bool)
            outcome = policy_outcome(result, seat=0, confidence=confidence)
            versus = paired_difference(won[name], won[baseline], confidence) if baseline is not None else None
            rows.append(
                {
                    "n_players": n,
                    "policy": name,
                    **{k: outcome.pop(k) for k in (*RATE_COLUMNS, "fair_share")},
                    "vs_baseline": versus.estimate if versus else float("nan"),
                    "vs_baseline_low": versus.ci_low if versus else float("nan"),
                    "vs_baseline_high": versus.ci_high if versus else float("nan"),
                    **outcome,
                }
            )
    return pd.DataFrame(rows)


def policy_outcome(result: SimulationResult, seat: int = 0, confidence: float = 0.95) -> dict[str, float | int]:
    """The win rate and card use of one seat of a run: the columns of :func:`card_timing` after ``policy``."""
    confidence = check_confidence(confidence)
    games = result.games
    n_players = int(result.params.get("n_players", 0)) or int(result.seats["seat"].max()) + 1
    if not 0 <= seat < n_players:
        raise StudyError(f"seat must be from 0 to {n_players - 1}, got {seat!r}")
    n = len(games)
    wins = int((games["winner"] == seat).sum())
    trades = result.trades[result.trades["player"] == seat]
    first_turns = trades.groupby("game")["turn"].min()
    return {
        **win_rate(wins, n, confidence),
        "fair_share": 1.0 / n_players,
        "capped": int(games["capped"].sum()),
        "sets_per_game": len(trades) / n,
        "mean_set_value": float(trades["value"].mean()) if len(trades) else float("nan"),
        "first_trade_turn": float(first_turns.mean()) if len(first_turns) else float("nan"),
    }
