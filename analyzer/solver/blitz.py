"""Balanced Blitz: Risk: Global Domination's reshaping of a battle's exact outcome distribution.

The digital game's "Balanced Blitz" dice mode takes the true-random
distribution of every way a battle can end and applies four steps, each to
the result of the one before (SMG Studio's published dice code, with the
constants below):

1. **Win-chance cutoff** (:func:`win_chance_cutoff`): a side whose chance of
   winning is at most :data:`WIN_CUTOFF` never wins; the other side's
   outcomes are scaled up to sum to 1.
2. **Win-chance power** (:func:`win_chance_power`): both sides' chances of
   winning are raised to :data:`WIN_POWER` and renormalised to sum to 1; each
   side's outcomes are scaled to its new total.
3. **Outcome cutoff** (:func:`outcome_cutoff`): all outcomes on one line, from
   best for the attacker to worst, lose :data:`OUTCOME_CUTOFF` of probability
   from each end (an outcome straddling a cut keeps its inner part); the rest
   is renormalised to sum to 1. This can change who is favoured.
4. **Outcome power** (:func:`outcome_power`): every outcome is raised to
   :data:`OUTCOME_POWER`, then each side's outcomes are scaled back to that
   side's chance of winning.

"Winning" for the attacker is conquering; for the defender it is any other
end (the attacker wiped down to its stop threshold). The kernels take the
outcomes as one array in that line's order, the attacker's conquests first,
best first (as :class:`~analyzer.solver.battle.BattleResult` lists them), and
``n_won``, how many of them are conquests. They are compiled, so the
simulator's compiled loop reshapes battles as the solver does.

One rolling army against one defender (5/12 against 7/12): the power moves
the win chance away from 1/2, and the cut takes 0.1 off each side:

>>> import numpy as np
>>> p = np.array([5 / 12, 7 / 12])
>>> w = 5**1.3 / (5**1.3 + 7**1.3)
>>> bool(np.allclose(win_chance_power(p, 1), [w, 1 - w]))
True
>>> bool(np.allclose(balance(p, 1), [(w - 0.1) / 0.8, (0.9 - w) / 0.8]))
True

The win chance after all four steps depends on the true-random one alone
(:func:`balanced_win_probability`), which lets a search over many battles
skip their distributions.
"""

from __future__ import annotations

import numpy as np

from analyzer.kernels import kernel

#: A side whose chance of winning is at most this never wins (step 1).
WIN_CUTOFF = 0.05
#: Exponent of the two sides' chances of winning (step 2).
WIN_POWER = 1.3
#: Probability cut off each end of the line of outcomes (step 3).
OUTCOME_CUTOFF = 0.1
#: Exponent of every outcome's probability (step 4).
OUTCOME_POWER = 1.8


@kernel
def _scale(p, lo, hi, target):
    """Scale ``p[lo:hi]`` in place to sum to ``target`` (a side with no mass stays at 0)."""
    total = 0.0
    for i in range(lo, hi):
        total += p[i]
    if total > 0.0:
        ratio = target / total
        for i in range(lo, hi):
            p[i] *= ratio


@kernel
def _sides(p, n_won):
    """The attacker's and the defender's chances of winning."""
    won = 0.0
    for i in range(n_won):
        won += p[i]
    lost = 0.0
    for i in range(n_won, p.shape[0]):
        lost += p[i]
    return won, lost


@kernel
def win_chance_cutoff(p, n_won):
    """Step 1: a side with a chance of winning of at most :data:`WIN_CUTOFF` never wins.

    >>> win_chance_cutoff(np.array([0.04, 0.48, 0.48]), 1).tolist()
    [0.0, 0.5, 0.5]
    """
    out = p.copy()
    n = out.shape[0]
    won, lost = _sides(out, n_won)
    if won <= WIN_CUTOFF:
        out[:n_won] = 0.0
        _scale(out, n_won, n, 1.0)
    elif lost <= WIN_CUTOFF:
        out[n_won:] = 0.0
        _scale(out, 0, n_won, 1.0)
    return out


