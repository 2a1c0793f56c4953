"""Exact odds of one battle: an attacking territory against one defending territory.

A battle is an absorbing Markov chain on ``(a, d)``: ``a`` armies on the
attacking territory (as counted on the board, so ``a - 1`` of them can roll)
and ``d`` defenders. Every roll's outcome probabilities come from
:func:`analyzer.game.dice.roll_table`, the one source of the dice rules. The chain
ends when the defender is wiped out (the attacker conquers) or when the
attacking territory holds ``stop_at`` armies or fewer (1 by default: nothing
left that can roll).

>>> r = battle(2, 1)                  # one rolling army against one defender
>>> round(r.p_win, 4)
0.4167
>>> battle_exact(2, 1)[(2, 0)]        # the same, as an exact fraction
Fraction(5, 12)
>>> r = battle(10, 5)
>>> print(f"{r.p_win:.4f} {r.expected_attacker_losses:.3f} {r.expected_defender_losses:.3f}")
0.8729 3.927 4.695

How it is computed
------------------
While the attacker rolls all its dice and the defender all of its own (three
against two in the classic game), every roll is an independent draw from one
fixed distribution, and each roll removes ``k`` armies between the two sides.
After ``n`` such rolls the attacker has lost ``L`` armies with probability
``[x^L] P(x)^n``, where ``P`` is the per-roll distribution of the attacker's
losses; both sides' losses only grow, so no path can have left this region
earlier. The battle only leaves the region through its rim, and the
probability of each rim state is followed along ``n`` by a fixed-size linear
recurrence (from ``P * (P^n)' = n P' P^n``), kept in a running scale so that
nothing underflows. That costs O(A + D) instead of the O(A * D) of a plain
dynamic programme over every state; the few states with fewer dice (thin
strips along the edges of the state space) are then swept in order, each
state passing its probability on to the states its roll can reach.

Options
-------
:class:`BattleOptions` holds the choices that do not depend on the armies:

* ``dice``: a :class:`~analyzer.game.dice.DiceRules` (sides, three defence dice for
  a capital, ties to the attacker).
* ``attacker_dice`` / ``defender_dice``: the most dice each side chooses to
  roll (``None``: as many as the rules allow), e.g. a defender who always
  rolls one die.
* ``stop_mode``: how ``stop_at`` is honoured. ``"overshoot"`` (the default, as
  in the board-game calculators) keeps rolling the most dice while the
  territory holds more than ``stop_at``, so a last roll may end below it.
  ``"cap"`` (as Risk: Global Domination does) never risks it: the attacker rolls
  no more dice than it has armies above ``stop_at``, since each die can cost at
  most one army.
* ``balanced_blitz``: Risk: Global Domination's "Balanced Blitz", applied to the
  exact distribution (see :mod:`analyzer.solver.blitz`).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Literal

import numpy as np

from analyzer import integers
from analyzer.errors import BattleInputError
from analyzer.game.dice import DiceRules, most_dice, roll_distribution, roll_table
from analyzer.kernels import kernel
from analyzer.limits import MAX_ARMIES, MAX_SOLVER_CELLS, check_limit
from analyzer.solver.blitz import balance, balanced_win_probability

StopMode = Literal["overshoot", "cap"]

#: Largest ``attackers * defenders`` that :func:`battle_exact` accepts; beyond it the
#: fractions grow to thousands of digits and the float solver is the tool.
EXACT_LIMIT = 40_000


def whole_number(value: object, name: str, minimum: int) -> int:
    """``value`` as an int, or a :class:`BattleInputError` naming it if it is not a whole number >= ``minimum``.

    >>> whole_number(3, "attackers", 2)
    3
    >>> whole_number(2.5, "attackers", 2)
    Traceback (most recent call last):
    ...
    analyzer.errors.BattleInputError: attackers must be a whole number >= 2, got 2.5
    """
    return integers.whole_number(value, name, minimum, BattleInputError)


def check_stop_at(stop_at: object, attackers: int) -> int:
    """``stop_at`` as an int, if it is a whole number from 1 to ``attackers - 1``."""
    stop = whole_number(stop_at, "stop_at", 1)
    if stop >= attackers:
        raise BattleInputError(
            f"stop_at must be below the attacking armies ({attackers}), got {stop}: "
            "the attacker stops once its territory holds stop_at armies or fewer"
        )
    return stop


@dataclass(frozen=True)
class BattleOptions:
    """Dice rules, dice choices and stop semantics of a battle (all classic by default)."""

    dice: DiceRules = field(default_factory=DiceRules)
    attacker_dice: int | None = None
    defender_dice: int | None = None
    stop_mode: StopMode = "overshoot"
    balanced_blitz: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.dice, DiceRules):
            raise BattleInputError(f"dice must be a DiceRules, got {type(self.dice).__name__}")
        for name, most in (("attacker_dice", self.dice.attacker_max), ("defender_dice", self.dice.defender_max)):
            value = getattr(self, name)
            if value is not None and (not integers.is_whole(value) or not 1 <= int(value) <= most):
                raise BattleInputError(f"{name} must be None or a whole number from 1 to {most}, got {value!r}")
        if self.stop_mode not in ("overshoot", "cap"):
            raise BattleInputError(f"stop_mode must be 'overshoot' or 'cap', got {self.stop_mode!r}")
        if not isinstance(self.balanced_blitz, bool):
            raise BattleInputError(f"balanced_blitz must be True or False, got {self.balanced_blitz!r}")

    @property
    def attacker_cap(self) -> int:
        """Most dice the attacker rolls when it has the armies."""
        return self.dice.attacker_max if self.attacker_dice is None else int(self.attacker_dice)

    @property
    def defender_cap(self) -> int:
        """Most dice the defender rolls when it has the armies."""
        return self.dice.defender_max if self.defender_dice is None else int(self.defender_dice)

    def attacker_rolls(self, armies: int, stop_at: int) -> int:
        """Dice rolled from a territory holding ``armies``; 0 once it may no longer attack.

        >>> BattleOptions().attacker_rolls(3, 1), BattleOptions(stop_mode="cap").attacker_rolls(6, 4)
        (2, 2)
        """
        return (
            int(_attacker_dice(armies, self.attacker_cap, stop_at, self.stop_mode == "cap")) if armies > stop_at else 0
        )

    def attacker_rolls_array(self, armies: np.ndarray, stop_at: int) -> np.ndarray:
        """:meth:`attacker_rolls` for every entry of ``armies`` at once."""
        return _attacker_dice_array(
            np.ascontiguousarray(armies, dtype=np.int64), self.attacker_cap, stop_at, self.stop_mode == "cap"
        )

    def defender_rolls(self, armies: int) -> int:
        """Dice rolled by a territory holding ``armies`` defenders."""
        return int(most_dice(armies, self.defender_cap, 0))


CLASSIC = BattleOptions()


def dice_options(
    *,
    capital: bool = False,
    ties_to_attacker: bool = False,
    balanced_blitz: bool = False,
    sides: int = 6,
    cap: bool = False,
    attacker_dice: int | None = None,
    defender_dice: int | None = None,
) -> BattleOptions:
    """The options from the choices of ``risk-analyzer odds`` and the app's calculator: ``--capital``
    (a third defending die), ``--ties-to-attacker``, ``--balanced-blitz``, ``--sides``, ``--cap`` and the
    dice each side chooses to roll.

    >>> dice_options(capital=True).dice.defender_max
    3
    """
    dice = DiceRules(sides=sides, defender_max=3 if capital else 2, ties_to_attacker=ties_to_attacker)
    return BattleOptions(
        dice=dice,
        attacker_dice=attacker_dice,
        defender_dice=defender_dice,
        stop_mode="cap" if cap else "overshoot",
        balanced_blitz=balanced_blitz,
    )


def check_options(options: object) -> BattleOptions:
    """``options`` itself, if it is a :class:`BattleOptions`."""
    if not isinstance(options, BattleOptions):
        raise BattleInputError(f"options must be a BattleOptions, got {type(options).__name__}")
    return options


# --- compiled kernels ------------------------------------------------------------------------------
#
# All of them share one convention: ``table`` is roll_table(dice), ``am``/``dm`` the most dice each
# side rolls, ``s`` the stop threshold and ``cap`` whether dice are capped to stay above it.


@kernel
def _attacker_dice(a: int, am: int, s: int, cap: bool) -> int:
    n = most_dice(a, am, 1)
    if cap:
        n = min(n, a - s)
    return n


@kernel
def _attacker_dice_array(armies, am, s, cap):
    out = np.zeros(armies.shape, dtype=np.int64)
    flat, res = armies.ravel(), out.ravel()
    for i in range(flat.size):
        if flat[i] > s:
            res[i] = _attacker_dice(flat[i], am, s, cap)
    return out


@kernel
def _sweep(low, high, a_bot, a_lo, top, d_top, d_lo, table, am, dm, s, cap):
    """Pass probability from every transient state to the states its roll reaches.

    States are visited by attacker armies descending, then defenders descending:
    a roll never raises either count, so each state is complete when visited.
    Rows ``a >= a_lo`` are stored only for ``d < d_lo`` (in ``high``), rows below
    for every ``d`` (in ``low``, starting at row ``a_bot``). Absorbing states keep
    their probability: column 0 (conquered) and rows ``a <= s`` (stopped).
    """
    for a in range(top, s, -1):
        na = _attacker_dice(a, am, s, cap)
        in_high = a >= a_lo
        d_first = d_lo - 1 if in_high else d_top
        for d in range(d_first, 0, -1):
            m = high[a - a_lo, d] if in_high else low[a - a_bot, d]
            if m == 0.0:
                continue
            nd = min(dm, d)
            pairs = min(na, nd)
            for j in range(pairs + 1):
                q = table[na, nd, j]
                if q == 0.0:
                    continue
                a2 = a - j
                d2 = d - (pairs - j)
                if a2 >= a_lo:
                    high[a2 - a_lo, d2] += m * q
                else:
                    low[a2 - a_bot, d2] += m * q


@kernel
def outcome_arrays(attackers, defenders, table, am, dm, stop_at, cap):
    """One battle's outcomes by the plain sweep (:func:`battle_plain`), for drawing from in compiled code:
    ``(attacker_left, defender_left, probability)`` in :class:`BattleResult`'s order."""
    low = np.zeros((attackers + 1, defenders + 1))
    low[attackers, defenders] = 1.0
    _sweep(low, np.zeros((0, 1)), 0, attackers + 1, attackers, defenders, 1, table, am, dm, stop_at, cap)
    k = 0
    for a in range(attackers + 1):
        if low[a, 0] > 0.0:
            k += 1
    top = min(stop_at, attackers)
    for d in range(1, defenders + 1):
        for a in range(top + 1):
            if low[a, d] > 0.0:
                k += 1
    a_left = np.empty(k, dtype=np.int64)
    d_left = np.empty(k, dtype=np.int64)
    prob = np.empty(k)
    i = 0
    for a in range(attackers, -1, -1):
        if low[a, 0] > 0.0:
            a_left[i], d_left[i], prob[i] = a, 0, low[a, 0]
            i += 1
    for d in range(1, defenders + 1):
        for a in range(top, -1, -1):
            if low[a, d] > 0.0:
                a_left[i], d_left[i], prob[i] = a, d, low[a, d]
                i += 1
    return a_left, d_left, prob


