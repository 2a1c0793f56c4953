"""The statistics every study shares: win rates with intervals, differences between groups or paired
runs, and a logistic regression.

Win rates carry Wilson score intervals (:func:`analyzer.sim.intervals.wilson_interval`).
A difference between two groups of seats, say those that hold a continent and
those that do not, carries a percentile bootstrap interval that resamples whole
games (:func:`scipy.stats.bootstrap`): the seats of one game are not
independent, since at most one of them wins.

>>> import pandas as pd
>>> seats = pd.DataFrame({"order": [1, 1, 2, 2], "won": [True, False, False, True]})
>>> rate_table(seats, "order")[["order", "games", "wins", "win_rate"]].to_dict("list")
{'order': [1, 2], 'games': [2, 2], 'wins': [1, 1], 'win_rate': [0.5, 0.5]}
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit
from scipy.stats import DegenerateDataWarning, bootstrap, norm, ttest_1samp

from analyzer.errors import StudyError
from analyzer.integers import whole_number
from analyzer.sim import intervals

#: Resamples of the bootstrap intervals: enough for a stable 95% percentile interval.
BOOTSTRAP_RESAMPLES = 999


def check_confidence(confidence: object) -> float:
    """``confidence`` as a float, if it is a number strictly between 0 and 1 (the simulator's check, as a study's error).

    >>> check_confidence(0.9)
    0.9
    >>> check_confidence(95)
    Traceback (most recent call last):
    ...
    analyzer.errors.StudyError: confidence must be a number between 0 and 1 (exclusive: 0.95 for 95%), got 95
    """
    return intervals.check_confidence(confidence, StudyError)


def check_count(value: object, name: str, minimum: int) -> int:
    """``value`` as an int, if it is a whole number >= ``minimum``."""
    return whole_number(value, name, minimum, StudyError)


def rate_table(
    frame: pd.DataFrame, by: str | Sequence[str], *, outcome: str = "won", confidence: float = 0.95
) -> pd.DataFrame:
    """:func:`analyzer.sim.intervals.rate_table` of a study's table, its columns and ``confidence`` checked."""
    confidence = check_confidence(confidence)
    keys = [by] if isinstance(by, str) else list(by)
    missing = [c for c in [*keys, outcome] if c not in frame.columns]
    if missing:
        raise StudyError(
            f"the table has no column(s) {', '.join(missing)}; it has {', '.join(map(str, frame.columns))}"
        )
    return intervals.rate_table(frame, keys, outcome=outcome, confidence=confidence)


@dataclass(frozen=True)
class Difference:
    """``a_rate - b_rate`` and its bootstrap interval."""

    estimate: float
    ci_low: float
    ci_high: float


def rate_difference(
    game: np.ndarray,
    won: np.ndarray,
    in_a: np.ndarray,
    *,
    strata: np.ndarray | None = None,
    confidence: float = 0.95,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    rng: np.random.Generator | None = None,
) -> Difference:
    """Win rate of the rows in group A minus that of the others, with a bootstrap interval over games.

    ``game``, ``won`` and ``in_a`` are parallel arrays, one entry per seat.
    With ``strata`` (an integer label per row, e.g. a territory-count band),
    the difference is taken within each stratum and averaged with group A's
    counts as weights, so that it compares like with like; strata missing one
    of the groups are left out. The interval is NaN when some resample of the
    games misses group A (or the rest) altogether: a group of a handful of
    seats has no useful interval.

    >>> rng = np.random.default_rng(0)
    >>> game = np.repeat(np.arange(2000), 2)
    >>> in_a = np.tile([True, False], 2000)
    >>> won = np.where(in_a, rng.random(4000) < 0.7, rng.random(4000) < 0.3)
    >>> d = rate_difference(game, won, in_a, rng=np.random.default_rng(1))
    >>> d.ci_low < 0.4 < d.ci_high
    True
    """
    confidence = check_confidence(confidence)
    n_resamples = check_count(n_resamples, "n_resamples", 2)
    game = np.asarray(game)
    won = np.asarray(won, dtype=bool)
    in_a = np.asarray(in_a, dtype=bool)
    if not (len(game) == len(won) == len(in_a)):
        raise StudyError(
            f"game, won and in_a must have one entry per seat, got lengths {len(game)}, {len(won)}, {len(in_a)}"
        )
    labels = np.zeros(len(game), dtype=np.int64) if strata is None else np.asarray(strata, dtype=np.int64)
    games, g = np.unique(game, return_inverse=True)
    _, s = np.unique(labels, return_inverse=True)
    n_strata = int(s.max()) + 1 if len(s) else 1
    # Per game and stratum: wins and seats of group A, then of the rest; a resample of games sums them.
    cell = g * n_strata + s
    parts = [
        np.bincount(cell, weights=w, minlength=len(games) * n_strata).reshape(len(games), n_strata)
        for w in (won & in_a, in_a, won & ~in_a, ~in_a)
    ]
    per_game = np.concatenate(parts, axis=1)

    def statistic(sums: np.ndarray) -> float:
        a_wins, a_n, b_wins, b_n = np.split(sums, 4)
        ok = (a_n > 0) & (b_n > 0)
        if not ok.any():
            return math.nan
        diff = a_wins[ok] / a_n[ok] - b_wins[ok] / b_n[ok]
        return float(diff @ a_n[ok] / a_n[ok].sum())

    estimate = statistic(per_game.sum(axis=0))
    if math.isnan(estimate) or len(games) < 2:
        return Difference(estimate, math.nan, math.nan)
    with warnings.catch_warnings():
        # A resample that misses one group has no difference; the interval is then NaN, as documented.
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = bootstrap(
            (np.arange(len(games)),),
            lambda idx: statistic(np.bincount(idx, minlength=len(games)) @ per_game),
            vectorized=False,
            n_resamples=n_resamples,
            confidence_level=confidence,
            method="percentile",
            rng=rng if rng is not None else np.random.default_rng(0),
        )
    return Difference(estimate, float(result.confidence_interval.low), float(result.confidence_interval.high))


