"""A battle order resolved in one draw from its exact outcome distribution.

The simulator's Python loop, the search and the review draw battles here, from the same numbers
the compiled playout draws from (:func:`analyzer.solver.battle.outcome_cdf`), so a battle comes out
the same whichever path plays it, and no path can forget a rule of the battle (Balanced Blitz).
"""

from __future__ import annotations

import bisect
from functools import lru_cache

import numpy as np

from analyzer.bots.base import BattleOrder
from analyzer.game.actions import Battle
from analyzer.game.dice import DiceRules
from analyzer.game.state import GameState
from analyzer.solver.battle import BattleOptions, kernel_args, outcome_cdf


@lru_cache(maxsize=1 << 16)
def battle_sampler(
    attackers: int, defenders: int, stop_at: int, dice: DiceRules, balanced_blitz: bool = False
) -> tuple[list[float], list[tuple[int, int]]]:
    """Cumulative probabilities and ``(attacker_left, defender_left)`` outcomes of one battle, for
    sampling by inverse CDF: the solver's sweep (:func:`analyzer.solver.battle.outcome_cdf`), the same
    numbers the compiled playout draws from; with ``balanced_blitz``, Balanced Blitz's distribution.

    >>> cdf, outcomes = battle_sampler(2, 1, 1, DiceRules())
    >>> outcomes, [round(c, 4) for c in cdf]
    ([(2, 0), (1, 1)], [0.4167, 1.0])
    >>> [round(c, 4) for c in battle_sampler(2, 1, 1, DiceRules(), balanced_blitz=True)[0]]
    [0.3654, 1.0]
    """
    table, am, dm, _, cap = kernel_args(BattleOptions(dice=dice), stop_at)
    a_left, d_left, cdf = outcome_cdf(attackers, defenders, table, am, dm, stop_at, cap, balanced_blitz)
    return cdf.tolist(), list(zip(a_left.tolist(), d_left.tolist()))


@lru_cache(maxsize=1 << 16)
def battle_means(
    attackers: int, defenders: int, stop_at: int, dice: DiceRules, balanced_blitz: bool = False
) -> tuple[float, float]:
    """The armies each side keeps on average, ``(attacker, defender)``, in the battle :func:`sample_battle`
    draws: what a battle's luck is measured from, as the compiled playout measures it.

    >>> [round(x, 4) for x in battle_means(2, 1, 1, DiceRules())]  # 5/12 the attacker's, kept as 2 and 0
    [1.4167, 0.5833]
    """
    cdf, outcomes = battle_sampler(attackers, defenders, stop_at, dice, balanced_blitz)
    p = np.diff(cdf, prepend=0.0)
    kept = np.array(outcomes, dtype=float)
    return float(p @ kept[:, 0]), float(p @ kept[:, 1])


def sample_battle(
    attackers: int,
    defenders: int,
    stop_at: int,
    dice: DiceRules,
    rng: np.random.Generator,
    balanced_blitz: bool = False,
) -> tuple[int, int]:
    """One draw of ``(attacker_left, defender_left)`` from the solver's exact (or Balanced Blitz's) distribution."""
    cdf, outcomes = battle_sampler(attackers, defenders, stop_at, dice, balanced_blitz)
    return outcomes[bisect.bisect_right(cdf, rng.random())]


def resolve_order(state: GameState, order: BattleOrder, rng: np.random.Generator) -> Battle:
    """The :class:`Battle` that carries out ``order`` in ``state``: one draw from the outcome
    distribution of ``state``'s rules (Balanced Blitz's under ``balanced_blitz``, else the solver's
    exact one). Every Python path that resolves a battle order in one draw goes through here, so that
    none can forget a rule of the battle.
    """
    s, t = order.source, order.target
    rules = state.rules
    a_left, d_left = sample_battle(
        int(state.armies[s]), int(state.armies[t]), order.stop_at, rules.dice, rng, rules.balanced_blitz
    )
    return Battle(s, t, a_left, d_left)