@kernel
def outcome_cdf(attackers, defenders, table, am, dm, stop_at, cap, balanced):
    """:func:`outcome_arrays` with cumulative probabilities, the last exactly 1, for drawing an
    outcome by inverse CDF (the simulator's one draw per battle); with ``balanced``, from Balanced
    Blitz's distribution (:func:`analyzer.solver.blitz.balance`)."""
    a_left, d_left, prob = outcome_arrays(attackers, defenders, table, am, dm, stop_at, cap)
    if balanced:
        prob = balance(prob, np.count_nonzero(d_left == 0))
        # Outcomes cut away must never be drawn, not even by the last entry's rounding to 1.
        keep = prob > 0.0
        a_left, d_left, prob = a_left[keep], d_left[keep], prob[keep]
    cdf = np.cumsum(prob)
    cdf[-1] = 1.0
    return a_left, d_left, cdf


# Double-double arithmetic (a value is hi + lo, about 32 significant digits) for the
# region's recurrences: they run for thousands of steps without the exact mass
# conservation of a plain sweep, so plain float64 would drift by ~1e-13 at 1000 armies.


@kernel
def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@kernel
def _split(a):
    t = 134217729.0 * a
    hi = t - (t - a)
    return hi, a - hi


@kernel
def _dd_add(ah, al, bh, bl):
    s, e = _two_sum(ah, bh)
    e += al + bl
    hi = s + e
    return hi, e - (hi - s)


