"""Exact outcome distributions of one roll of the dice.

A roll is summarised by how many armies each side loses. The probabilities are
derived by enumerating the dice (as sorted multisets weighted by their
multinomial counts), never typed in, so that the engine, the battle solver and
the simulator all share this one source of the dice rules.

>>> from fractions import Fraction
>>> dist = roll_distribution(3, 2)
>>> dist[(0, 2)] == Fraction(2890, 7776)
True
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from analyzer.errors import RulesError
from analyzer.integers import is_whole
from analyzer.kernels import kernel
from analyzer.limits import MAX_DICE, MAX_DICE_SIDES, MAX_ROLL_PAIRS, quote


@kernel(inline=True)
def most_dice(armies: int, most: int, behind: int) -> int:  # pragma: no cover - compiled
    """Dice a side may roll from a territory holding ``armies``: at most ``most``, and ``behind``
    armies may not roll (the attacker's one army that stays behind; the defender has none).

    The one statement of the rule: :class:`DiceRules`, the engine's steps and the solver's sweeps
    all call this kernel.

    >>> most_dice(3, 3, 1), most_dice(1, 2, 0), most_dice(1, 3, 1)
    (2, 1, 0)
    """
    return max(0, min(most, armies - behind))


@dataclass(frozen=True)
class DiceRules:
    """How the dice are rolled and compared.

    The classic rules are the defaults: six-sided dice, at most three attacking
    and two defending dice, ties to the defender.
    """

    sides: int = 6
    attacker_max: int = 3
    defender_max: int = 2
    ties_to_attacker: bool = False

    def __post_init__(self) -> None:
        if not is_whole(self.sides) or not 2 <= self.sides <= MAX_DICE_SIDES:
            raise RulesError(
                f"dice sides must be a whole number from 2 to {MAX_DICE_SIDES} (analyzer.limits.MAX_DICE_SIDES), "
                f"got {quote(self.sides)}"
            )
        for name in ("attacker_max", "defender_max"):
            value = getattr(self, name)
            if not is_whole(value) or not 1 <= value <= MAX_DICE:
                raise RulesError(f"{name} must be a whole number from 1 to {MAX_DICE}, got {quote(value)}")
        for name in ("sides", "attacker_max", "defender_max"):  # a numpy integer kept as an int, for JSON
            object.__setattr__(self, name, int(getattr(self, name)))
        if not isinstance(self.ties_to_attacker, bool):
            raise RulesError(f"ties_to_attacker must be true or false, got {quote(self.ties_to_attacker)}")
        # roll_table enumerates every sorted attack roll against every sorted defence roll.
        pairs = sum(
            math.comb(self.sides + a - 1, a) * math.comb(self.sides + d - 1, d)
            for a in range(1, self.attacker_max + 1)
            for d in range(1, self.defender_max + 1)
        )
        if pairs > MAX_ROLL_PAIRS:
            raise RulesError(
                f"{self.sides}-sided dice, {self.attacker_max} against {self.defender_max}, have {pairs:,} pairs of "
                f"sorted rolls to enumerate; the limit is {MAX_ROLL_PAIRS:,} (analyzer.limits.MAX_ROLL_PAIRS): "
                "use fewer sides or dice"
            )

    def attacker_dice(self, armies: int) -> int:
        """Most dice an attacking territory with ``armies`` armies may roll (one stays behind)."""
        return int(most_dice(armies, self.attacker_max, 1))

    def defender_dice(self, armies: int) -> int:
        """Most dice a defending territory with ``armies`` armies may roll."""
        return int(most_dice(armies, self.defender_max, 0))


CLASSIC_DICE = DiceRules()


def _sorted_rolls(n_dice: int, sides: int) -> list[tuple[tuple[int, ...], int]]:
    """Every roll of ``n_dice`` dice sorted high to low, with how many ordered rolls give it."""
    out = []
    for combo in itertools.combinations_with_replacement(range(sides, 0, -1), n_dice):
        weight = math.factorial(n_dice)
        for count in Counter(combo).values():
            weight //= math.factorial(count)
        out.append((combo, weight))
    return out


@cache
def roll_distribution(
    attacker_dice: int, defender_dice: int, dice: DiceRules = CLASSIC_DICE
) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of ``(attacker_losses, defender_losses)`` for one roll.

    Both sides sort their dice high to low and compare them in pairs; the lower
    die of a pair loses one army, and a tie goes to the defender unless
    ``dice.ties_to_attacker``.
    """
    if attacker_dice < 1 or defender_dice < 1:
        raise RulesError(
            f"a roll needs at least one die a side, got {attacker_dice} attacking and {defender_dice} defending"
        )
    counts: Counter[tuple[int, int]] = Counter()
    pairs = min(attacker_dice, defender_dice)
    for a_roll, a_weight in _sorted_rolls(attacker_dice, dice.sides):
        for d_roll, d_weight in _sorted_rolls(defender_dice, dice.sides):
            a_loss = 0
            for i in range(pairs):
                if a_roll[i] > d_roll[i] or (dice.ties_to_attacker and a_roll[i] == d_roll[i]):
                    continue
                a_loss += 1
            counts[(a_loss, pairs - a_loss)] += a_weight * d_weight
    total = dice.sides ** (attacker_dice + defender_dice)
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


@cache
def roll_table(dice: DiceRules = CLASSIC_DICE) -> np.ndarray:
    """Float probabilities of every roll, indexed ``[attacker_dice, defender_dice, attacker_losses]``.

    The defender's losses are ``min(attacker_dice, defender_dice) - attacker_losses``.
    Entries for impossible combinations are zero. The array is read-only, so it
    can be shared by every caller (and passed into compiled code).
    """
    a_max, d_max = dice.attacker_max, dice.defender_max
    table = np.zeros((a_max + 1, d_max + 1, min(a_max, d_max) + 1))
    for a in range(1, a_max + 1):
        for d in range(1, d_max + 1):
            for (a_loss, _), p in roll_distribution(a, d, dice).items():
                table[a, d, a_loss] = float(p)
    table.setflags(write=False)
    return table