def paired_difference(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> Difference:
    """Mean of ``a - b`` over paired trials (say, two policies on the same game seeds) with a t
    interval (:func:`scipy.stats.ttest_1samp`); pairing removes what each pair shares.

    >>> d = paired_difference(np.array([1, 0, 1, 1]), np.array([1, 0, 0, 1]))
    >>> d.estimate
    0.25
    >>> paired_difference(np.array([1, 0]), np.array([1, 0]))
    Difference(estimate=0.0, ci_low=0.0, ci_high=0.0)
    """
    confidence = check_confidence(confidence)
    if np.ndim(a) != 1 or np.shape(a) != np.shape(b) or len(a) < 2:
        raise StudyError(
            f"a paired difference needs two equal-length series of at least 2 trials, got {np.shape(a)} and {np.shape(b)}"
        )
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    estimate = float(diff.mean())
    if np.all(diff == diff[0]):
        return Difference(estimate, estimate, estimate)
    ci = ttest_1samp(diff, 0.0).confidence_interval(confidence_level=confidence)
    return Difference(estimate, float(ci.low), float(ci.high))


#: A difference in win rate too small to matter to a player: one point either side of 0.
EQUIVALENCE_MARGIN = 0.01
#: Fewest positions a cell of advice needs for an interval: below it a t interval of a few 0/1-heavy differences
#: (all equal, say) would claim a precision the cell does not have.
MIN_POSITIONS = 30
#: What :func:`verdicts` says of a finding measured in one or more populations, in the order it decides.
VERDICTS = ("holds", "reverses", "equivalent", "mixed")


def verdicts(low: np.ndarray, high: np.ndarray, margin: float = EQUIVALENCE_MARGIN) -> np.ndarray:
    """The verdict of each finding (a row) from its intervals ``low`` .. ``high`` in each population
    (a column; one column for a finding measured once): **holds** when every interval excludes 0 on
    the same side, **reverses** when every interval excludes 0 but not all on the same side,
    **equivalent** when every interval lies within ``margin`` of 0 (the effect, if any, is too small
    to matter), **mixed** otherwise. A NaN bound makes a finding ``mixed``.

    >>> verdicts(np.array([[0.02, 0.01], [0.02, -0.2], [-0.004, -0.009], [-0.03, 0.01]]),
    ...          np.array([[0.05, 0.03], [0.05, -0.1], [0.008, 0.002], [0.02, 0.05]])).tolist()
    ['holds', 'reverses', 'equivalent', 'mixed']
    """
    low = np.atleast_2d(np.asarray(low, dtype=float).T).T
    high = np.atleast_2d(np.asarray(high, dtype=float).T).T
    if low.shape != high.shape:
        raise StudyError(
            f"low and high must have one bound per finding and population, got {low.shape} and {high.shape}"
        )
    above, below = low > 0, high < 0
    inside = (low >= -margin) & (high <= margin)
    return np.select(
        [above.all(axis=1) | below.all(axis=1), (above | below).all(axis=1), inside.all(axis=1)],
        list(VERDICTS[:3]),
        VERDICTS[3],
    )


def advice(estimate: np.ndarray, low: np.ndarray, high: np.ndarray, do: str, dont: str) -> list[str]:
    """A player's reading of each difference (doing something minus not doing it) with its interval:
    ``do`` or ``dont`` where its :func:`verdicts` is ``holds`` (by the sign), ``either`` where it is
    ``equivalent``, ``undecided`` otherwise.

    >>> advice(np.array([0.05, -0.05, 0.0, 0.0]), np.array([0.02, -0.08, -0.005, -0.05]),
    ...        np.array([0.08, -0.02, 0.005, 0.05]), "trade now", "hold")
    ['trade now', 'hold', 'either', 'undecided']
    """
    verdict = verdicts(np.asarray(low, dtype=float), np.asarray(high, dtype=float))
    sign = np.asarray(estimate, dtype=float) > 0
    return [
        (do if up else dont) if v == "holds" else "either" if v == "equivalent" else "undecided"
        for v, up in zip(verdict, sign)
    ]


@dataclass(frozen=True)
class LogisticFit:
    """A fitted logistic regression: ``P(y) = expit(intercept + X @ coef)``.

    ``cov`` is the inverse of the penalised information matrix at the fit: the
    usual Wald covariance, or with ``l2 > 0`` the Laplace approximation of the
    posterior under a normal prior of variance ``1 / l2`` on each coefficient.
    """

    names: tuple[str, ...]
    intercept: float
    coef: np.ndarray
    cov: np.ndarray
    l2: float
    n: int
    log_loss: float

    def predict(self, X: np.ndarray) -> np.ndarray:
        """P(y) for each row of ``X`` (columns in the order of :attr:`names`)."""
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != len(self.names):
            raise StudyError(
                f"expected rows of {len(self.names)} features ({', '.join(self.names)}), got shape {X.shape}"
            )
        return expit(self.intercept + X @ self.coef)

    def table(self, confidence: float = 0.95) -> pd.DataFrame:
        """One row per term: ``feature`` (``"intercept"`` first), ``coef``, ``std_error``, ``ci_low``, ``ci_high``."""
        z = norm.ppf(0.5 + check_confidence(confidence) / 2)
        values = np.r_[self.intercept, self.coef]
        se = np.sqrt(np.diag(self.cov))
        return pd.DataFrame(
            {
                "feature": ["intercept", *self.names],
                "coef": values,
                "std_error": se,
                "ci_low": values - z * se,
                "ci_high": values + z * se,
            }
        )


def fit_logistic(X: np.ndarray, y: np.ndarray, names: Sequence[str], *, l2: float = 1.0) -> LogisticFit:
    """Maximum-likelihood logistic regression with an L2 penalty ``l2 / 2 * |coef|^2`` (not on the
    intercept), fitted by Newton's method with a trust region (:func:`scipy.optimize.minimize`).

    A small penalty keeps rare one-hot features (a count seen in a handful of
    drafts) finite without moving the well-supported ones.

    >>> rng = np.random.default_rng(4)
    >>> X = rng.normal(size=(5000, 2))
    >>> y = rng.random(5000) < expit(-0.5 + X @ [1.0, -2.0])
    >>> fit = fit_logistic(X, y, ["a", "b"], l2=0.0)
    >>> np.round(fit.coef, 1).tolist(), round(fit.intercept, 1)
    ([1.0, -2.0], -0.5)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or X.shape[0] != len(y) or X.shape[1] != len(names):
        raise StudyError(f"expected {len(y)} rows of {len(names)} features, got X of shape {X.shape}")
    if isinstance(l2, bool) or not isinstance(l2, numbers.Real) or l2 < 0:
        raise StudyError(f"l2 must be a number >= 0, got {l2!r}")
    if len(y) == 0 or y.min() == y.max():
        raise StudyError("a logistic fit needs both outcomes among its rows (some wins and some losses)")
    design = np.column_stack([np.ones(len(y)), X])
    penalty = np.full(design.shape[1], float(l2))
    penalty[0] = 0.0

    def loss(beta: np.ndarray) -> float:
        z = design @ beta
        return float(np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * penalty @ beta**2)

    def grad(beta: np.ndarray) -> np.ndarray:
        return design.T @ (expit(design @ beta) - y) + penalty * beta

    def hess(beta: np.ndarray) -> np.ndarray:
        p = expit(design @ beta)
        return (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty)

    start = np.zeros(design.shape[1])
    start[0] = math.log(y.mean() / (1 - y.mean()))
    found = minimize(loss, start, jac=grad, hess=hess, method="trust-exact")
    if not found.success:
        raise StudyError(f"the logistic fit did not converge: {found.message}")
    beta = found.x
    cov = np.linalg.pinv(hess(beta))
    p = expit(design @ beta)
    log_loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log1p(-p)))
    return LogisticFit(tuple(names), float(beta[0]), beta[1:], cov, float(l2), len(y), log_loss)