@kernel
def _dd_mul(ah, al, bh, bl):
    p = ah * bh
    a1, a2 = _split(ah)
    b1, b2 = _split(bh)
    e = ((a1 * b1 - p) + a1 * b2 + a2 * b1) + a2 * b2
    e += ah * bl + al * bh
    hi = p + e
    return hi, e - (hi - p)


@kernel
def _dd_div(ah, al, bh, bl):
    q1 = ah / bh
    ph, pl = _dd_mul(bh, bl, q1, 0.0)
    rh, rl = _dd_add(ah, al, -ph, -pl)
    q2 = rh / bh
    hi = q1 + q2
    return hi, q2 - (hi - q1)


@kernel
def _rescale(wh, wl, k):
    """Divide the window by a power of two (exactly) so its largest entry is in [0.5, 1); return the exponent."""
    biggest = 0.0
    for s in range(k):
        biggest = max(biggest, abs(wh[s]))
    if biggest == 0.0:
        return 0
    e = math.frexp(biggest)[1]
    for s in range(k):
        wh[s] = math.ldexp(wh[s], -e)
        wl[s] = math.ldexp(wl[s], -e)
    return e


@kernel
def _window_start(wh, wl, ph, pl, n, top, k):
    """Set ``w[s] = [x^(top-s)] P(x)^n`` for ``s < k`` (with ``k*n <= top < k*n + k``), as ``w * 2^E``; return ``E``.

    Near the top of its support a power is best built downward from
    ``P[k]^n``, by the recurrence of the reversed polynomial.
    """
    exponent = 0
    lead_h, lead_l = 1.0, 0.0
    for _ in range(n):
        lead_h, lead_l = _dd_mul(lead_h, lead_l, ph[k], pl[k])
        e = math.frexp(lead_h)[1]
        lead_h, lead_l = math.ldexp(lead_h, -e), math.ldexp(lead_l, -e)
        exponent += e
    ch = np.zeros(k)
    cl = np.zeros(k)
    ch[0], cl[0] = lead_h, lead_l
    for r in range(1, k):
        sh, sl = 0.0, 0.0
        for i in range(1, r + 1):
            th, tl = _dd_mul(ph[k - i], pl[k - i], float((n + 1) * i - r), 0.0)
            th, tl = _dd_mul(th, tl, ch[r - i], cl[r - i])
            sh, sl = _dd_add(sh, sl, th, tl)
        dh, dl = _dd_mul(ph[k], pl[k], float(r), 0.0)
        ch[r], cl[r] = _dd_div(sh, sl, dh, dl)
    for s in range(k):
        r = k * n - (top - s)
        if top - s >= 0 and 0 <= r < k:
            wh[s], wl[s] = ch[r], cl[r]
        else:
            wh[s], wl[s] = 0.0, 0.0
    return exponent + _rescale(wh, wl, k)


