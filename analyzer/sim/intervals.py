"""Confidence intervals of win rates: the one Wilson score interval every table uses."""

from __future__ import annotations

import math

from scipy.stats import binomtest


def wilson_interval(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``wins / n`` (NaNs when ``n`` is 0).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    if n == 0:
        return math.nan, math.nan
    ci = binomtest(int(wins), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)