@kernel
def win_chance_power(p, n_won):
    """Step 2: both chances of winning raised to :data:`WIN_POWER` and renormalised; each side scaled to its own."""
    out = p.copy()
    won, lost = _sides(out, n_won)
    a = won**WIN_POWER
    b = lost**WIN_POWER
    _scale(out, 0, n_won, a / (a + b))
    _scale(out, n_won, out.shape[0], b / (a + b))
    return out


@kernel
def outcome_cutoff(p, n_won):
    """Step 3: :data:`OUTCOME_CUTOFF` of probability off each end of the line of outcomes, then renormalised.

    Renormalising the whole line is the same as recomputing both chances of
    winning from what is left, renormalising them to sum to 1 and scaling each
    side to its new total. ``n_won`` does not matter here: the line is one.

    >>> outcome_cutoff(np.array([0.15, 0.05, 0.8]), 1).round(12).tolist()
    [0.0625, 0.0625, 0.875]
    """
    out = np.empty_like(p)
    total = p.sum()
    lo = OUTCOME_CUTOFF * total
    hi = total - lo
    below = 0.0
    kept = 0.0
    for i in range(p.shape[0]):
        above = below + p[i]
        # The part of this outcome's slice [below, above) of the line between the two cuts.
        out[i] = max(0.0, min(above, hi) - max(below, lo))
        kept += out[i]
        below = above
    if kept > 0.0:
        out /= kept
    return out


@kernel
def _power_side(out, p, lo, hi):
    """``out[lo:hi]``: ``p[lo:hi]`` raised to :data:`OUTCOME_POWER`, scaled back to the side's total."""
    biggest = 0.0
    for i in range(lo, hi):
        biggest = max(biggest, p[i])
    if biggest == 0.0:
        return
    total = 0.0
    for i in range(lo, hi):
        total += p[i]
    # Relative to the largest outcome, so that small outcomes do not underflow on the way.
    for i in range(lo, hi):
        out[i] = (p[i] / biggest) ** OUTCOME_POWER
    _scale(out, lo, hi, total)


@kernel
def outcome_power(p, n_won):
    """Step 4: every outcome raised to :data:`OUTCOME_POWER`; each side keeps its chance of winning."""
    out = np.zeros_like(p)
    _power_side(out, p, 0, n_won)
    _power_side(out, p, n_won, p.shape[0])
    return out


@kernel
def balance(p, n_won):
    """The four steps in order: Balanced Blitz's distribution from the true-random one ``p``.

    ``p`` lists every outcome, best for the attacker first, its first ``n_won``
    the attacker's conquests; the result is in the same order (outcomes cut
    away have probability 0).
    """
    return outcome_power(outcome_cutoff(win_chance_power(win_chance_cutoff(p, n_won), n_won), n_won), n_won)


def balanced_win_probability(p_win: float | np.ndarray) -> np.ndarray:
    """The attacker's chance of conquering under Balanced Blitz, from the true-random chance ``p_win``.

    Steps 1 to 3 move probability between the sides by amounts that depend
    on the sides' totals alone (step 3 takes :data:`OUTCOME_CUTOFF` from the
    attacker's side and as much from the defender's, whenever each has that
    much), and step 4 keeps them; so this is :func:`balance`'s win chance
    without the distribution, for every entry of ``p_win`` at once.

    >>> balanced_win_probability(np.array([0.04, 0.5, 0.8])).round(4).tolist()
    [0.0, 0.5, 0.948]
    """
    p = np.asarray(p_win, dtype=float)
    w = np.where(p <= WIN_CUTOFF, 0.0, np.where(1.0 - p <= WIN_CUTOFF, 1.0, p))
    a = w**WIN_POWER
    b = (1.0 - w) ** WIN_POWER
    w = a / (a + b)
    return np.clip((w - OUTCOME_CUTOFF) / (1.0 - 2.0 * OUTCOME_CUTOFF), 0.0, 1.0)