@kernel
def _window_advance(wh, wl, ph, pl, n, top, k, eh, el):
    """Turn the window of ``P^n`` into that of ``P^(n+1)``; return the exponent taken out by rescaling.

    ``P^(n+1) = P * P^n`` needs ``k`` coefficients below the window; the identity
    ``P (P^n)' = n P' P^n`` gives each from the ``k`` above it.
    """
    for t in range(k):
        eh[t], el[t] = wh[t], wl[t]
    for t in range(k, 2 * k):
        m = top - (t - k)
        if m - k < 0:
            eh[t], el[t] = 0.0, 0.0
            continue
        sh, sl = 0.0, 0.0
        for i in range(k):
            th, tl = _dd_mul(ph[i], pl[i], float(m - i * (n + 1)), 0.0)
            th, tl = _dd_mul(th, tl, eh[t - k + i], el[t - k + i])
            sh, sl = _dd_add(sh, sl, th, tl)
        dh, dl = _dd_mul(ph[k], pl[k], float(m - k * (n + 1)), 0.0)
        eh[t], el[t] = _dd_div(-sh, -sl, dh, dl)
    for s in range(k):
        sh, sl = 0.0, 0.0
        for i in range(k + 1):
            th, tl = _dd_mul(ph[i], pl[i], eh[s + i], el[s + i])
            sh, sl = _dd_add(sh, sl, th, tl)
        wh[s], wl[s] = sh, sl
    return _rescale(wh, wl, k)


@kernel
def _put(low, high, a_bot, a_lo, a, d, p):
    if a >= a_lo:
        high[a - a_lo, d] += p
    else:
        low[a - a_bot, d] += p


