"""What counts as a whole number in what a user hands in, decided once.

A whole number is any integral number (a Python ``int``, a numpy integer) but a
truth value: ``True`` is an ``int`` to Python, never an army count to a player.
A float is refused even when it is whole (``3.0``): a front end whose widgets
hand back floats turns them into ``int`` where it reads them, so every layer
below sees the same kinds of value. Every input check of the package asks
:func:`is_whole`, or :func:`whole_number` with the error class of its own layer;
a refusal names the value and what was expected (:func:`expected`).

>>> import numpy as np
>>> is_whole(3), is_whole(np.int16(3)), is_whole(True), is_whole(3.0), is_whole("3")
(True, True, False, False, False)
>>> whole_number(np.int64(4), "attackers", 2)
4
>>> whole_number(2.5, "attackers", 2)
Traceback (most recent call last):
...
ValueError: attackers must be a whole number >= 2, got 2.5
>>> whole_number(np.int64(7), "n_players", 2, maximum=6)
Traceback (most recent call last):
...
ValueError: n_players must be a whole number from 2 to 6, got 7
>>> whole_number(None, "armies of Alaska")
Traceback (most recent call last):
...
ValueError: armies of Alaska is empty; expected a whole number
"""

from __future__ import annotations

import numbers
from typing import TypeGuard

import numpy as np

from analyzer.limits import quote


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: integral, and not a truth value (to a type checker, an
    ``int``: a numpy integer compares, indexes and converts as one)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def expected(minimum: int | None = None, maximum: int | None = None) -> str:
    """A whole number within the bounds given, as a message says it.

    >>> expected(), expected(1), expected(0, 3)
    ('a whole number', 'a whole number >= 1', 'a whole number from 0 to 3')
    """
    if minimum is not None and maximum is not None:
        return f"a whole number from {minimum} to {maximum}"
    if minimum is not None:
        return f"a whole number >= {minimum}"
    if maximum is not None:
        return f"a whole number <= {maximum}"
    return "a whole number"


def whole_number(
    value: object,
    name: str,
    minimum: int | None = None,
    error: type[ValueError] = ValueError,
    *,
    maximum: int | None = None,
) -> int:
    """``value`` as an ``int`` if it is a whole number within ``minimum`` and ``maximum`` (None: no
    bound), else ``error`` naming ``name``, the value and what was expected."""
    if is_whole(value) and (minimum is None or value >= minimum) and (maximum is None or value <= maximum):
        return int(value)
    if value is None:
        # A field left blank: "got None" would speak Python to a player.
        raise error(f"{name} is empty; expected {expected(minimum, maximum)}")
    # A numpy integer out of range is shown as the number it is, not as np.int64(7).
    shown = int(value) if is_whole(value) else value
    raise error(f"{name} must be {expected(minimum, maximum)}, got {quote(shown)}")
