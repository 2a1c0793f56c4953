"""The one check that a source of random draws is what every draw comes from: a ``numpy.random.Generator``.

Every random draw of the package comes from a generator the caller passes in, so that a seed gives the same
games. A seed or ``None`` in its place is refused by name, with how to make one, rather than failing deep
inside a draw.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> check_generator(rng) is rng
True
>>> check_generator(7)
Traceback (most recent call last):
...
analyzer.errors.RiskAnalyzerError: rng must be a numpy.random.Generator, such as numpy.random.default_rng(7), got 7
"""

from __future__ import annotations

import numpy as np

from analyzer.errors import RiskAnalyzerError
from analyzer.limits import quote


def check_generator(
    rng: object, name: str = "rng", error: type[RiskAnalyzerError] = RiskAnalyzerError
) -> np.random.Generator:
    """``rng`` itself if it is a numpy Generator; otherwise ``error``, naming ``name`` and the value."""
    if isinstance(rng, np.random.Generator):
        return rng
    example = (
        f"numpy.random.default_rng({rng})"
        if isinstance(rng, int) and not isinstance(rng, bool)
        else "numpy.random.default_rng(seed)"
    )
    raise error(f"{name} must be a numpy.random.Generator, such as {example}, got {quote(rng)}")