@kernel
def _region_exits(A, D, a_lo, d_lo, qh, ql, low, high, a_bot):
    """Deposit, in ``low``/``high``, where a battle from ``(A, D)`` first leaves the full-dice region.

    In the region (``a >= a_lo``, ``d >= d_lo``) every roll has the loss
    distribution ``q`` over ``k + 1`` outcomes (``qh + ql`` in double-double).
    After ``n`` rolls the attacker has lost ``L`` and the defender ``k*n - L``,
    with probability ``[x^L] q(x)^n`` if both are within bounds (losses never
    shrink, so such a state was inside all along). Only states within ``k`` of
    a bound can leave; their probabilities are two windows followed along ``n``.
    """
    k = qh.shape[0] - 1
    ua = A - a_lo
    ud = D - d_lo
    rh = qh[::-1].copy()
    rl = ql[::-1].copy()
    wah, wal, wdh, wdl = np.zeros(k), np.zeros(k), np.zeros(k), np.zeros(k)
    eh, el = np.zeros(2 * k), np.zeros(2 * k)
    na = ua // k
    nd = ud // k
    exp_a = _window_start(wah, wal, qh, ql, na, ua, k)
    exp_d = _window_start(wdh, wdl, rh, rl, nd, ud, k)
    for n in range(min(na, nd), (ua + ud) // k + 1):
        if n >= na:
            for s in range(k):
                lost_a = ua - s
                lost_d = k * n - lost_a
                if lost_a < 0 or lost_d < 0 or lost_d > ud:
                    continue
                mass = math.ldexp(wah[s], exp_a)
                for j in range(k + 1):
                    if lost_a + j > ua or lost_d + k - j > ud:
                        _put(low, high, a_bot, a_lo, A - lost_a - j, D - lost_d - k + j, mass * qh[j])
            exp_a += _window_advance(wah, wal, qh, ql, n, ua, k, eh, el)
        if n >= nd:
            for s in range(k):
                lost_d = ud - s
                lost_a = k * n - lost_d
                # States within k of the attacker's bound were handled above.
                if lost_d < 0 or lost_a < 0 or lost_a > ua - k:
                    continue
                mass = math.ldexp(wdh[s], exp_d)
                for j in range(k + 1):
                    if lost_d + k - j > ud:
                        _put(low, high, a_bot, a_lo, A - lost_a - j, D - lost_d - k + j, mass * qh[j])
            exp_d += _window_advance(wdh, wdl, rh, rl, n, ud, k, eh, el)


@kernel
def _backward(a_max, d_max, win_reward, table, am, dm, s, cap, value, mean_a, mean_d, means):
    """Expected terminal values from every state with ``a <= a_max``, ``d <= d_max``.

    ``value[a, d]`` is the expected ``win_reward[a']`` over conquests (``a'``
    armies left), 0 if the attacker stops. With ``means``, ``mean_a``/``mean_d``
    get the expected armies left on each territory. States are visited so that
    every state a roll can reach is already done.
    """
    for a in range(a_max + 1):
        na = _attacker_dice(a, am, s, cap) if a > s else 0
        for d in range(d_max + 1):
            if d == 0 or na == 0:
                value[a, d] = win_reward[a] if d == 0 else 0.0
                if means:
                    mean_a[a, d] = a
                    mean_d[a, d] = d
                continue
            nd = min(dm, d)
            pairs = min(na, nd)
            v = 0.0
            ea = 0.0
            ed = 0.0
            for j in range(pairs + 1):
                q = table[na, nd, j]
                v += q * value[a - j, d - pairs + j]
                if means:
                    ea += q * mean_a[a - j, d - pairs + j]
                    ed += q * mean_d[a - j, d - pairs + j]
            value[a, d] = v
            if means:
                mean_a[a, d] = ea
                mean_d[a, d] = ed


# --- solver entry points ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Absorbed:
    """Where probability mass ends: ``won[a]`` conquered with ``a`` armies left on the
    attacking territory; ``stopped[a, d]`` stopped with ``a`` armies against ``d`` defenders."""

    won: np.ndarray
    stopped: np.ndarray


def kernel_args(options: BattleOptions, stop_at: int) -> tuple[np.ndarray, int, int, int, bool]:
    """The kernels' shared trailing arguments ``table, am, dm, s, cap``."""
    return (roll_table(options.dice), options.attacker_cap, options.defender_cap, stop_at, options.stop_mode == "cap")


def absorb(start: np.ndarray, defenders: int, stop_at: int, options: BattleOptions) -> Absorbed:
    """Push a distribution of starting armies (``start[a]``, all against ``defenders``) through a battle.

    This is the plain sweep over every state, which costs O(A * D); it is what
    chains need, since their battles start from many army counts at once and
    their defenders are few. Starting masses at ``a <= stop_at`` stop at once.
    """
    top = len(start) - 1
    low = np.zeros((top + 1, defenders + 1))
    low[:, defenders] = start
    # a_lo above every row: all rows are stored in full.
    _sweep(low, np.zeros((0, 1)), 0, top + 1, top, defenders, 1, *kernel_args(options, stop_at))
    cut = min(stop_at, top) + 1
    stopped = np.zeros((stop_at + 1, defenders + 1))
    stopped[:cut, 1:] = low[:cut, 1:]
    return Absorbed(won=low[:, 0].copy(), stopped=stopped)


@cache
def _double_double(a_dice: int, d_dice: int, dice: DiceRules) -> tuple[np.ndarray, np.ndarray]:
    """The roll distribution over attacker losses as ``hi + lo`` pairs, from the exact fractions."""
    dist = roll_distribution(a_dice, d_dice, dice)
    pairs = min(a_dice, d_dice)
    exact = [dist.get((j, pairs - j), Fraction(0)) for j in range(pairs + 1)]
    hi = np.array([float(p) for p in exact])
    lo = np.array([float(p - Fraction(h)) for p, h in zip(exact, hi)])
    return hi, lo


def _solve(attackers: int, defenders: int, stop_at: int, options: BattleOptions, plain: bool = False) -> Absorbed:
    """Absorbed probabilities of one battle, through the full-dice region's closed form unless ``plain``."""
    am, dm = options.attacker_cap, options.defender_cap
    a_lo = stop_at + am if options.stop_mode == "cap" else max(am + 1, stop_at + 1)
    if plain or attackers < a_lo or defenders < dm:
        start = np.zeros(attackers + 1)
        start[attackers] = 1.0
        return absorb(start, defenders, stop_at, options)
    # The lowest row a roll can reach from above the threshold.
    a_bot = max(1, stop_at + 1 - min(am, dm))
    low = np.zeros((a_lo - a_bot, defenders + 1))
    high = np.zeros((attackers - a_lo + 1, dm))
    qh, ql = _double_double(am, dm, options.dice)
    _region_exits(attackers, defenders, a_lo, dm, qh, ql, low, high, a_bot)
    _sweep(low, high, a_bot, a_lo, attackers, defenders, dm, *kernel_args(options, stop_at))
    won = np.zeros(attackers + 1)
    won[a_bot:a_lo] = low[:, 0]
    won[a_lo:] = high[:, 0]
    stopped = np.zeros((stop_at + 1, defenders + 1))
    stopped[a_bot:, 1:] = low[: stop_at + 1 - a_bot, 1:]
    return Absorbed(won=won, stopped=stopped)


@dataclass(frozen=True)
class BattleResult:
    """Every way one battle can end, with its probability.

    The outcomes are three parallel arrays, best for the attacker first:
    conquests by armies left on the attacking territory (descending), then
    stops by defenders left (ascending). Only outcomes of non-zero
    probability are listed, so there are about ``attackers + defenders``.

    ``attackers`` counts every army on the attacking territory; ``rolling``
    (one fewer) is how many can roll. ``attacker_left`` is what stays on the
    attacking territory when the battle ends, before any move into a conquered
    territory.
    """

    attackers: int
    defenders: int
    stop_at: int
    options: BattleOptions
    attacker_left: np.ndarray
    defender_left: np.ndarray
    probability: np.ndarray

    @property
    def rolling(self) -> int:
        """Armies that can roll: all but the one that must stay behind."""
        return self.attackers - 1

    @property
    def p_win(self) -> float:
        """Probability that the attacker conquers the territory."""
        return float(self.probability[self.defender_left == 0].sum())

    @property
    def expected_attacker_losses(self) -> float:
        """Expected armies the attacker loses."""
        return self.attackers - float(self.probability @ self.attacker_left)

    @property
    def expected_defender_losses(self) -> float:
        """Expected armies the defender loses."""
        return self.defenders - float(self.probability @ self.defender_left)

    @property
    def std_attacker_losses(self) -> float:
        """Standard deviation of the attacker's losses."""
        return _std(self.attacker_left, self.probability)

    @property
    def std_defender_losses(self) -> float:
        """Standard deviation of the defender's losses."""
        return _std(self.defender_left, self.probability)

    def attacker_distribution(self) -> np.ndarray:
        """``[a]``: probability that ``a`` armies are left on the attacking territory (survivors plus the one that stays)."""
        return np.bincount(self.attacker_left, weights=self.probability, minlength=self.attackers + 1)

    def defender_distribution(self) -> np.ndarray:
        """``[d]``: probability that ``d`` defenders survive (``[0]`` is :attr:`p_win`)."""
        return np.bincount(self.defender_left, weights=self.probability, minlength=self.defenders + 1)

    def joint(self) -> np.ndarray:
        """Dense ``[attacker_left, defender_left]`` array of shape ``(attackers + 1, defenders + 1)``."""
        out = np.zeros((self.attackers + 1, self.defenders + 1))
        out[self.attacker_left, self.defender_left] = self.probability
        return out

    def p_defender_at_most(self, g: int) -> float:
        """Probability that the defender is worn down to ``g`` armies or fewer (``g = 0``: conquered).

        >>> round(battle(10, 5).p_defender_at_most(1), 4)
        0.901
        """
        g = whole_number(g, "g", 0)
        return float(self.probability[self.defender_left <= g].sum())

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON summary: the keys of ``risk-analyzer odds --json``."""
        return {
            "attackers": self.attackers,
            "rolling": self.rolling,
            "defenders": self.defenders,
            "stop_at": self.stop_at,
            "p_win": self.p_win,
            "expected_attacker_losses": self.expected_attacker_losses,
            "expected_defender_losses": self.expected_defender_losses,
            "std_attacker_losses": self.std_attacker_losses,
            "std_defender_losses": self.std_defender_losses,
            "outcomes": [
                {"attacker": int(a), "defender": int(d), "p": float(p)}
                for a, d, p in zip(self.attacker_left, self.defender_left, self.probability)
            ],
        }


def _std(values: np.ndarray, weights: np.ndarray) -> float:
    mean = float(weights @ values)
    return math.sqrt(max(0.0, float(weights @ (values - mean) ** 2)))


def _result(attackers: int, defenders: int, stop_at: int, options: BattleOptions, ab: Absorbed) -> BattleResult:
    won_a = np.flatnonzero(ab.won > 0)[::-1]
    # Stops ordered by defenders ascending, then attackers descending.
    stop_d, stop_a = np.nonzero(ab.stopped[::-1].T > 0)
    stop_a = ab.stopped.shape[0] - 1 - stop_a
    attacker_left = np.concatenate([won_a, stop_a]).astype(np.int64)
    defender_left = np.concatenate([np.zeros(len(won_a), np.int64), stop_d]).astype(np.int64)
    probability = np.concatenate([ab.won[won_a], ab.stopped[stop_a, stop_d]])
    if options.balanced_blitz:
        # Listed best for the attacker first, as the balance's line of outcomes is.
        probability = balance(probability, len(won_a))
        keep = probability > 0
        attacker_left, defender_left, probability = attacker_left[keep], defender_left[keep], probability[keep]
    return BattleResult(attackers, defenders, stop_at, options, attacker_left, defender_left, probability)


def check_armies(value: object, name: str, minimum: int) -> int:
    """:func:`whole_number`, and at most :data:`analyzer.limits.MAX_ARMIES`."""
    return check_limit(whole_number(value, name, minimum), MAX_ARMIES, name, BattleInputError, "MAX_ARMIES")


def check_cells(cells: int, what: str) -> None:
    """Refuse a solve that would allocate more than :data:`analyzer.limits.MAX_SOLVER_CELLS` probabilities."""
    check_limit(cells, MAX_SOLVER_CELLS, f"the probability cells of {what}:", BattleInputError, "MAX_SOLVER_CELLS")


def _check(
    attackers: object, defenders: object, stop_at: object, options: object
) -> tuple[int, int, int, BattleOptions]:
    a = check_armies(attackers, "attackers", 2)
    d = check_armies(defenders, "defenders", 1)
    s = check_stop_at(stop_at, a)
    # The stopped outcomes are a (stop_at + 1) x (defenders + 1) grid; the rest is linear in the armies.
    check_cells((s + 1) * (d + 1), f"a battle against {d} stopping at {s}")
    return a, d, s, check_options(options)


def battle(attackers: int, defenders: int, *, stop_at: int = 1, options: BattleOptions = CLASSIC) -> BattleResult:
    """Exact outcome distribution of ``attackers`` (armies on the territory) against ``defenders``.

    The attacker keeps attacking until it conquers or its territory holds
    ``stop_at`` armies or fewer.

    >>> r = battle(5, 2, stop_at=3)
    >>> [(int(a), int(d), round(float(p), 4)) for a, d, p in zip(r.attacker_left, r.defender_left, r.probability)]
    [(5, 0, 0.3717), (4, 0, 0.2215), (3, 1, 0.1143), (3, 2, 0.2926)]
    """
    a, d, s, opts = _check(attackers, defenders, stop_at, options)
    return _result(a, d, s, opts, _solve(a, d, s, opts))


def battle_plain(attackers: int, defenders: int, *, stop_at: int = 1, options: BattleOptions = CLASSIC) -> BattleResult:
    """:func:`battle` by the plain O(A * D) sweep over every state: the reference the fast path is checked against."""
    a, d, s, opts = _check(attackers, defenders, stop_at, options)
    check_cells((a + 1) * (d + 1), f"a plain sweep of {a} against {d}")
    return _result(a, d, s, opts, _solve(a, d, s, opts, plain=True))


def battle_exact(
    attackers: int, defenders: int, *, stop_at: int = 1, options: BattleOptions = CLASSIC
) -> dict[tuple[int, int], Fraction]:
    """Exact rational distribution ``{(attacker_left, defender_left): probability}`` of a small battle.

    A separate, plain implementation on :func:`analyzer.game.dice.roll_distribution`,
    kept as the cross-check of the float solver. ``attackers * defenders`` is
    limited to :data:`EXACT_LIMIT`.

    >>> battle_exact(3, 1)
    {(3, 0): Fraction(125, 216), (2, 0): Fraction(455, 2592), (1, 1): Fraction(637, 2592)}
    """
    a0, d0, s, opts = _check(attackers, defenders, stop_at, options)
    if opts.balanced_blitz:
        raise BattleInputError("balanced_blitz reshapes with real exponents; it has no exact rational form")
    if a0 * d0 > EXACT_LIMIT:
        raise BattleInputError(
            f"battle_exact is for small battles (attackers * defenders <= {EXACT_LIMIT}), "
            f"got {a0} * {d0}; use battle() for exact float results"
        )
    mass: dict[tuple[int, int], Fraction] = {(a0, d0): Fraction(1)}
    ended: dict[tuple[int, int], Fraction] = {}
    for a in range(a0, 0, -1):
        for d in range(d0, -1, -1):
            m = mass.pop((a, d), None)
            if m is None:
                continue
            n_att = opts.attacker_rolls(a, s)
            if d == 0 or n_att == 0:
                ended[(a, d)] = m
                continue
            for (a_loss, d_loss), p in roll_distribution(n_att, opts.defender_rolls(d), opts.dice).items():
                key = (a - a_loss, d - d_loss)
                mass[key] = mass.get(key, Fraction(0)) + m * p
    return ended


# --- P(win) for many starts at once, and the inverse ------------------------------------------------


def start_values(
    a_max: int, defenders: int, win_reward: np.ndarray, stop_at: int, options: BattleOptions
) -> np.ndarray:
    """``[a]``: expected ``win_reward[a']`` (``a'`` armies left after conquering) from ``a`` armies against ``defenders``.

    With ``win_reward`` all ones this is P(win) for every start ``a <= a_max``
    at once. Under Balanced Blitz each start is its own reshaped battle.
    """
    check_cells((a_max + 1) * (defenders + 1), f"{a_max} attackers against {defenders}")
    reward = np.ascontiguousarray(win_reward[: a_max + 1], dtype=float)
    if options.balanced_blitz:
        out = np.zeros(a_max + 1)
        for a in range(stop_at + 1, a_max + 1):
            r = battle(a, defenders, stop_at=stop_at, options=options)
            won = r.defender_left == 0
            out[a] = float(r.probability[won] @ reward[r.attacker_left[won]])
        return out
    value = np.zeros((a_max + 1, defenders + 1))
    dummy = np.zeros((1, 1))
    _backward(a_max, defenders, reward, *kernel_args(options, stop_at), value, dummy, dummy, False)
    return value[:, defenders]


def win_grid(max_armies: int, stop_at: int, options: BattleOptions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P(win) and expected armies left on each side from every ``(a, d)`` with ``a, d <= max_armies`` (true random)."""
    n = max_armies
    check_cells(3 * (n + 1) ** 2, f"the tables up to {n} against {n}")
    value, mean_a, mean_d = (np.zeros((n + 1, n + 1)) for _ in range(3))
    _backward(n, n, np.ones(n + 1), *kernel_args(options, stop_at), value, mean_a, mean_d, True)
    return value, mean_a, mean_d


#: Armies beyond which the inverse search gives up (P close to 1 needs few more; this is a guard).
MAX_SEARCH_ARMIES = 1_000_000


def check_probability(p: object) -> float:
    """``p`` as a float, if it is a probability strictly between 0 and 1."""
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 < float(p) < 1:
        raise BattleInputError(f"the target probability must be a number between 0 and 1 (exclusive), got {p!r}")
    return float(p)


def first_reaching(values_up_to: Any, p: float, first: int) -> int:
    """Smallest ``a >= first`` with ``values_up_to(a_max)[a] >= p``, doubling ``a_max`` until one is found."""
    a_max = max(2 * first, 16)
    while True:
        values = values_up_to(a_max)
        hits = np.flatnonzero(values[first:] >= p)
        if hits.size:
            return first + int(hits[0])
        if a_max >= MAX_SEARCH_ARMIES:
            raise BattleInputError(f"no attack of up to {MAX_SEARCH_ARMIES} armies reaches P(win) >= {p}")
        a_max = min(2 * a_max, MAX_SEARCH_ARMIES)


def armies_needed(defenders: int, p: float, *, stop_at: int = 1, options: BattleOptions = CLASSIC) -> int:
    """Fewest armies on the attacking territory that conquer ``defenders`` with probability at least ``p``.

    >>> armies_needed(1, 0.5), armies_needed(10, 0.75)
    (3, 14)
    """
    d = check_armies(defenders, "defenders", 1)
    target = check_probability(p)
    stop = whole_number(stop_at, "stop_at", 1)
    opts = check_options(options)
    plain = BattleOptions(opts.dice, opts.attacker_dice, opts.defender_dice, opts.stop_mode)

    def values(a_max: int) -> np.ndarray:
        v = start_values(a_max, d, np.ones(a_max + 1), stop, plain)
        # Balanced Blitz's win chance depends on the exact one alone.
        return balanced_win_probability(v) if opts.balanced_blitz else v

    return first_reaching(values, target, max(2, stop + 1))
