"""A roll's outcomes as :class:`~analyzer.game.actions.Roll` actions with their cumulative probabilities,
sampled the same way by the checked state and the compiled playout."""

from __future__ import annotations

import itertools
from functools import cache

from analyzer.game.actions import Roll
from analyzer.game.dice import DiceRules, roll_distribution


@cache
def roll_cdf(attacker_dice: int, defender_dice: int, dice: DiceRules) -> tuple[list[Roll], list[float]]:
    """The outcomes of a roll and their cumulative probabilities, in the order both paths sample them.

    >>> from analyzer.game.dice import CLASSIC_DICE
    >>> outcomes, cdf = roll_cdf(1, 1, CLASSIC_DICE)
    >>> [(r.attacker_losses, r.defender_losses) for r in outcomes], [round(p, 4) for p in cdf]
    ([(0, 1), (1, 0)], [0.4167, 1.0])
    """
    dist = roll_distribution(attacker_dice, defender_dice, dice)
    outcomes = [Roll(a, d) for a, d in dist]
    cdf = list(itertools.accumulate(float(p) for p in dist.values()))
    cdf[-1] = 1.0  # so that bisect never runs past the last outcome through rounding
    return outcomes, cdf
